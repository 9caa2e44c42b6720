import { devnetNetworkKeys, encodeNodePublicKey, getProfile, readManifest, readPublishedList, REVOKED_SEQUENCE, verifyValidation } from '@ledger-node/chain';
import { describe, expect, it } from 'vitest';
import { validationForApi } from '../ws/subscriptions';
import { DEFAULT_LIST_LIFETIME_SECONDS, DevnetNetwork } from './network';
import { chooseCandidate, HIGH_WATER_MARK, LOW_WATER_MARK, negativeUnlVote, nodeIdOf } from './negative-unl-vote';

const profile = getProfile('xrpl');
const NOW = 800_000_000;

function network(validatorCount = 5): DevnetNetwork {
  return new DevnetNetwork(profile, devnetNetworkKeys({ validatorCount }), { now: () => NOW });
}

function ledgerAt(ledgerIndex: number) {
  return { ledgerIndex, hash: ledgerIndex.toString(16).toUpperCase().padStart(64, 'A'), closeTime: NOW + ledgerIndex };
}

function readList(devnet: DevnetNetwork) {
  return readPublishedList(devnet.document, new Set([devnet.publisherKey]));
}

describe('the network a devnet plays', () => {
  it('starts each validator under manifest 1 naming its signing key, and publishes list 1 listing them all for a year', () => {
    const devnet = network();
    for (const validator of devnet.validators) {
      expect(readManifest(validator.manifest)).toMatchObject({
        masterKey: validator.master.publicKey.toUpperCase(),
        signingKey: validator.signing!.publicKey.toUpperCase(),
        sequence: 1,
        revoked: false,
      });
    }
    const list = readList(devnet);
    expect(list).toMatchObject({ version: 1, publisherKey: devnet.publisherKey, refused: [] });
    expect(list.publisherManifest.sequence).toBe(1);
    expect(list.blobs).toHaveLength(1);
    expect(list.blobs[0]).toMatchObject({ sequence: 1, effective: 0, expiration: NOW + DEFAULT_LIST_LIFETIME_SECONDS });
    expect(list.blobs[0]!.validators).toEqual(
      devnet.validators.map((validator) => ({ masterKey: validator.master.publicKey.toUpperCase(), manifest: Buffer.from(validator.manifest, 'hex').toString('base64') })),
    );
    expect(devnet.list).toEqual({ sequence: 1, version: 1, expiration: NOW + DEFAULT_LIST_LIFETIME_SECONDS });
    expect(devnet.quorum(new Set())).toBe(4);
  });

  it('has every online validator validate a ledger with its signing key, the message as rippled publishes it', () => {
    const devnet = network();
    const ledger = ledgerAt(10);
    const messages = devnet.validations(ledger);
    expect(messages).toHaveLength(5);
    for (const [position, message] of messages.entries()) {
      const validator = devnet.validators[position]!;
      const validation = verifyValidation(profile, message.data as string);
      expect(validation).toEqual({ ledgerIndex: 10, ledgerHash: ledger.hash, signingTime: ledger.closeTime, full: true, publicKey: validator.signing!.publicKey.toUpperCase() });
      expect(message).toEqual({
        type: 'validationReceived',
        validation_public_key: encodeNodePublicKey(validator.signing!.publicKey, profile),
        master_key: encodeNodePublicKey(validator.master.publicKey, profile),
        ledger_hash: ledger.hash,
        ledger_index: 10,
        signature: profile.codec.decode(message.data as string).Signature,
        full: true,
        flags: 0x80000001,
        signing_time: ledger.closeTime,
        data: message.data,
      });
      expect(validationForApi(message, 1).ledger_index).toBe('10');
      expect(validationForApi(message, 2).ledger_index).toBe(10);
    }
    // Signed once per ledger.
    expect(devnet.validations(ledger)).toBe(messages);
  });

  it('rotates a signing key under the next manifest: used from the next ledger on, listed only once republished', () => {
    const devnet = network();
    const before = devnet.validators[2]!.signing!.publicKey;
    devnet.ledgerClosed(ledgerAt(20));
    const rotated = devnet.rotate(2);

    expect(rotated.manifestSequence).toBe(2);
    expect(rotated.signing!.publicKey).not.toBe(before);
    expect(readManifest(rotated.manifest)).toMatchObject({ sequence: 2, signingKey: rotated.signing!.publicKey.toUpperCase() });
    // The ledger closed before the rotation was validated with the old key; the next with the new one.
    expect(verifyValidation(profile, devnet.validations(ledgerAt(20))[2]!.data as string).publicKey).toBe(before.toUpperCase());
    expect(verifyValidation(profile, devnet.validations(ledgerAt(21))[2]!.data as string).publicKey).toBe(rotated.signing!.publicKey.toUpperCase());
    expect(devnet.validatorByKey(rotated.signing!.publicKey.toUpperCase())).toBe(rotated);
    expect(devnet.validatorByKey(before.toUpperCase())).toBeUndefined();

    const listedManifest = () => readManifest(readList(devnet).blobs[0]!.validators[2]!.manifest!).sequence;
    expect(listedManifest()).toBe(1);
    expect(devnet.publish({})).toMatchObject({ sequence: 2, version: 1 });
    expect(listedManifest()).toBe(2);
  });

  it('revokes a master key: a revocation manifest, no more validations, no longer trusted, left out of the next list', () => {
    const devnet = network();
    const revoked = devnet.revoke(4);
    expect(revoked).toMatchObject({ revoked: true, signing: undefined, manifestSequence: REVOKED_SEQUENCE });
    expect(readManifest(revoked.manifest)).toMatchObject({ revoked: true, sequence: REVOKED_SEQUENCE });
    expect(readManifest(revoked.manifest).signingKey).toBeUndefined();
    expect(devnet.validations(ledgerAt(30))).toHaveLength(4);
    expect(devnet.trusted().has(revoked.master.publicKey.toUpperCase())).toBe(false);
    // 4 trusted: max(ceil(0.8 × 4), ceil(0.6 × 4)) = 4.
    expect(devnet.quorum(new Set())).toBe(4);

    expect(() => devnet.rotate(4)).toThrow(/revoked/);
    expect(() => devnet.setOnline(4, true)).toThrow(/revoked/);
    expect(() => devnet.revoke(4)).toThrow(/revoked/);

    devnet.publish({});
    expect(readList(devnet).blobs[0]!.validators.map((validator) => validator.masterKey)).not.toContain(revoked.master.publicKey.toUpperCase());
    devnet.publish({ validators: [4] });
    expect(readManifest(readList(devnet).blobs[0]!.validators[0]!.manifest!).revoked).toBe(true);
  });

  it('takes a validator offline and back', () => {
    const devnet = network();
    devnet.setOnline(1, false);
    expect(devnet.validations(ledgerAt(40)).map((message) => message.master_key)).not.toContain(encodeNodePublicKey(devnet.validators[1]!.master.publicKey, profile));
    devnet.setOnline(1, true);
    expect(devnet.validations(ledgerAt(41))).toHaveLength(5);
    expect(() => devnet.setOnline(5, true)).toThrow(/index from 0 to 4/);
  });

  it('publishes version 2 with a list to come, and an already expired list, each verifying against the publisher key', () => {
    const devnet = network();
    devnet.publish({ version: 2, sequence: 7, pending: { effective: 3600 } });
    const list = readList(devnet);
    expect(list.version).toBe(2);
    expect(list.blobs.map((blob) => [blob.sequence, blob.effective, blob.expiration])).toEqual([
      [7, 0, NOW + DEFAULT_LIST_LIFETIME_SECONDS],
      [8, NOW + 3600, NOW + 3600 + DEFAULT_LIST_LIFETIME_SECONDS],
    ]);
    expect(devnet.list).toEqual({
      sequence: 7,
      version: 2,
      expiration: NOW + DEFAULT_LIST_LIFETIME_SECONDS,
      pending: { sequence: 8, effective: NOW + 3600, expiration: NOW + 3600 + DEFAULT_LIST_LIFETIME_SECONDS },
    });

    devnet.publish({ expiration: -60, effective: -120 });
    expect(readList(devnet).blobs[0]).toMatchObject({ sequence: 8, effective: NOW - 120, expiration: NOW - 60 });
    // rippled's quorum while its list has expired: size_t max, printed as a 32-bit unsigned.
    expect(devnet.quorum(new Set())).toBe(0xffffffff);
  });

  it('refuses lists rippled would not read', () => {
    const devnet = network();
    expect(() => devnet.publish({ pending: { effective: 10 } })).toThrow(/pending needs version 2/);
    expect(() => devnet.publish({ effective: 100, expiration: 50 })).toThrow(/expiration must come after effective/);
    expect(() => devnet.publish({ sequence: 0 })).toThrow(/sequence must be an integer/);
    expect(() => devnet.publish({ expiration: -NOW - 1 })).toThrow(/expiration must be whole seconds/);
    expect(() => devnet.publish({ validators: [9] })).toThrow(/index from 0 to 4/);
    expect(devnet.list.sequence).toBe(1);
  });

  it('lowers the quorum with the negative UNL, never below 60% of the trusted validators', () => {
    const devnet = network(10);
    const keys = devnet.validators.map((validator) => validator.master.publicKey.toUpperCase());
    expect(devnet.quorum(new Set())).toBe(8);
    expect(devnet.quorum(new Set(keys.slice(0, 1)))).toBe(8);
    expect(devnet.quorum(new Set(keys.slice(0, 2)))).toBe(7);
    expect(devnet.quorum(new Set(keys.slice(0, 3)))).toBe(6);
  });
});

