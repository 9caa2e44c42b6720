/**
 * rippled `manifest` (public): the newest manifest of a validator the node follows, asked for by
 * its master key or its current signing key as a base58 node public key (`n…`), from sync's trust
 * state (the validator lists in force and the upstream's manifests). A key no manifest names is
 * answered `{requested}` alone; a key that does not parse is `invalidParams` beside `requested`,
 * as rippled injects it.
 */
import { encodeNodePublicKey, nodePublicKeyHex } from '@ledger-node/chain';
import { missingField, RpcError } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { rippledErrorOf } from './errors';

const HEX_KEY = /^[0-9A-Fa-f]{66}$/;

export const manifest: RippledMethod = async ({ params }, context) => {
  const requested = params.public_key;
  if (requested === undefined) throw missingField('public_key');
  if (typeof requested !== 'string') throw new RpcError('invalidParams', undefined, { requested: JSON.stringify(requested) ?? '' });
  let publicKey: string;
  try {
    // rippled parses the key as base58 only.
    if (HEX_KEY.test(requested)) throw new Error('hex');
    publicKey = nodePublicKeyHex(requested, context.profile);
  } catch {
    throw new RpcError('invalidParams', undefined, { requested });
  }
  // Without sync (-sync false) the node follows no manifests: every key is one it does not know.
  if (!context.syncEnabled) return { requested };
  let found;
  try {
    found = (await context.clients.sync.getManifest({ publicKey: Buffer.from(publicKey, 'hex') })).manifest;
  } catch (error) {
    throw rippledErrorOf(error) ?? error;
  }
  if (!found) return { requested };
  const key = (bytes: Buffer) => encodeNodePublicKey(bytes.toString('hex').toUpperCase(), context.profile);
  const details: Record<string, unknown> = {
    ...(found.domain === undefined ? {} : { domain: found.domain }),
    ...(found.signingKey === undefined ? {} : { ephemeral_key: key(found.signingKey) }),
    master_key: key(found.masterKey),
    seq: found.sequence,
  };
  return { details, manifest: found.serialized.toString('base64'), requested };
};
