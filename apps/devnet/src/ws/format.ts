/**
 * rippled's JSON shapes for ledgers and transactions, per API version. Version 1 prints a
 * transaction flat with its `hash` and metadata as `metaData`/`meta`; version 2 nests it in
 * `tx_json`, prints a Payment's Amount as `DeliverMax`, and adds `close_time_iso`
 * (rippled LedgerToJson.cpp, Tx.cpp, AccountTx.cpp).
 */
import { encodeLedgerHeader, ledgerHeaderToJson, RIPPLE_EPOCH_OFFSET } from '@ledger-node/chain';
import type { ClosedLedger, ClosedTransaction, JsonObject } from '../engine/types';

export type ApiVersion = 1 | 2;

/** rippled `toStringIso`: '2020-07-16T20:53:40Z'. */
export function closeTimeIso(closeTime: number): string {
  return new Date((closeTime + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * rippled's compact transaction identifier (XLS-37): 0xC, 28-bit ledger index, 16-bit
 * TransactionIndex, 16-bit network id; absent when a part does not fit.
 */
export function ctidOf(ledgerIndex: number, txIndex: number, networkId: number): string | undefined {
  if (ledgerIndex > 0x0fffffff || txIndex > 0xffff || networkId > 0xffff) return undefined;
  const value = (0xcn << 60n) | (BigInt(ledgerIndex) << 32n) | (BigInt(txIndex) << 16n) | BigInt(networkId);
  return value.toString(16).toUpperCase().padStart(16, '0');
}

/** The transaction's own fields, without any response-only key a source may have left in. */
function ownFields(tx: ClosedTransaction): JsonObject {
  const { hash: _hash, metaData: _metaData, meta: _meta, ...fields } = tx.txJson;
  return fields;
}

/** Version 1: flat fields plus `hash`. */
export function txJsonV1(tx: ClosedTransaction): JsonObject {
  return { ...ownFields(tx), hash: tx.hash };
}

/** Version 2: fields with a Payment's `Amount` printed as `DeliverMax` (rippled insertDeliverMax). */
export function txJsonV2(tx: ClosedTransaction): JsonObject {
  const fields = ownFields(tx);
  if (fields.TransactionType === 'Payment' && fields.Amount !== undefined) {
    const { Amount: amount, ...rest } = fields;
    return { ...rest, DeliverMax: amount };
  }
  return fields;
}

/** The ledger header object of a `ledger` answer (non-binary). */
export function ledgerHeaderJson(ledger: ClosedLedger, apiVersion: ApiVersion): JsonObject {
  const json: JsonObject = ledgerHeaderToJson(ledger.header, ledger.hash);
  if (apiVersion > 1) {
    json.ledger_index = ledger.header.ledgerIndex;
    json.close_time_iso = closeTimeIso(ledger.header.closeTime);
  }
  return json;
}

/** The binary header rippled returns as `ledger_data` (rippled addRaw). */
export function ledgerHeaderHex(ledger: ClosedLedger): string {
  return encodeLedgerHeader(ledger.header).toString('hex').toUpperCase();
}

/** One transaction inside a `ledger` answer with `transactions: true` (rippled fillJsonTx). */
export function ledgerTransactionJson(
  ledger: ClosedLedger,
  tx: ClosedTransaction,
  options: { apiVersion: ApiVersion; expand: boolean; binary: boolean },
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
      ledger_hash: ledger.hash,
      validated: true,
      ledger_index: ledger.header.ledgerIndex,
      close_time_iso: closeTimeIso(ledger.header.closeTime),
    };
  }
  return { ...txJsonV1(tx), metaData: tx.metaJson };
}

/** The result of the `tx` method. */
export function txResult(
  ledger: ClosedLedger,
  tx: ClosedTransaction,
  options: { apiVersion: ApiVersion; binary: boolean; networkId: number },
): JsonObject {
  const ledgerIndex = ledger.header.ledgerIndex;
  const date = ledger.header.closeTime;
  const ctid = ctidOf(ledgerIndex, tx.index, options.networkId);
  const withCtid = (json: JsonObject): JsonObject => (ctid ? { ...json, ctid } : json);
  if (options.apiVersion > 1) {
    const common = {
      hash: tx.hash,
      ledger_index: ledgerIndex,
      ledger_hash: ledger.hash,
      close_time_iso: closeTimeIso(date),
      validated: true,
    };
    if (options.binary) return withCtid({ tx_blob: tx.txBlob, meta_blob: tx.metaBlob, ...common });
    return withCtid({ tx_json: { ...txJsonV2(tx), date, ledger_index: ledgerIndex }, meta: tx.metaJson, ...common });
  }
  if (options.binary) {
    return withCtid({ tx: tx.txBlob, meta: tx.metaBlob, hash: tx.hash, date, inLedger: ledgerIndex, ledger_index: ledgerIndex, validated: true });
  }
  return withCtid({ ...txJsonV1(tx), date, inLedger: ledgerIndex, ledger_index: ledgerIndex, meta: tx.metaJson, validated: true });
}

/** One entry of an `account_tx` answer. */
export function accountTxEntry(
  ledger: ClosedLedger,
  tx: ClosedTransaction,
  options: { apiVersion: ApiVersion; binary: boolean },
): JsonObject {
  const ledgerIndex = ledger.header.ledgerIndex;
  const date = ledger.header.closeTime;
  if (options.binary) {
    return options.apiVersion > 1
      ? { tx_blob: tx.txBlob, meta_blob: tx.metaBlob, hash: tx.hash, ledger_index: ledgerIndex, validated: true }
      : { tx_blob: tx.txBlob, meta: tx.metaBlob, ledger_index: ledgerIndex, validated: true };
  }
  if (options.apiVersion > 1) {
    return {
      close_time_iso: closeTimeIso(date),
      hash: tx.hash,
      ledger_hash: ledger.hash,
      ledger_index: ledgerIndex,
      meta: tx.metaJson,
      tx_json: { ...txJsonV2(tx), date, ledger_index: ledgerIndex },
      validated: true,
    };
  }
  return { meta: tx.metaJson, tx: { ...txJsonV1(tx), date, inLedger: ledgerIndex, ledger_index: ledgerIndex }, validated: true };
}
