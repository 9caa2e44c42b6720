/** rippled `tx`: one transaction by its hash, with its metadata once it is in a ledger. */
import { z } from 'zod';
import { hash256, ledgerIndex, type CommonParams } from './fields';

export interface TxParams extends CommonParams {
  transaction: string;
  binary?: boolean;
}

export const txResult = z.looseObject({
  hash: hash256,
  ledger_index: ledgerIndex.optional(),
  validated: z.boolean().optional(),
  meta: z.union([z.string(), z.looseObject({ TransactionResult: z.string() })]).optional(),
});
export type TxResult = z.infer<typeof txResult>;
