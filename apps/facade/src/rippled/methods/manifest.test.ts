import { describe, expect, it } from 'vitest';
import { devnetNetworkKeys, encodeNodePublicKey, getProfile, readManifest, signManifest } from '@ledger-node/chain';
import { errorFields } from '@ledger-node/rippled-api';
import { manifest } from './manifest';
import { request, TestChain } from './test-context';

const xrpl = getProfile('xrpl');
const keys = devnetNetworkKeys({ validatorCount: 1 }).validators[0]!;
const signed = readManifest(signManifest({ master: keys.master, signing: keys.signing, sequence: 3, domain: 'example.com' }));
const bytes = (hex: string) => Buffer.from(hex, 'hex');
const chain = new TestChain({
  profile: xrpl,
  ledgers: [],
  manifests: [{ masterKey: bytes(signed.masterKey), signingKey: bytes(signed.signingKey!), sequence: 3, domain: 'example.com', serialized: bytes(signed.serialized) }],
});
const masterText = encodeNodePublicKey(signed.masterKey, xrpl);
const signingText = encodeNodePublicKey(signed.signingKey!, xrpl);

describe('manifest', () => {
  it('answers the manifest sync follows for a master key, in base64, with its details', async () => {
    expect(await manifest(request({ public_key: masterText }), chain.context)).toEqual({
      requested: masterText,
      manifest: bytes(signed.serialized).toString('base64'),
      details: { domain: 'example.com', ephemeral_key: signingText, master_key: masterText, seq: 3 },
    });
  });

  it('answers the same manifest for the current signing key, requested as asked', async () => {
    expect(await manifest(request({ public_key: signingText }), chain.context)).toMatchObject({ requested: signingText, details: { master_key: masterText } });
  });

  it('answers requested alone for a key no manifest names', async () => {
    const other = encodeNodePublicKey(devnetNetworkKeys({ validatorCount: 2 }).validators[1]!.master.publicKey, xrpl);
    expect(await manifest(request({ public_key: other }), chain.context)).toEqual({ requested: other });
  });

  it('answers requested alone on a node without sync, which follows no manifests', async () => {
    const withoutSync = { ...chain.context, syncEnabled: false };
    expect(await manifest(request({ public_key: masterText }), withoutSync as never)).toEqual({ requested: masterText });
  });

  it('answers invalidParams beside requested for a key that is not a base58 node public key', async () => {
    for (const key of ['', 'nHUnotakey', signed.masterKey, 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh']) {
      const refusal = await manifest(request({ public_key: key }), chain.context).then(() => undefined, errorFields);
      expect(refusal).toEqual({ error: 'invalidParams', error_code: 31, error_message: 'Invalid parameters.', requested: key });
    }
    await expect(manifest(request({}), chain.context)).rejects.toMatchObject({ token: 'invalidParams', message: "Missing field 'public_key'." });
    await expect(manifest(request({ public_key: 7 }), chain.context)).rejects.toMatchObject({ token: 'invalidParams', extra: { requested: '7' } });
  });
});
