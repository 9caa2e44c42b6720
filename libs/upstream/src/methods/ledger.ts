/**
 * rippled `ledger`: a closed ledger's header, with its transactions when asked. With `binary`, the
 * header is the serialized header (`ledger_data`) and, with `transactions` and `expand`, each
 * transaction its blob and metadata blob: the form sync verifies.
 */
import { z } from 'zod';
import { hash256, hexBytes, ledgerIndex, type CommonParams, type LedgerSelector } from './fields';

export interface LedgerParams extends CommonParams, LedgerSelector {
  transactions?: boolean;
  expand?: boolean;
  binary?: boolean;
}

/** One transaction of a binary, expanded `ledger` answer: API v1 `meta`, API v2 `meta_blob` and `hash`; the blobs as bytes. */
const binaryTransaction = z
  .looseObject({ tx_blob: hexBytes, meta: hexBytes.optional(), meta_blob: hexBytes.optional(), hash: hash256.optional() })
  .refine((tx) => tx.meta !== undefined || tx.meta_blob !== undefined, 'a transaction without metadata');

/** A closed ledger's answer: `ledger` as asked for, with the ledger's hash and index. */
function closedLedgerAnswer<L extends z.ZodType>(ledger: L) {
  return z.looseObject({ ledger, ledger_hash: hash256, ledger_index: ledgerIndex, validated: z.boolean().optional() });
}

/** The serialized header (`ledger_data`, as bytes) with the transactions in the form asked for. */
function binaryLedger<T extends z.ZodType>(transactions: T) {
  return z.looseObject({ ledger_data: hexBytes, closed: z.boolean().optional(), transactions });
}

/** `ledger` with `transactions`, `expand` and `binary`. */
export const binaryLedgerResult = closedLedgerAnswer(binaryLedger(z.array(binaryTransaction).default([])));
export type BinaryLedgerResult = z.infer<typeof binaryLedgerResult>;

/** `ledger` with `binary` but not expanded: the serialized header, and the transactions' hashes when asked. */
export const binaryLedgerHeaderResult = closedLedgerAnswer(binaryLedger(z.array(hash256).optional()));
export type BinaryLedgerHeaderResult = z.infer<typeof binaryLedgerHeaderResult>;

/** `ledger` in JSON: the header's fields (as the server prints them), and the transactions when asked (hashes, or expanded). */
export const jsonLedgerResult = closedLedgerAnswer(
  z.looseObject({
    account_hash: hash256,
    parent_hash: hash256,
    transaction_hash: hash256,
    close_time: z.number().int(),
    total_coins: z.string(),
    closed: z.boolean(),
    transactions: z.array(z.union([hash256, z.looseObject({ hash: hash256 })])).optional(),
  }),
);
export type JsonLedgerResult = z.infer<typeof jsonLedgerResult>;

export type LedgerResult<P> = P extends { binary: true }
  ? P extends { transactions: true; expand: true }
    ? BinaryLedgerResult
    : BinaryLedgerHeaderResult
  : JsonLedgerResult;

export function ledgerResultSchema(params: LedgerParams) {
  if (!params.binary) return jsonLedgerResult;
  return params.transactions && params.expand ? binaryLedgerResult : binaryLedgerHeaderResult;
}
