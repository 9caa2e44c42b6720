import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { XRPL_ALPHABET } from '../base58';
import { createChainKeys } from '../keys';
import { InvalidManifest, ManifestCache, readManifest, REVOKED_SEQUENCE, signManifest, type KeyPair } from './manifest';
import { signPublishedList, type ListedValidator } from './validator-list';
import { ValidatorTrust } from './validator-trust';

const keys = createChainKeys(XRPL_ALPHABET);
const keyPair = (label: string, algorithm: 'ed25519' | 'secp256k1' = 'secp256k1'): KeyPair =>
  keys.deriveKeypair(keys.generateSeed({ algorithm, entropy: createHash('sha256').update(label).digest().subarray(0, 16) }));

const base64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

interface Holder {
  master: KeyPair;
  signing: KeyPair;
  manifest: string;
}

function holder(label: string, sequence = 1): Holder {
  const master = keyPair(`${label} master`, 'ed25519');
  const signing = keyPair(`${label} signing ${sequence}`);
  return { master, signing, manifest: signManifest({ master, signing, sequence }) };
}

const publisher = holder('publisher');
const validators = [1, 2, 3, 4, 5].map((index) => holder(`validator ${index}`));
const listed = (list: Holder[] = validators): ListedValidator[] => list.map((validator) => ({ masterKey: validator.master.publicKey, manifest: base64(validator.manifest) }));

function publish(blobs: { sequence: number; effective?: number; expiration: number; validators?: ListedValidator[] }[], version: 1 | 2 = 1, by: Holder = publisher) {
  return signPublishedList({
    manifest: by.manifest,
    signing: by.signing,
    publisherKey: by.master.publicKey,
    version,
    blobs: blobs.map((blob) => ({ ...blob, validators: blob.validators ?? listed() })),
  });
}

const NOW = 800_000_000;
const site = 'http://publisher.test/vl.json';

describe('manifests', () => {
  it('a manifest verifies and names its master and signing keys; a revocation names none', () => {
    const manifest = readManifest(base64(validators[0]!.manifest));
    expect(manifest).toMatchObject({ masterKey: validators[0]!.master.publicKey, signingKey: validators[0]!.signing.publicKey, sequence: 1, revoked: false });
    const revocation = readManifest(signManifest({ master: validators[0]!.master, sequence: REVOKED_SEQUENCE }));
    expect(revocation).toMatchObject({ revoked: true });
    expect(revocation.signingKey).toBeUndefined();
  });

  it('a changed byte, a signature by another key or a signing key equal to the master key is refused', () => {
    const bytes = Buffer.from(validators[0]!.manifest, 'hex');
    bytes[bytes.length - 3]! ^= 0x01;
    expect(() => readManifest(bytes)).toThrow(InvalidManifest);
    const other = signManifest({ master: validators[0]!.master, signing: validators[1]!.signing, sequence: 2 });
    const forged = Buffer.from(other, 'hex');
    // Another master key's manifest re-signed by nobody: swap in validator 2's master key.
    const swapped = Buffer.from(forged.toString('hex').toUpperCase().replace(validators[0]!.master.publicKey, validators[1]!.master.publicKey), 'hex');
    expect(() => readManifest(swapped)).toThrow(/not signed by its/);
    expect(() => readManifest(signManifest({ master: validators[0]!.master, signing: validators[0]!.master, sequence: 3 }))).toThrow(/is its master key/);
    expect(() => readManifest('not a manifest!')).toThrow(InvalidManifest);
  });

  it('a higher sequence replaces the signing key; the rotated-out key speaks for nobody; a revocation is final', () => {
    const cache = new ManifestCache();
    const [first] = validators;
    expect(cache.applySerialized(first!.manifest).disposition).toBe('accepted');
    expect(cache.masterKeyOf(first!.signing.publicKey)).toBe(first!.master.publicKey);
    const rotated = holder('validator 1', 2);
    expect(cache.applySerialized(rotated.manifest).disposition).toBe('accepted');
    expect(cache.masterKeyOf(rotated.signing.publicKey)).toBe(first!.master.publicKey);
    expect(cache.masterKeyOf(first!.signing.publicKey)).toBe(first!.signing.publicKey);
    expect(cache.applySerialized(first!.manifest).disposition).toBe('stale');
    expect(cache.applySerialized(signManifest({ master: first!.master, sequence: REVOKED_SEQUENCE })).disposition).toBe('accepted');
    expect(cache.revoked(first!.master.publicKey)).toBe(true);
    expect(cache.applySerialized(holder('validator 1', 3).manifest).disposition).toBe('stale');
    // Another master key may not take a signing key in use.
    const thief = signManifest({ master: validators[1]!.master, signing: validators[2]!.signing, sequence: 1 });
    cache.applySerialized(validators[2]!.manifest);
    expect(cache.applySerialized(thief).disposition).toBe('badEphemeralKey');
  });
});

