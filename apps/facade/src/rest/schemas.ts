/** Schemas that several REST resources share: hashes, ledger identifiers, paging, a transaction. */
import { z } from 'zod';
import type { LedgerSelector } from '@ledger-node/contracts';
import { maxHistoryPage } from '../jsonrpc/methods/jt_account';
import { blockHash, blockNumberOrTag } from '../jsonrpc/params';

export const hexHash = z.string().regex(/^[0-9A-F]{64}$/);
export const booleanText = z.enum(['true', 'false']).optional().transform((value) => value === 'true');

export const ledgerIdentifier = z
  .string()
  .describe('a ledger index, a 64-hex-digit ledger hash, or a tag: validated, closed, current, latest, pending, earliest')
  .transform((value, ctx) => {
    const parsed = (/^(0x)?[0-9a-fA-F]{64}$/.test(value) ? blockHash : blockNumberOrTag).safeParse(value);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: 'expected a ledger index, a ledger hash or a tag' });
      return z.NEVER;
    }
    return parsed.data;
  });

/** How an answer names a ledger it did not find. */
export function describeSelector(ledger: LedgerSelector): string {
  const selector = ledger.selector;
  if (selector?.$case === 'index') return String(selector.index);
  if (selector?.$case === 'hash') return selector.hash.toString('hex').toUpperCase();
  return 'of that tag';
}

const pageLimit = z
  .string()
  .regex(/^\d+$/, 'expected a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'expected at least 1').max(maxHistoryPage, `expected at most ${maxHistoryPage}`))
  .optional()
  .describe(`page size, 1 to ${maxHistoryPage} (default 20)`);
const pageMarker = z.string().regex(/^([0-9a-f]{2})+$/, 'expected the marker of a previous page').optional().describe('marker of the next page, from a previous answer');

export const pagingQuery = z.object({ limit: pageLimit, marker: pageMarker, descending: booleanText.describe('newest first when true') }).loose();

export const transactionSchema = z
  .object({
    hash: hexHash,
    ledger_index: z.number().int(),
    ledger_hash: hexHash,
    date: z.string().describe("when the transaction's ledger closed, ISO 8601 with a UTC offset"),
    tx: z
      .looseObject({ TransactionType: z.string(), Account: z.string() })
      .describe('the transaction as the chain records it: native amounts (Amount, Fee…) in drops as decimal strings, issued amounts as {currency, issuer, value}, times in Ripple-epoch seconds'),
    meta: z.looseObject({ TransactionResult: z.string() }).describe('its metadata as the chain records it, in the same units'),
  })
  .describe('A validated transaction with its metadata');
