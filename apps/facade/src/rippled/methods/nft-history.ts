/**
 * Clio `nft_history` (NFTHistory.cpp): the validated transactions that touched an NFToken, newest
 * first (oldest first with `forward`), from the store's NFT index, within `ledger_index_min` /
 * `ledger_index_max` (each inside the stored range, else `lgrIdxMalformed`) or exactly one ledger
 * (`ledger_index` / `ledger_hash`, never with a range), in JSON or binary. As account_tx, `marker`
 * {ledger, seq} is the position of the last transaction returned; `limit` is 1 to 100 (50 by
 * default), and the answer repeats it when the request gave one.
 */
import { accountTxEntry, readAccountTxMarker, readBoolean, readLedgerBound, RpcError, type AccountTxMarker, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { rippledMarker, storeMarker } from './account-tx';
import { resolveLedger } from './ledgers';
import { checkClioLedgerFields, readNftId } from './nft-info';
import { placeOfRecord, transactionInput } from './records';

/** Clio NFTHistoryHandler LIMIT_MIN, LIMIT_MAX, LIMIT_DEFAULT. */
const LIMIT_MIN = 1;
const LIMIT_MAX = 100;
const LIMIT_DEFAULT = 50;

function readNftHistoryLimit(params: JsonObject): number | undefined {
  const value = params.limit;
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < LIMIT_MIN || value > 0xffffffff) throw new RpcError('invalidParams');
  return Math.min(value, LIMIT_MAX);
}

/** Clio: a marker that is not an object is `invalidMarker`; its ledger and seq are required unsigned integers. */
function readMarker(params: JsonObject): AccountTxMarker | undefined {
  if (params.marker === undefined) return undefined;
  if (typeof params.marker !== 'object' || params.marker === null || Array.isArray(params.marker)) throw new RpcError('invalidParams', 'invalidMarker');
  return readAccountTxMarker(params);
}

export const nftHistory: RippledMethod = async ({ params, apiVersion }, context) => {
  const nftId = readNftId(params);
  checkClioLedgerFields(params);
  const binary = readBoolean(params, 'binary');
  const forward = readBoolean(params, 'forward');
  const requestedLimit = readNftHistoryLimit(params);
  const limit = requestedLimit ?? LIMIT_DEFAULT;
  const marker = readMarker(params);
  const requestedMin = readLedgerBound(params, 'ledger_index_min');
  const requestedMax = readLedgerBound(params, 'ledger_index_max');

  const { completeRanges } = await context.queries.status();
  if (completeRanges.length === 0) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  const held = { first: completeRanges[0]!.first, last: completeRanges.at(-1)!.last };
  const outside = (index: number) => index < held.first || index > held.last;
  if (requestedMin !== undefined && outside(requestedMin)) throw new RpcError('lgrIdxMalformed', 'ledgerSeqMinOutOfRange');
  if (requestedMax !== undefined && outside(requestedMax)) throw new RpcError('lgrIdxMalformed', 'ledgerSeqMaxOutOfRange');
  let minLedgerIndex = requestedMin ?? held.first;
  let maxLedgerIndex = requestedMax ?? held.last;
  if (minLedgerIndex > maxLedgerIndex) throw new RpcError('lgrIdxsInvalid');
  if (params.ledger_index !== undefined || params.ledger_hash !== undefined) {
    // Clio's own check (rippled has no nft_history).
    if (requestedMin !== undefined || requestedMax !== undefined) throw new RpcError('invalidParams', 'containsLedgerSpecifierAndRange');
    const { header } = await resolveLedger(params, context);
    minLedgerIndex = maxLedgerIndex = header.ledgerIndex;
  }

  const page = await context.queries.nftTransactions({
    nftId: Buffer.from(nftId, 'hex'),
    forward,
    limit,
    marker: marker ? storeMarker(marker) : Buffer.alloc(0),
    ledgerRange: { first: minLedgerIndex, last: maxLedgerIndex },
  });
  const result: JsonObject = {
    nft_id: nftId,
    ledger_index_min: minLedgerIndex,
    ledger_index_max: maxLedgerIndex,
    transactions: page.transactions.map((record) => {
      const entry = accountTxEntry(placeOfRecord(record), transactionInput(record, context.profile), { apiVersion, binary });
      // Clio toJsonWithBinaryTx: a binary entry carries the ledger's close time too.
      return binary ? { ...entry, date: record.closeTimeRippleEpoch } : entry;
    }),
    validated: true,
  };
  const next = rippledMarker(page.marker);
  if (next) result.marker = next;
  if (requestedLimit !== undefined) result.limit = requestedLimit;
  return result;
};
