/**
 * rippled's JSON shapes for ledgers and transactions, per API version. Version 1 prints a
 * transaction flat with its `hash` and metadata as `metaData`/`meta`; version 2 nests it in
 * `tx_json`, prints a Payment's Amount as `DeliverMax`, and adds `close_time_iso`
 * (rippled LedgerToJson.cpp, Tx.cpp, AccountTx.cpp). The renderers take plain inputs, so that any
 * holder of a ledger (a live chain, a store) can supply them.
 */
import { encodeLedgerHeader, ledgerHeaderToJson, RIPPLE_EPOCH_OFFSET, type LedgerHeader } from '@ledger-node/chain';
import type { ApiVersion, JsonObject } from './protocol';
import { nftSyntheticFields } from './synthetic';

/** A validated ledger's header with its hash (uppercase hex). */
export interface HeaderWithHash {
  readonly header: LedgerHeader;
  readonly hash: string;
}

/** Where a transaction sits: the validated ledger that holds it. */
export interface LedgerPlace {
  readonly ledgerIndex: number;
  /** Uppercase hex. */
  readonly ledgerHash: string;
  /** Seconds since the Ripple epoch. */
  readonly closeTime: number;
}

/**
 * One validated transaction, in both forms. A renderer reads only the form it prints, so a holder
 * may decode the JSON lazily (getters).
 */
export interface TransactionInput {
  /** Uppercase hex transaction hash. */
  readonly hash: string;
  /** Uppercase hex of the signed transaction. */
  readonly txBlob: string;
  /** Uppercase hex of the serialized metadata. */
  readonly metaBlob: string;
  /** The decoded transaction, addresses in the chain's alphabet. */
  readonly txJson: JsonObject;
  /** The decoded metadata, with rippled's `delivered_amount` and `mpt_issuance_id` where they apply. */
  readonly metaJson: JsonObject;
  /** Position in the ledger (TransactionIndex). */
  readonly index: number;
}

export function placeOf(ledger: HeaderWithHash): LedgerPlace {
  return { ledgerIndex: ledger.header.ledgerIndex, ledgerHash: ledger.hash, closeTime: ledger.header.closeTime };
}

