/**
 * rippled `manifest` from sync's trust state: the newest manifest followed for a validator key,
 * asked for by its master key or its current signing key (rippled ManifestCache getMasterKey,
 * then getManifest). A key no manifest names, or a signing key rotated out, finds none; nor does a
 * list publisher's key (rippled keeps publishers' manifests apart from validators').
 */
import type { ValidatorTrust } from '@ledger-node/chain';
import type { ManifestDetails } from '@ledger-node/contracts';

export function followedManifest(trust: Pick<ValidatorTrust, 'manifests' | 'publisherKeys'>, publicKey: Uint8Array): ManifestDetails | undefined {
  const { manifests } = trust;
  const masterKey = manifests.masterKeyOf(Buffer.from(publicKey).toString('hex').toUpperCase());
  const manifest = manifests.get(masterKey);
  if (!manifest || trust.publisherKeys.includes(masterKey)) return undefined;
  return {
    masterKey: Buffer.from(manifest.masterKey, 'hex'),
    ...(manifest.signingKey === undefined ? {} : { signingKey: Buffer.from(manifest.signingKey, 'hex') }),
    sequence: manifest.sequence,
    ...(manifest.domain === undefined ? {} : { domain: manifest.domain }),
    serialized: Buffer.from(manifest.serialized, 'hex'),
  };
}
