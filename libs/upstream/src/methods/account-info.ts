/** rippled `account_info`: an account's root object (balance, next sequence) at a ledger. */
import { z } from 'zod';
import { ledgerIndex, uint32, type CommonParams, type LedgerSelector } from './fields';

export interface AccountInfoParams extends CommonParams, LedgerSelector {
  account: string;
}

export const accountInfoResult = z.looseObject({
  account_data: z.looseObject({ Account: z.string(), Balance: z.string(), Sequence: uint32 }),
  ledger_index: ledgerIndex.optional(),
  ledger_current_index: ledgerIndex.optional(),
  validated: z.boolean().optional(),
});
export type AccountInfoResult = z.infer<typeof accountInfoResult>;
