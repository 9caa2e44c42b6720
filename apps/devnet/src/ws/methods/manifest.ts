/**
 * rippled `manifest` (DoManifest.cpp): the newest manifest of a validator, asked for by its master
 * key or its current signing key (`n…`; the devnet also takes 66 hex digits). A key the network
 * does not know (a rotated-out signing key included) is answered `{requested}` alone; a revoked
 * master key its revocation, whose details name no ephemeral key.
 */
import { encodeNodePublicKey, nodePublicKeyHex } from '@ledger-node/chain';
import { missingField, RpcError } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

export const manifest: MethodHandler = ({ request, network, source }) => {
  const requested = request.public_key;
  if (requested === undefined) throw missingField('public_key');
  // rippled injects the error beside `requested`.
  if (typeof requested !== 'string') throw new RpcError('invalidParams', undefined, { requested: JSON.stringify(requested) });
  let publicKey: string;
  try {
    publicKey = nodePublicKeyHex(requested, source.profile);
  } catch {
    throw new RpcError('invalidParams', undefined, { requested });
  }
  const validator = network.validatorByKey(publicKey);
  if (validator === undefined) return { requested };
  const masterKey = validator.master.publicKey.toUpperCase();
  const details: Record<string, unknown> = { master_key: encodeNodePublicKey(masterKey, source.profile) };
  if (validator.signing !== undefined) details.ephemeral_key = encodeNodePublicKey(validator.signing.publicKey, source.profile);
  details.seq = validator.manifestSequence;
  return { requested, manifest: Buffer.from(validator.manifest, 'hex').toString('base64'), details };
};