/** rippled `toStringIso`: '2020-07-16T20:53:40Z'. */
export function closeTimeIso(closeTime: number): string {
  return new Date((closeTime + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * rippled's compact transaction identifier (XLS-37): 0xC, 28-bit ledger index, 16-bit
 * TransactionIndex, 16-bit network id; absent when a part does not fit.
 */
export function ctidOf(ledgerIndex: number, txIndex: number, networkId: number | undefined): string | undefined {
  if (networkId === undefined || ledgerIndex > 0x0fffffff || txIndex > 0xffff || networkId > 0xffff) return undefined;
  const value = (0xcn << 60n) | (BigInt(ledgerIndex) << 32n) | (BigInt(txIndex) << 16n) | BigInt(networkId);
  return value.toString(16).toUpperCase().padStart(16, '0');
}

/** The transaction's own fields, without any response-only key a source may have left in. */
function ownFields(tx: TransactionInput): JsonObject {
  const { hash: _hash, metaData: _metaData, meta: _meta, ...fields } = tx.txJson;
  return fields;
}

/**
 * How a server renders: `v1DeliverMax` (rippled 2.0 and later, the default) also prints a
 * Payment's Amount as `DeliverMax` in API v1; servers before 2.0 print Amount alone.
 */
export interface RenderStyle {
  readonly v1DeliverMax?: boolean;
}

/** Version 1: flat fields plus `hash`; a Payment's Amount also as `DeliverMax` (rippled 2.0 insertDeliverMax keeps both in v1). */
export function txJsonV1(tx: TransactionInput, style: RenderStyle = {}): JsonObject {
  const fields = ownFields(tx);
  if ((style.v1DeliverMax ?? true) && fields.TransactionType === 'Payment' && fields.Amount !== undefined) {
    return { ...fields, DeliverMax: fields.Amount, hash: tx.hash };
  }
  return { ...fields, hash: tx.hash };
}

/** Version 2: fields with a Payment's `Amount` printed as `DeliverMax` (rippled insertDeliverMax). */
export function txJsonV2(tx: TransactionInput): JsonObject {
  const fields = ownFields(tx);
  if (fields.TransactionType === 'Payment' && fields.Amount !== undefined) {
    const { Amount: amount, ...rest } = fields;
    return { ...rest, DeliverMax: amount };
  }
  return fields;
}

/** The ledger header object of a `ledger` answer (non-binary); rippled fillJson prints close_time_iso in every version. */
export function ledgerHeaderJson(ledger: HeaderWithHash, apiVersion: ApiVersion): JsonObject {
  const json: JsonObject = ledgerHeaderToJson(ledger.header, ledger.hash);
  if (apiVersion > 1) json.ledger_index = ledger.header.ledgerIndex;
  json.close_time_iso = closeTimeIso(ledger.header.closeTime);
  return json;
}

/** A ledger's transactions in the order rippled lists them: its transaction tree's, by hash. */
export function inTreeOrder<T>(transactions: readonly T[], hashOf: (tx: T) => string): T[] {
  return transactions
    .map((tx) => ({ tx, key: hashOf(tx).toUpperCase() }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ tx }) => tx);
}

/** The binary header rippled returns as `ledger_data` (rippled addRaw). */
export function ledgerHeaderHex(ledger: HeaderWithHash): string {
  return encodeLedgerHeader(ledger.header).toString('hex').toUpperCase();
}

/** One transaction inside a `ledger` answer with `transactions: true` (rippled fillJsonTx). */
export function ledgerTransactionJson(
  place: LedgerPlace,
  tx: TransactionInput,
  options: { apiVersion: ApiVersion; expand: boolean; binary: boolean } & RenderStyle,
): unknown {
  if (!options.expand) return tx.hash;
  if (options.binary) {
    return options.apiVersion > 1
      ? { tx_blob: tx.txBlob, hash: tx.hash, meta_blob: tx.metaBlob }
      : { tx_blob: tx.txBlob, meta: tx.metaBlob };
  }
  if (options.apiVersion > 1) {
    return {
      tx_json: txJsonV2(tx),
      hash: tx.hash,
      meta: tx.metaJson,
      ledger_hash: place.ledgerHash,
      validated: true,
      ledger_index: place.ledgerIndex,
      close_time_iso: closeTimeIso(place.closeTime),
    };
  }
  return { ...txJsonV1(tx, options), metaData: tx.metaJson };
}

/** The metadata as `tx`, `account_tx` and the streams print it: with the NFToken fields rippled adds. */
export function answerMeta(tx: TransactionInput): JsonObject {
  const synthetic = nftSyntheticFields(tx.txJson, tx.metaJson);
  return Object.keys(synthetic).length === 0 ? tx.metaJson : { ...tx.metaJson, ...synthetic };
}

/** The result of the `tx` method. */
export function txResult(
  place: LedgerPlace,
  tx: TransactionInput,
  options: { apiVersion: ApiVersion; binary: boolean; networkId: number | undefined } & RenderStyle,
): JsonObject {
  const { ledgerIndex, closeTime: date } = place;
  const ctid = ctidOf(ledgerIndex, tx.index, options.networkId);
  const withCtid = (json: JsonObject): JsonObject => (ctid ? { ...json, ctid } : json);
  if (options.apiVersion > 1) {
    const common = {
      hash: tx.hash,
      ledger_index: ledgerIndex,
      ledger_hash: place.ledgerHash,
      close_time_iso: closeTimeIso(date),
      validated: true,
    };
    if (options.binary) return withCtid({ tx_blob: tx.txBlob, meta_blob: tx.metaBlob, ...common });
    return withCtid({ tx_json: { ...txJsonV2(tx), date, ledger_index: ledgerIndex }, meta: answerMeta(tx), ...common });
  }
  if (options.binary) {
    return withCtid({ tx: tx.txBlob, meta: tx.metaBlob, hash: tx.hash, date, inLedger: ledgerIndex, ledger_index: ledgerIndex, validated: true });
  }
  return withCtid({ ...txJsonV1(tx, options), date, inLedger: ledgerIndex, ledger_index: ledgerIndex, meta: answerMeta(tx), validated: true });
}

/** One entry of an `account_tx` answer. */
export function accountTxEntry(place: LedgerPlace, tx: TransactionInput, options: { apiVersion: ApiVersion; binary: boolean } & RenderStyle): JsonObject {
  const { ledgerIndex, closeTime: date } = place;
  if (options.binary) {
    return options.apiVersion > 1
      ? { tx_blob: tx.txBlob, meta_blob: tx.metaBlob, hash: tx.hash, ledger_index: ledgerIndex, validated: true }
      : { tx_blob: tx.txBlob, meta: tx.metaBlob, ledger_index: ledgerIndex, validated: true };
  }
  if (options.apiVersion > 1) {
    return {
      close_time_iso: closeTimeIso(date),
      hash: tx.hash,
      ledger_hash: place.ledgerHash,
      ledger_index: ledgerIndex,
      meta: answerMeta(tx),
      tx_json: { ...txJsonV2(tx), date, ledger_index: ledgerIndex },
      validated: true,
    };
  }
  return { meta: answerMeta(tx), tx: { ...txJsonV1(tx, options), date, inLedger: ledgerIndex, ledger_index: ledgerIndex }, validated: true };
}

/** rippled DeliveredAmount.cpp: before this ledger (or close time) a payment's delivery was not recorded. */
const DELIVERED_AMOUNT_SINCE_LEDGER = 4594095;
const DELIVERED_AMOUNT_SINCE_CLOSE_TIME = 446000000;

/**
 * rippled insertDeliveredAmount: a successful Payment, CheckCash or AccountDelete shows what
 * arrived as `delivered_amount`: the metadata's DeliveredAmount, else the Amount for a ledger
 * recent enough that a partial payment would have recorded one, else "unavailable".
 */
export function deliveredAmountOf(txJson: JsonObject, metaJson: JsonObject, place: LedgerPlace, successToken = 'tesSUCCESS'): unknown {
  const type = txJson.TransactionType;
  if (type !== 'Payment' && type !== 'CheckCash' && type !== 'AccountDelete') return undefined;
  if (metaJson.TransactionResult !== successToken) return undefined;
  if (metaJson.DeliveredAmount !== undefined) return metaJson.DeliveredAmount;
  if (txJson.Amount !== undefined && (place.ledgerIndex >= DELIVERED_AMOUNT_SINCE_LEDGER || place.closeTime > DELIVERED_AMOUNT_SINCE_CLOSE_TIME)) {
    return txJson.Amount;
  }
  return 'unavailable';
}
