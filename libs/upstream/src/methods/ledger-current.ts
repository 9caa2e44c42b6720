/** rippled `ledger_current`: the index of the open ledger, the one a transaction submitted now may enter. */
import { z } from 'zod';
import { ledgerIndex, type CommonParams } from './fields';

export type LedgerCurrentParams = CommonParams;

export const ledgerCurrentResult = z.looseObject({ ledger_current_index: ledgerIndex });
export type LedgerCurrentResult = z.infer<typeof ledgerCurrentResult>;
