/** rippled `ledger_closed`: the newest closed ledger (not necessarily validated yet). */
import { z } from 'zod';
import { hash256, ledgerIndex, type CommonParams } from './fields';

export type LedgerClosedParams = CommonParams;

export const ledgerClosedResult = z.looseObject({ ledger_hash: hash256, ledger_index: ledgerIndex });
export type LedgerClosedResult = z.infer<typeof ledgerClosedResult>;
