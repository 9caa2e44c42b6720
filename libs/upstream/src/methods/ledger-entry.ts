/** rippled `ledger_entry`: one state object of a ledger, by its key (`index`) or by what it is (e.g. `account_root`). */
import { z } from 'zod';
import { hash256, hex, ledgerIndex, type CommonParams, type LedgerSelector } from './fields';

export interface LedgerEntryParams extends CommonParams, LedgerSelector {
  /** The object's key. */
  index?: string;
  account_root?: string;
  ripple_state?: { accounts: readonly [string, string]; currency: string };
  offer?: string | { account: string; seq: number };
  directory?: string | { owner: string; sub_index?: number } | { dir_root: string; sub_index?: number };
  binary?: boolean;
}

/** `ledger_entry` with `binary`: one state object as the ledger holds it. */
export const binaryLedgerEntryResult = z.looseObject({
  index: hash256,
  node_binary: hex,
});
export type BinaryLedgerEntryResult = z.infer<typeof binaryLedgerEntryResult>;

export const jsonLedgerEntryResult = z.looseObject({
  index: hash256,
  node: z.looseObject({ LedgerEntryType: z.string() }),
  ledger_index: ledgerIndex.optional(),
  validated: z.boolean().optional(),
});
export type JsonLedgerEntryResult = z.infer<typeof jsonLedgerEntryResult>;

export type LedgerEntryResult<P> = P extends { binary: true } ? BinaryLedgerEntryResult : JsonLedgerEntryResult;

export function ledgerEntryResultSchema(params: LedgerEntryParams) {
  return params.binary ? binaryLedgerEntryResult : jsonLedgerEntryResult;
}
