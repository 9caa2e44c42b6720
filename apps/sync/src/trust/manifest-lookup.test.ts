/** The manifests sync follows, looked up as rippled's `manifest` asks: real ones from vl.ripple.com's list 37 (fixtures/INDEX.md). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { devnetNetworkKeys, readManifest, readPublishedList, REVOKED_SEQUENCE, signManifest, ValidatorTrust } from '@ledger-node/chain';
import { fixturesDir } from '@ledger-node/test-utils';
import { describe, expect, it } from 'vitest';
import { syncHandlers } from '../grpc/handlers';
import { followedManifest } from './manifest-lookup';

const RIPPLE_MAINNET = 'ED2677ABFFD1B33AC6FBC3062B71F1E8397C1505E1C42C64D11AD1B28FF73F4734';
const document = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl', 'trust', 'vl-mainnet-vl.ripple.com-37.json'), 'utf8'));
const listed = readPublishedList(document, new Set([RIPPLE_MAINNET])).blobs[0]!.validators;

function followingTheList(): ValidatorTrust {
  const trust = new ValidatorTrust({ publisherKeys: [RIPPLE_MAINNET] });
  expect(trust.applyList(document, { site: 'fixture', now: 594172800 - 1 })).toMatchObject({ disposition: 'accepted' });
  return trust;
}
const bytes = (hex: string) => Buffer.from(hex, 'hex');

describe('GetManifest (followedManifest)', () => {
  const trust = followingTheList();
  const first = listed[0]!;
  const manifest = readManifest(first.manifest!);

  it("finds a listed validator's manifest by its master key, as the list carried it", () => {
    expect(followedManifest(trust, bytes(first.masterKey))).toEqual({
      masterKey: bytes(manifest.masterKey),
      signingKey: bytes(manifest.signingKey!),
      sequence: manifest.sequence,
      serialized: bytes(manifest.serialized),
    });
  });

  it('finds the same manifest by the current signing key', () => {
    expect(followedManifest(trust, bytes(manifest.signingKey!))?.masterKey).toEqual(bytes(first.masterKey));
  });

  it("finds every one of the 23 listed validators, and none for the publisher's key or a key no manifest names", () => {
    for (const { masterKey } of listed) expect(followedManifest(trust, bytes(masterKey))?.masterKey.toString('hex').toUpperCase()).toBe(masterKey);
    expect(followedManifest(trust, bytes(RIPPLE_MAINNET))).toBeUndefined();
    expect(followedManifest(trust, bytes(`02${'11'.repeat(32)}`))).toBeUndefined();
  });

  it('answers a revocation with no signing key, and the old signing key no longer finds it', () => {
    const own = new ValidatorTrust({ publisherKeys: [] });
    // The devnet's first validator's keys (derived from public seeds).
    const keys = devnetNetworkKeys({ validatorCount: 1 }).validators[0]!;
    expect(own.applyManifest(signManifest({ master: keys.master, signing: keys.signing, sequence: 1, domain: 'example.com' })).disposition).toBe('accepted');
    expect(followedManifest(own, bytes(keys.signing.publicKey))).toMatchObject({ sequence: 1, domain: 'example.com' });
    expect(own.applyManifest(signManifest({ master: keys.master, sequence: REVOKED_SEQUENCE })).disposition).toBe('accepted');
    const revoked = followedManifest(own, bytes(keys.master.publicKey));
    expect(revoked).toMatchObject({ sequence: REVOKED_SEQUENCE });
    expect(revoked).not.toHaveProperty('signingKey');
    expect(followedManifest(own, bytes(keys.signing.publicKey))).toBeUndefined();
  });

  it('refuses a key that is not a 33-byte node public key, through the handler', async () => {
    const handlers = syncHandlers({ status: () => ({}) as never, manifest: (key) => followedManifest(trust, key), stateProof: () => Promise.reject(new Error('not asked')) });
    for (const key of [Buffer.alloc(0), Buffer.alloc(32, 2), Buffer.concat([Buffer.from([0x04]), Buffer.alloc(32)])]) {
      await expect(handlers.getManifest({ publicKey: key }, {} as never)).rejects.toMatchObject({ kind: 'invalid_params' });
    }
    expect((await handlers.getManifest({ publicKey: bytes(first.masterKey) }, {} as never)).manifest?.sequence).toBe(manifest.sequence);
  });
});
