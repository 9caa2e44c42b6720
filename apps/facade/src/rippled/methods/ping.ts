import type { RippledMethod } from '../method';

/** rippled: `ping` answers an empty result; it proves the connection is alive. */
export const ping: RippledMethod = async () => ({});
