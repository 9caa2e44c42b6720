/**
 * Account history reads: pages of the transactions that touch an account (from the account
 * transaction index; transaction records are read only for the page returned) and the number of
 * transactions an account sent up to a ledger.
 */
import { decodeLedgerHeader, ZERO_HASH } from '@ledger-node/chain';
import { Direction, type GetAccountTransactionsRequest, type LedgerSelector, type TransactionRecord } from '@ledger-node/contracts';
import { Internal, InvalidParams, OutOfRange } from '@ledger-node/errors';
import { throwIfCancelled } from '@ledger-node/grpc';
import { IndexDirection, type HistoryPosition, type StoredHeader } from '../backend/records';
import { transactionRecord, type LedgerStore } from '../store';
import { requireAccountId } from '../state/reads';
import { rangesContain } from '../ledgers/ranges';

/** GetAccountTransactions answers at most this many transactions per call (ledgerstore.proto). */
export const MAX_ACCOUNT_TRANSACTIONS_PER_PAGE = 1000;
const MARKER_LENGTH = 8;
const NAME_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A history marker: the (ledger, tx index) position of the last entry of a page, big-endian (the account and NFT indexes share it). */
export function encodeMarker(position: HistoryPosition): Buffer {
  const marker = Buffer.alloc(MARKER_LENGTH);
  marker.writeUInt32BE(position.ledgerIndex, 0);
  marker.writeUInt32BE(position.txIndex, 4);
  return marker;
}

export function decodeMarker(marker: Buffer): HistoryPosition {
  if (marker.length !== MARKER_LENGTH) throw new InvalidParams(`marker must be a marker from a previous page (${MARKER_LENGTH} bytes), got ${marker.length} bytes`, 'marker');
  return { ledgerIndex: marker.readUInt32BE(0), txIndex: marker.readUInt32BE(4) };
}

function directionFilter(direction: Direction): IndexDirection | undefined {
  switch (direction) {
    case Direction.UNSPECIFIED:
    case Direction.BOTH:
      return undefined;
    case Direction.IN:
      return IndexDirection.in;
    case Direction.OUT:
      return IndexDirection.out;
    default:
      throw new InvalidParams('direction must be DIRECTION_IN, DIRECTION_OUT, DIRECTION_BOTH or unspecified (both)', 'direction');
  }
}

/**
 * One page of the account's transactions in the order asked, and the marker of the next page
 * (empty when this is the last). A page number skips `page × limit` matching index entries; a
 * marker continues after the last entry of the page that gave it. The scan (a deep page may
 * read many entries) stops when `signal` says the caller went away or ran out of time.
 */
export async function accountTransactions(
  store: LedgerStore,
  request: GetAccountTransactionsRequest,
  signal?: AbortSignal,
): Promise<{ transactions: TransactionRecord[]; marker: Buffer }> {
  requireAccountId(request.accountId);
  const wanted = directionFilter(request.direction);
  if (request.limit > MAX_ACCOUNT_TRANSACTIONS_PER_PAGE) {
    throw new InvalidParams(`limit must be at most ${MAX_ACCOUNT_TRANSACTIONS_PER_PAGE} transactions per page, got ${request.limit}`, 'limit');
  }
  const limit = request.limit === 0 ? MAX_ACCOUNT_TRANSACTIONS_PER_PAGE : request.limit;
  if (request.transactionType !== '' && !NAME_PATTERN.test(request.transactionType)) {
    throw new InvalidParams(`transaction_type must be a transaction type name such as "Payment", got ${JSON.stringify(request.transactionType)}`, 'transaction_type');
  }
  const range = request.ledgerRange;
  if (range && range.last < range.first) throw new InvalidParams(`ledger_range.last ${range.last} is below ledger_range.first ${range.first}`, 'ledger_range.last');
  const position = request.position;
  const after = position?.$case === 'marker' ? decodeMarker(position.marker) : undefined;
  let toSkip = position?.$case === 'page' ? position.page * limit : 0;

  const page: HistoryPosition[] = [];
  let more = false;
  const entries = store.backend.accountTransactionEntries(request.accountId, {
    reverse: !request.forward,
    firstLedger: range?.first,
    lastLedger: range?.last,
    after,
  });
  for await (const entry of entries) {
    throwIfCancelled(signal);
    if (wanted !== undefined && entry.direction !== wanted) continue;
    if (store.unproven(entry.ledgerIndex)) continue;
    if (request.transactionType !== '') {
      // Entries written before the index carried the type are checked against their record.
      const type = entry.transactionType ?? (await typeOfStored(store, entry.ledgerIndex, entry.txIndex));
      if (type !== request.transactionType) continue;
    }
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push({ ledgerIndex: entry.ledgerIndex, txIndex: entry.txIndex });
  }
  return { transactions: await recordsOf(store, page), marker: more ? encodeMarker(page.at(-1)!) : Buffer.alloc(0) };
}

