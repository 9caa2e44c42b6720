/** rippled `account_tx`: the transactions that affected an account, a page at a time. */
import { z } from 'zod';
import { type CommonParams, type LedgerSelector } from './fields';

export interface AccountTxParams extends CommonParams, LedgerSelector {
  account: string;
  /** -1: the oldest (or newest) ledger the server holds. */
  ledger_index_min?: number;
  ledger_index_max?: number;
  binary?: boolean;
  forward?: boolean;
  limit?: number;
  marker?: unknown;
}

/** API v1 entries hold `tx`, API v2 entries `tx_json` (or `tx_blob` with `binary`); every one its `meta`. */
export const accountTxResult = z.looseObject({
  account: z.string(),
  transactions: z.array(z.looseObject({ meta: z.union([z.string(), z.looseObject({})]) })),
  marker: z.unknown().optional(),
});
export type AccountTxResult = z.infer<typeof accountTxResult>;