describe('the negative UNL vote', () => {
  it('scores the 256 ledgers before the parent: a validator offline through them is voted out', () => {
    const devnet = network();
    const offline = devnet.validators[3]!.master.publicKey.toUpperCase();
    devnet.setOnline(3, false);
    for (let ledgerIndex = 2; ledgerIndex <= 255; ledgerIndex++) devnet.ledgerClosed(ledgerAt(ledgerIndex));
    expect(devnet.vote({ ledgerIndex: 256, parentHash: ledgerAt(255).hash, negativeUnl: { disabled: [] } })).toEqual({ disable: offline });
    // Already on its way in: nothing more to vote.
    expect(devnet.vote({ ledgerIndex: 256, parentHash: ledgerAt(255).hash, negativeUnl: { disabled: [], toDisable: offline } })).toEqual({});
  });

  it('re-enables a disabled validator once it validated more than 80% of the scored ledgers', () => {
    const devnet = network();
    const returning = devnet.validators[0]!.master.publicKey.toUpperCase();
    for (let ledgerIndex = 255; ledgerIndex <= 510; ledgerIndex++) {
      devnet.setOnline(0, ledgerIndex >= 255 + 256 - HIGH_WATER_MARK - 1);
      devnet.ledgerClosed(ledgerAt(ledgerIndex));
    }
    expect(devnet.vote({ ledgerIndex: 512, parentHash: ledgerAt(511).hash, negativeUnl: { disabled: [returning] } })).toEqual({ reEnable: returning });
  });

  it('keeps the negative UNL within a quarter of the UNL, and lets go of validators no longer trusted', () => {
    const unl = new Set(['A', 'B', 'C', 'D', 'E'].map((letter) => `ED${letter.repeat(64)}`));
    const [a, b, c] = [...unl] as [string, string, string];
    const parentHash = 'F'.repeat(64);
    const scores = new Map([...unl].map((key) => [key, 0]));
    // ceil(5 × 0.25) = 2 may be listed.
    expect(negativeUnlVote({ unl, scores, negativeUnl: { disabled: [a] }, parentHash }).disable).toBeDefined();
    expect(negativeUnlVote({ unl, scores, negativeUnl: { disabled: [a], toDisable: b }, parentHash }).disable).toBeUndefined();
    const stranger = `ED${'1'.repeat(64)}`;
    expect(negativeUnlVote({ unl, scores: new Map([[c, LOW_WATER_MARK]]), negativeUnl: { disabled: [stranger] }, parentHash }).reEnable).toBe(stranger);
  });

  it('chooses among candidates the one whose node id XOR the parent hash is least', () => {
    const keys = ['A', 'B', 'C'].map((letter) => `ED${letter.repeat(64)}`);
    const parentHash = '0'.repeat(64);
    const least = [...keys].sort((left, right) => Buffer.compare(nodeIdOf(left), nodeIdOf(right)))[0];
    expect(chooseCandidate(parentHash, keys)).toBe(least);
    expect(chooseCandidate(parentHash, [...keys].reverse())).toBe(least);
    expect(nodeIdOf(keys[0]!)).toHaveLength(20);
  });
});
