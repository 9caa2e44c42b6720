/** Field shapes shared by the rippled answers (rippled API conventions: hashes and blobs as hex). */
import { z } from 'zod';

export const hash256 = z.string().regex(/^[0-9A-Fa-f]{64}$/);
/** Where isHex decodes into; grown to the longest text seen. */
let scratch = Buffer.alloc(64 * 1024);

/**
 * Whole hex bytes, either case. Node's hex decoding stops at the first character that is not a
 * hex digit and drops an odd last one, so the text is hex exactly when all of it decodes; into a
 * reused buffer, this checks megabytes of blobs several times faster than a pattern match.
 */
export function isHex(text: string): boolean {
  if (text.length % 2 !== 0) return false;
  if (scratch.length < text.length / 2) scratch = Buffer.alloc(text.length);
  return scratch.write(text, 0, 'hex') * 2 === text.length;
}

export const hex = z.string().refine(isHex, { message: 'expected hex bytes' });
/** Older servers print ledger indexes as strings. */
export const ledgerIndex = z
  .union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().positive().max(0xffffffff));
export const uint32 = z.number().int().nonnegative().max(0xffffffff);

/** Which ledger a request reads: by index, by rippled's shortcut, or by hash (`ledger_hash`). */
export type LedgerSelector = { ledger_index?: number | 'validated' | 'closed' | 'current'; ledger_hash?: string };

/** Parameters every command takes. */
export interface CommonParams {
  /** rippled API version (1 or 2); the server's default when absent. */
  api_version?: 1 | 2;
}
