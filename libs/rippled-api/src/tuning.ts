/**
 * rippled's page sizes for callers that are not admins (rippled Tuning.h; Clio uses the same):
 * `limit` is clamped into [min, max], `fallback` when absent.
 */
import type { LimitRange } from './params';

export const pageLimits = {
  accountChannels: { fallback: 200, min: 10, max: 400 },
  accountLines: { fallback: 200, min: 10, max: 400 },
  accountObjects: { fallback: 200, min: 10, max: 400 },
  accountOffers: { fallback: 200, min: 10, max: 400 },
  accountNfts: { fallback: 100, min: 20, max: 400 },
  accountTx: { fallback: 200, min: 1, max: 1000 },
  bookOffers: { fallback: 60, min: 1, max: 100 },
  ledgerDataBinary: { fallback: 2048, min: 1, max: 2048 },
  ledgerDataJson: { fallback: 256, min: 1, max: 256 },
  nftOffers: { fallback: 250, min: 50, max: 500 },
  noRippleCheck: { fallback: 300, min: 10, max: 400 },
} as const satisfies Record<string, LimitRange>;
