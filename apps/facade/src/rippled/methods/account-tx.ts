/**
 * rippled `account_tx`: the validated transactions that affected an account, newest first (or
 * oldest first with `forward`), within `ledger_index_min`/`ledger_index_max` (API v1 clamps them to
 * the stored range, v2 refuses bounds outside it) or exactly one ledger (`ledger_index` /
 * `ledger_hash`), in JSON or binary. As Clio: `marker` {ledger, seq} is the position of the last
 * transaction returned (the next page starts after it), `limit` is at least 1 (200 by default, at
 * most the node's page size), and `tx_type` keeps one transaction type (any case).
 */
import {
  accountTxEntry,
  accountTxRange,
  invalidField,
  readAccount,
  readAccountTxMarker,
  readBoolean,
  readLedgerSpec,
  readLimit,
  RpcError,
  type AccountTxMarker,
  type JsonObject,
} from '@ledger-node/rippled-api';
import type { ChainProfile } from '@ledger-node/chain';
import { Direction, TxDetail } from '@ledger-node/contracts';
import type { RippledMethod } from '../method';
import { storeSelector } from './ledgers';
import { placeOfRecord, transactionInput } from './records';

const MARKER_LENGTH = 8;

/** The store's history marker: the (ledger, TransactionIndex) position of the last transaction returned, big-endian. */
export function storeMarker(marker: AccountTxMarker): Buffer {
  const bytes = Buffer.alloc(MARKER_LENGTH);
  bytes.writeUInt32BE(marker.ledger, 0);
  bytes.writeUInt32BE(marker.seq, 4);
  return bytes;
}

/** The rippled marker `{ledger, seq}` of a store's history marker; none when the page was the last. */
export function rippledMarker(bytes: Buffer): AccountTxMarker | undefined {
  if (bytes.length !== MARKER_LENGTH) return undefined;
  return { ledger: bytes.readUInt32BE(0), seq: bytes.readUInt32BE(4) };
}

/** Clio: `tx_type` names a transaction type in any case; the store keeps the type's own name. */
function readTransactionType(params: JsonObject, profile: ChainProfile): string {
  const requested = params.tx_type;
  if (requested === undefined) return '';
  if (typeof requested !== 'string') throw invalidField('tx_type', 'string');
  const name = profile.definitions.transactionNames.find((candidate) => candidate.toLowerCase() === requested.toLowerCase());
  if (!name) throw invalidField('tx_type');
  return name;
}

export const accountTx: RippledMethod = async ({ params, apiVersion }, context) => {
  const { profile } = context;
  const account = readAccount(params, profile.codec);
  const binary = readBoolean(params, 'binary');
  const forward = readBoolean(params, 'forward');
  const limit = readLimit(params, { fallback: 200, min: 1, max: context.maxPageSize });
  const marker = readAccountTxMarker(params);
  const transactionType = readTransactionType(params, profile);
  const { completeRanges } = await context.queries.status();
  const held = { first: completeRanges[0]?.first ?? 0, last: completeRanges.at(-1)?.last ?? 0 };

  let minLedgerIndex: number;
  let maxLedgerIndex: number;
  const namesLedger = params.ledger_index !== undefined || params.ledger_hash !== undefined;
  const namesRange = params.ledger_index_min !== undefined || params.ledger_index_max !== undefined;
  if (namesLedger && apiVersion > 1 && namesRange) throw new RpcError('invalidParams', 'containsLedgerSpecifierAndRange');
  if (namesLedger && !namesRange) {
    // rippled: a single ledger selects exactly that ledger.
    const record = await context.queries.ledger(storeSelector(readLedgerSpec(params, 'validated')), TxDetail.NONE);
    if (!record) throw new RpcError('lgrNotFound', 'ledgerNotFound');
    minLedgerIndex = maxLedgerIndex = record.ledgerIndex;
  } else {
    if (completeRanges.length === 0) throw new RpcError('lgrNotFound', 'ledgerNotFound');
    ({ minLedgerIndex, maxLedgerIndex } = accountTxRange(params, held, apiVersion));
  }

  const page = await context.queries.accountTransactions({
    accountId: Buffer.from(profile.codec.decodeAccountId(account)),
    direction: Direction.BOTH,
    forward,
    limit,
    position: marker ? { $case: 'marker', marker: storeMarker(marker) } : undefined,
    ledgerRange: { first: minLedgerIndex, last: maxLedgerIndex },
    transactionType,
  });
  const result: JsonObject = {
    account,
    ledger_index_min: minLedgerIndex,
    ledger_index_max: maxLedgerIndex,
    limit,
    transactions: page.transactions.map((record) => accountTxEntry(placeOfRecord(record), transactionInput(record, profile), { apiVersion, binary })),
    validated: true,
  };
  const next = rippledMarker(page.marker);
  if (next) result.marker = next;
  return result;
};