describe('ValidatorTrust', () => {
  it('trusts the listed validators under their current signing keys, with rippled quorum', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    expect(trust.quorum()).toBe(Number.POSITIVE_INFINITY);
    expect(trust.blockedReason()).toMatch(/no list of publisher/);
    expect(trust.applyList(publish([{ sequence: 1, expiration: NOW + 3600 }]), { site, now: NOW })).toMatchObject({ disposition: 'accepted', sequence: 1 });
    expect(trust.trusted().size).toBe(5);
    expect(trust.quorum()).toBe(4);
    expect(trust.trustedMasterOf(validators[0]!.signing.publicKey)).toBe(validators[0]!.master.publicKey);
    // A validator without a manifest signs with its master key, which is what the list names.
    expect(trust.trustedMasterOf(validators[0]!.master.publicKey)).toBe(validators[0]!.master.publicKey);
    expect(trust.trustedMasterOf(keyPair('stranger').publicKey)).toBeUndefined();
    expect(trust.status()).toEqual([{ publisher: publisher.master.publicKey, site, sequence: 1, effective: 0, expiration: NOW + 3600, validators: 5, state: 'available', lastOutcome: 'accepted' }]);
  });

  it('takes only rising sequences: the same again is same_sequence, an older one stale', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    trust.applyList(publish([{ sequence: 5, expiration: NOW + 3600 }]), { site, now: NOW });
    expect(trust.applyList(publish([{ sequence: 5, expiration: NOW + 3600 }]), { site, now: NOW }).disposition).toBe('same_sequence');
    expect(trust.applyList(publish([{ sequence: 4, expiration: NOW + 9999, validators: listed(validators.slice(0, 1)) }]), { site, now: NOW })).toMatchObject({ disposition: 'stale' });
    expect(trust.trusted().size).toBe(5);
    expect(trust.applyList(publish([{ sequence: 6, expiration: NOW + 3600, validators: listed(validators.slice(0, 3)) }]), { site, now: NOW }).disposition).toBe('accepted');
    expect(trust.trusted().size).toBe(3);
    expect(trust.quorum()).toBe(3);
  });

  it('a list past its expiration leaves nothing trusted until a newer one comes; time expires the current one', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    expect(trust.applyList(publish([{ sequence: 1, expiration: NOW - 1 }]), { site, now: NOW }).disposition).toBe('expired');
    expect(trust.quorum()).toBe(Number.POSITIVE_INFINITY);
    expect(trust.status()[0]!.state).toBe('expired');
    expect(trust.applyList(publish([{ sequence: 2, expiration: NOW + 60 }]), { site, now: NOW }).disposition).toBe('accepted');
    expect(trust.quorum()).toBe(4);
    trust.update(NOW + 60);
    expect(trust.quorum()).toBe(Number.POSITIVE_INFINITY);
    expect(trust.blockedReason()).toMatch(/expired at/);
  });

  it('version 2: a blob to come waits (pending) and takes over at its effective time', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    const document = publish(
      [
        { sequence: 1, expiration: NOW + 100 },
        { sequence: 2, effective: NOW + 50, expiration: NOW + 1000, validators: listed(validators.slice(0, 2)) },
      ],
      2,
    );
    expect(trust.applyList(document, { site, now: NOW })).toMatchObject({ disposition: 'accepted', sequence: 1 });
    expect(trust.trusted().size).toBe(5);
    trust.update(NOW + 50);
    expect(trust.status()[0]).toMatchObject({ sequence: 2, state: 'available' });
    expect(trust.trusted().size).toBe(2);
    expect(trust.applyList(document, { site, now: NOW + 51 }).disposition).toBe('same_sequence');
  });

  it('a rotation learnt from the upstream moves the validator to its new key; a revocation removes it and the quorum is recomputed', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    trust.applyList(publish([{ sequence: 1, expiration: NOW + 3600 }]), { site, now: NOW });
    const rotated = holder('validator 2', 2);
    expect(trust.trustedMasterOf(rotated.signing.publicKey)).toBeUndefined();
    expect(trust.applyManifest(base64(rotated.manifest))).toMatchObject({ disposition: 'accepted', masterKey: validators[1]!.master.publicKey });
    expect(trust.trustedMasterOf(rotated.signing.publicKey)).toBe(validators[1]!.master.publicKey);
    expect(trust.trustedMasterOf(validators[1]!.signing.publicKey)).toBeUndefined();
    expect(trust.applyManifest(signManifest({ master: validators[2]!.master, sequence: REVOKED_SEQUENCE })).disposition).toBe('accepted');
    expect(trust.trusted().size).toBe(4);
    expect(trust.quorum()).toBe(4);
    expect(trust.applyManifest('00').disposition).toBe('invalid');
  });

  it('a list from an unknown publisher, or a revoked publisher key, proves nothing', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    const stranger = holder('stranger');
    expect(trust.applyList(publish([{ sequence: 1, expiration: NOW + 60 }], 1, stranger), { site, now: NOW }).disposition).toBe('untrusted');
    trust.applyList(publish([{ sequence: 1, expiration: NOW + 60 }]), { site, now: NOW });
    const revokedPublisher = { ...publisher, manifest: signManifest({ master: publisher.master, sequence: REVOKED_SEQUENCE }) };
    expect(trust.applyList(publish([{ sequence: 2, expiration: NOW + 60 }], 1, revokedPublisher), { site, now: NOW }).disposition).toBe('untrusted');
    expect(trust.status()[0]!.state).toBe('revoked');
    expect(trust.quorum()).toBe(Number.POSITIVE_INFINITY);
  });

  it('with three publishers a validator needs two listings; any publisher without a list blocks the quorum', () => {
    const others = [holder('publisher 2'), holder('publisher 3')];
    const trust = new ValidatorTrust({ publisherKeys: [publisher, ...others].map((each) => each.master.publicKey) });
    trust.applyList(publish([{ sequence: 1, expiration: NOW + 60 }]), { site, now: NOW });
    trust.applyList(publish([{ sequence: 1, expiration: NOW + 60, validators: listed(validators.slice(0, 3)) }], 1, others[0]), { site, now: NOW });
    expect(trust.quorum()).toBe(Number.POSITIVE_INFINITY);
    trust.applyList(publish([{ sequence: 1, expiration: NOW + 60, validators: listed(validators.slice(3)) }], 1, others[1]), { site, now: NOW });
    expect(trust.trusted().size).toBe(5);
    const thin = new ValidatorTrust({ publisherKeys: [publisher, ...others].map((each) => each.master.publicKey) });
    thin.applyList(publish([{ sequence: 1, expiration: NOW + 60, validators: listed(validators.slice(0, 2)) }]), { site, now: NOW });
    thin.applyList(publish([{ sequence: 1, expiration: NOW + 60, validators: listed(validators.slice(1, 3)) }], 1, others[0]), { site, now: NOW });
    thin.applyList(publish([{ sequence: 1, expiration: NOW + 60, validators: listed(validators.slice(4)) }], 1, others[1]), { site, now: NOW });
    expect([...thin.trusted()]).toEqual([validators[1]!.master.publicKey]);
  });

  it('-validators keys are trusted beside the lists: signing keys as they are, master keys through manifests', () => {
    const trust = new ValidatorTrust({ publisherKeys: [], staticKeys: [validators[0]!.master.publicKey, keyPair('bare signer').publicKey], staticQuorum: 2 });
    expect(trust.quorum()).toBe(2);
    expect(trust.trustedMasterOf(keyPair('bare signer').publicKey)).toBe(keyPair('bare signer').publicKey);
    expect(trust.trustedMasterOf(validators[0]!.signing.publicKey)).toBeUndefined();
    trust.applyManifest(validators[0]!.manifest);
    expect(trust.trustedMasterOf(validators[0]!.signing.publicKey)).toBe(validators[0]!.master.publicKey);
    expect(new ValidatorTrust({ publisherKeys: [], staticKeys: validators.map((each) => each.master.publicKey) }).quorum()).toBe(4);
  });

  it('keeps the newest accepted document of each publisher, to be offered again after a restart', () => {
    const trust = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    const document = publish([{ sequence: 3, expiration: NOW + 60 }]);
    trust.applyList(document, { site, now: NOW });
    const [kept] = trust.keptDocuments();
    expect(kept).toEqual({ publisherKey: publisher.master.publicKey, document });
    const restarted = new ValidatorTrust({ publisherKeys: [publisher.master.publicKey] });
    expect(restarted.applyList(JSON.parse(JSON.stringify(kept!.document)), { site: 'file', now: NOW }).disposition).toBe('accepted');
    expect(restarted.applyList(publish([{ sequence: 2, expiration: NOW + 60 }]), { site, now: NOW }).disposition).toBe('stale');
  });
});
