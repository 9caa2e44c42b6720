import { InvalidParams } from '@ledger-node/errors';
import { hashTransaction } from './hash';
import type { ChainProfile } from './profiles';

/** Keys rippled adds around a transaction in JSON output; none of them is a serialized field. */
const TRANSACTION_ENVELOPE_KEYS = new Set([
  'hash',
  'metaData',
  'meta',
  'meta_blob',
  'tx_json',
  'tx_blob',
  'ledger_index',
  'ledger_hash',
  'inLedger',
  'date',
  'validated',
  'close_time_iso',
  'ctid',
]);

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Transaction fields for encoding: envelope keys dropped, API v2 `DeliverMax` mapped back to `Amount`. */
export function transactionFieldsFromJson(tx: Record<string, any>): Record<string, any> {
  const fields: Record<string, any> = {};
  for (const [key, value] of Object.entries(tx)) {
    if (TRANSACTION_ENVELOPE_KEYS.has(key)) continue;
    // rippled API v2: Payment's Amount is printed as DeliverMax; it is not a serialized field.
    if (key === 'DeliverMax') {
      if (tx.Amount === undefined) fields.Amount = value;
      continue;
    }
    fields[key] = value;
  }
  return fields;
}

/**
 * The object holding a recorded transaction's fields: API v2's `tx_json`, the `tx` of an
 * `account_tx` entry (`{tx, meta}`), the `transaction` of a stream message, or the recording itself
 * (API v1's flat fields).
 */
export function transactionJsonOf(tx: Record<string, any>): Record<string, any> {
  if (isRecord(tx.tx_json)) return tx.tx_json;
  if (tx.TransactionType === undefined) {
    if (isRecord(tx.tx)) return tx.tx;
    if (isRecord(tx.transaction)) return tx.transaction;
  }
  return tx;
}

/**
 * Binary form of one transaction of a `ledger` response (expanded): API v1 flat fields + `metaData`,
 * API v2 `tx_json` + `meta`, or binary `tx_blob` + `meta`. The hash is recomputed from the blob,
 * so a caller verifies it by comparing with the response's `hash`.
 */
export function transactionFromLedgerJson(
  tx: Record<string, any>,
  profile: ChainProfile,
): { hash: string; txBlob: string; metaBlob: string } {
  if (!isRecord(tx)) throw new InvalidParams('a transaction must be a JSON object', 'transaction');
  const meta = tx.metaData ?? tx.meta ?? tx.meta_blob;
  let txBlob: string;
  if (typeof tx.tx_blob === 'string') {
    txBlob = tx.tx_blob.toUpperCase();
  } else {
    txBlob = profile.codec.encode(transactionFieldsFromJson(transactionJsonOf(tx)));
  }
  let metaBlob: string;
  if (typeof meta === 'string') metaBlob = meta.toUpperCase();
  else if (isRecord(meta)) metaBlob = profile.codec.encode(meta);
  else throw new InvalidParams('the transaction has no metadata (metaData or meta)', 'metaData');
  return { hash: hashTransaction(txBlob), txBlob, metaBlob };
}

/** Binary form of one `accountState` entry: its `index` and serialized bytes. */
export function stateEntryFromLedgerJson(entry: Record<string, any>, profile: ChainProfile): { index: string; blob: string } {
  if (!isRecord(entry) || typeof entry.index !== 'string') throw new InvalidParams('a state entry needs its index', 'index');
  const { index, ...fields } = entry;
  return { index: index.toUpperCase(), blob: profile.codec.encode(fields) };
}

/**
 * JSON of a signed transaction blob. On Jingtum, a blob signed before the 2019 contract-field
 * renumbering decodes with the current table into placeholder names; it is decoded again with the
 * numbering of its time so its fields keep their own names (the bytes are the same either way).
 */
export function decodeTransactionBlob(txBlob: string | Uint8Array, profile: ChainProfile): Record<string, any> {
  const decoded = profile.codec.decode(txBlob);
  const markers = profile.legacyMarkerFields ?? [];
  if (profile.legacyContractCodec === undefined || !markers.some((field) => containsField(decoded, field))) return decoded;
  return profile.legacyContractCodec.decode(txBlob);
}

function containsField(value: unknown, fieldName: string): boolean {
  if (Array.isArray(value)) return value.some((member) => containsField(member, fieldName));
  if (!isRecord(value)) return false;
  return Object.entries(value).some(([key, member]) => key === fieldName || containsField(member, fieldName));
}
