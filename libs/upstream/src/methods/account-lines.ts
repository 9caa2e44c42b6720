/** rippled `account_lines`: an account's trust lines at a ledger. */
import { z } from 'zod';
import { type CommonParams, type LedgerSelector } from './fields';

export interface AccountLinesParams extends CommonParams, LedgerSelector {
  account: string;
  peer?: string;
  limit?: number;
  marker?: unknown;
}

export const accountLinesResult = z.looseObject({
  account: z.string(),
  lines: z.array(z.looseObject({ account: z.string(), balance: z.string(), currency: z.string(), limit: z.string(), limit_peer: z.string() })),
  marker: z.unknown().optional(),
});
export type AccountLinesResult = z.infer<typeof accountLinesResult>;
