import { InvalidParams } from '@ledger-node/errors';
import type { ChainProfile } from '@ledger-node/chain';

/** The 20-byte account id of an address of this chain; InvalidParams naming the parameter otherwise. */
export function accountIdOf(address: string, profile: ChainProfile, param = 'address', position = 1): Buffer {
  if (!profile.codec.isValidAddress(address)) {
    throw new InvalidParams(`invalid parameter ${position} (${param}): "${address}" is not a valid ${profile.displayName} address`, param);
  }
  return Buffer.from(profile.codec.decodeAccountId(address));
}