async function typeOfStored(store: LedgerStore, ledgerIndex: number, txIndex: number): Promise<string | undefined> {
  const hash = await store.backend.transactionHashAt(ledgerIndex, txIndex);
  return hash && (await store.backend.transactions([hash]))[0]?.transactionType;
}

/**
 * The records at `positions`, in order. A ledger that bounded history (-ledger_history) removed
 * after the index was read is left out of the page, as a read started now would not list it; a
 * piece missing from a ledger still held is corruption.
 */
export async function recordsOf(store: LedgerStore, positions: HistoryPosition[]): Promise<TransactionRecord[]> {
  const leftOut = (ledgerIndex: number, missing: string): TransactionRecord[] => {
    if (rangesContain(store.ranges, ledgerIndex)) throw new Internal(missing);
    return [];
  };
  const headers = new Map<number, StoredHeader | undefined>();
  for (const ledgerIndex of new Set(positions.map((position) => position.ledgerIndex))) {
    headers.set(ledgerIndex, await store.backend.header(ledgerIndex));
  }
  const hashes = await Promise.all(positions.map((position) => store.backend.transactionHashAt(position.ledgerIndex, position.txIndex)));
  const transactions = await store.backend.transactions(hashes.filter((hash) => hash !== undefined));
  let next = 0;
  return positions.flatMap((position, at) => {
    const { ledgerIndex, txIndex } = position;
    const hash = hashes[at];
    // The index entry and the ledger's rows are written (and removed) in one batch.
    if (!hash) return leftOut(ledgerIndex, `the index lists ledger ${ledgerIndex} tx ${txIndex}, which is not stored`);
    const tx = transactions[next++];
    if (!tx) return leftOut(ledgerIndex, `transaction ${hash.toString('hex').toUpperCase()} is indexed but not stored`);
    const header = headers.get(ledgerIndex);
    if (!header) return leftOut(ledgerIndex, `ledger ${ledgerIndex} holds indexed transactions but its header is not stored`);
    return [transactionRecord(tx, header)];
  });
}

/** What the account sent in the unproven ledgers (unproven.ts) up to `ledgerIndex`: left out of its count, as they are of every read. */
async function sentInUnproven(store: LedgerStore, accountId: Buffer, ledgerIndex: number): Promise<bigint> {
  let sent = 0n;
  for (const range of store.unprovenRanges) {
    if (range.first > ledgerIndex) break;
    const [upToLast, belowFirst] = await Promise.all([store.backend.sentUpTo(accountId, Math.min(range.last, ledgerIndex)), range.first > 1 ? store.backend.sentUpTo(accountId, range.first - 1) : 0n]);
    sent += upToLast - belowFirst;
  }
  return sent;
}

export interface AccountTransactionCount {
  sentCount: bigint;
  header: StoredHeader;
  coversAccountLifetime: boolean;
  earliestStoredLedgerIndex: number;
}

/**
 * Transactions the account sent in stored ledgers up to and including the selected one. The
 * count is the account's whole count only when the complete range holding that ledger reaches
 * back to the account's creation (a stored CreatedNode AccountRoot), or starts at the chain's
 * genesis ledger (parent hash zero).
 */
export async function accountTransactionCount(store: LedgerStore, accountId: Buffer, selector: LedgerSelector | undefined): Promise<AccountTransactionCount> {
  requireAccountId(accountId);
  const header = await store.resolve(selector, 'ledger');
  const ranges = store.ranges;
  if (!header) {
    throw new OutOfRange(`the ledger asked for is not stored; stored ledgers: ${ranges.map((range) => `${range.first}-${range.last}`).join(', ') || 'none'}`, {
      complete_ranges: [...ranges],
    });
  }
  const range = ranges.find((candidate) => candidate.first <= header.ledgerIndex && header.ledgerIndex <= candidate.last)!;
  const [sentCount, createdAt, firstHeader] = await Promise.all([
    store.backend.sentUpTo(accountId, header.ledgerIndex),
    store.backend.accountCreatedAtOrBelow(accountId, header.ledgerIndex),
    store.backend.header(range.first),
  ]);
  const startsAtGenesis = firstHeader !== undefined && decodeLedgerHeader(firstHeader.header).parentHash === ZERO_HASH;
  return {
    sentCount: sentCount - (await sentInUnproven(store, accountId, header.ledgerIndex)),
    header,
    coversAccountLifetime: startsAtGenesis || (createdAt !== undefined && createdAt >= range.first),
    earliestStoredLedgerIndex: range.first,
  };
}
