import { randomBytes } from 'node:crypto';
import type { RippledMethod } from '../method';

/** rippled: `ping` answers an empty result; it proves the connection is alive. */
export const ping: RippledMethod = async () => ({});

/** rippled `random`: 256 random bits as uppercase hex (a uint256). */
export const random: RippledMethod = async () => ({ random: randomBytes(32).toString('hex').toUpperCase() });

/**
 * rippled `version` (ApiVersion.h setVersion): the API versions served — in API v1 as the
 * semantic versions it has always printed, from v2 on as the numbers 1 to 2.
 */
export const version: RippledMethod = async ({ apiVersion }) => ({
  version: apiVersion === 1 ? { first: '1.0.0', good: '1.0.0', last: '1.0.0' } : { first: 1, last: 2 },
});
