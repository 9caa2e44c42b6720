/**
 * NFToken reads (Clio's nft_info and nft_history): a token as of a ledger, from the states the
 * ledgers that changed it left (the NFT index), and pages of the transactions that touched it.
 * Ledgers nothing proved yet (store/unproven.ts) are skipped, as every read skips them.
 */
import type { GetNftRequest, GetNftResponse, GetNftTransactionsRequest, GetNftTransactionsResponse } from '@ledger-node/contracts';
import { InvalidParams, NotFound, OutOfRange } from '@ledger-node/errors';
import { throwIfCancelled } from '@ledger-node/grpc';
import { LedgerTag } from '@ledger-node/contracts';
import type { HistoryPosition } from '../backend/records';
import type { LedgerStore } from '../store';
import { decodeMarker, encodeMarker, MAX_ACCOUNT_TRANSACTIONS_PER_PAGE, recordsOf } from '../accounts/history';

const NFT_ID_LENGTH = 32;

function requireNftId(nftId: Buffer): void {
  if (nftId.length !== NFT_ID_LENGTH) throw new InvalidParams(`nft_id must be a 32-byte NFTokenID, got ${nftId.length} bytes`, 'nft_id');
}

/** The token as the newest proven stored ledger at or below the one asked for that changed it left it. */
export async function nftAt(store: LedgerStore, request: GetNftRequest): Promise<GetNftResponse> {
  requireNftId(request.nftId);
  const header = await store.resolve(request.ledger ?? { selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, 'ledger');
  if (!header) {
    const ranges = store.ranges;
    throw new OutOfRange(`the ledger asked for is not stored; stored ledgers: ${ranges.map((range) => `${range.first}-${range.last}`).join(', ') || 'none'}`, {
      complete_ranges: [...ranges],
    });
  }
  for await (const state of store.backend.nftStatesAtOrBelow(request.nftId, header.ledgerIndex)) {
    if (store.unproven(state.ledgerIndex)) continue;
    return {
      nft: { nftId: request.nftId, ownerAccountId: state.ownerAccountId, burned: state.burned, uri: state.uri },
      changedLedgerIndex: state.ledgerIndex,
      ledgerIndex: header.ledgerIndex,
    };
  }
  throw new NotFound(`no stored ledger up to ${header.ledgerIndex} changed NFToken ${request.nftId.toString('hex').toUpperCase()}`);
}

/** One page of the transactions that touched the token, in the order asked, and the marker of the next page (empty when this is the last). */
export async function nftTransactions(store: LedgerStore, request: GetNftTransactionsRequest, signal?: AbortSignal): Promise<GetNftTransactionsResponse> {
  requireNftId(request.nftId);
  if (request.limit > MAX_ACCOUNT_TRANSACTIONS_PER_PAGE) {
    throw new InvalidParams(`limit must be at most ${MAX_ACCOUNT_TRANSACTIONS_PER_PAGE} transactions per page, got ${request.limit}`, 'limit');
  }
  const limit = request.limit === 0 ? MAX_ACCOUNT_TRANSACTIONS_PER_PAGE : request.limit;
  const range = request.ledgerRange;
  if (range && range.last < range.first) throw new InvalidParams(`ledger_range.last ${range.last} is below ledger_range.first ${range.first}`, 'ledger_range.last');
  const after = request.marker.length > 0 ? decodeMarker(request.marker) : undefined;
  const page: HistoryPosition[] = [];
  let more = false;
  for await (const position of store.backend.nftTransactionEntries(request.nftId, { reverse: !request.forward, firstLedger: range?.first, lastLedger: range?.last, after })) {
    throwIfCancelled(signal);
    if (store.unproven(position.ledgerIndex)) continue;
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push(position);
  }
  return { transactions: await recordsOf(store, page), marker: more ? encodeMarker(page.at(-1)!) : Buffer.alloc(0) };
}
