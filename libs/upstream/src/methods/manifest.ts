/** rippled `manifest` (public): the newest manifest the server knows for a validator's master or signing key. */
import { z } from 'zod';
import type { CommonParams } from './fields';

export interface ManifestParams extends CommonParams {
  /** The key asked about, as rippled prints node public keys (`n…`). */
  public_key: string;
}

/** An unknown key is answered with `requested` alone. */
export const manifestResult = z.looseObject({
  requested: z.string(),
  manifest: z.string().max(4096).optional(),
});
export type ManifestResult = z.infer<typeof manifestResult>;
