/** Field shapes shared by the rippled answers (rippled API conventions: hashes and blobs as hex). */
import { z } from 'zod';
import { decodeHex, isHex } from '@ledger-node/chain';

export const hash256 = z.string().regex(/^[0-9A-Fa-f]{64}$/);
export const hex = z.string().refine(isHex, { message: 'expected hex bytes' });
/** Hex text decoded to its bytes, once: where the bytes are what is kept (a ledger's header and blobs). */
export const hexBytes = z.string().transform((text, ctx) => {
  const bytes = decodeHex(text);
  if (bytes !== undefined) return bytes;
  ctx.issues.push({ code: 'custom', message: 'expected hex bytes', input: text });
  return z.NEVER;
});
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
