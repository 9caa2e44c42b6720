/**
 * Published lists and validations of the real networks (fixtures/xrpl/trust, origins in
 * fixtures/INDEX.md): what rippled accepts verifies here, and one changed byte does not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@ledger-node/test-utils';
import { hashLedgerHeader } from '../header';
import { getProfile } from '../profiles';
import { readValidation, verifyValidation } from '../validation';
import { manifestIdentity, readManifest } from './manifest';
import { InvalidList, listDocumentOf, listDocumentParts, listSequences, readPublishedList } from './validator-list';
import { ValidatorTrust } from './validator-trust';

const xrpl = getProfile('xrpl');
const trustDir = path.join(fixturesDir(), 'xrpl', 'trust');
const read = (name: string) => JSON.parse(readFileSync(path.join(trustDir, name), 'utf8'));

/** The base64 text with one byte of what it encodes changed. */
function flipByte(base64: string, at: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[at % bytes.length]! ^= 0x01;
  return bytes.toString('base64');
}

const RIPPLE_MAINNET = 'ED2677ABFFD1B33AC6FBC3062B71F1E8397C1505E1C42C64D11AD1B28FF73F4734';
const XRPLF_MAINNET = 'ED45D1840EE724BE327ABE9146503D5848EFD5F38B6D5FEDE71E80ACCE5E6E738B';
const RIPPLE_TESTNET = 'ED264807102805220DA0F312E71FC2C69E1552C9C5790F6C25E3729DEB573D5860';

describe('a real published list (vl.ripple.com, sequence 37)', () => {
  const document = read('vl-mainnet-vl.ripple.com-37.json');

  it('verifies against the publisher key and names 23 validators, each with its own verified manifest', () => {
    const list = readPublishedList(document, new Set([RIPPLE_MAINNET]));
    expect(list).toMatchObject({ version: 1, publisherKey: RIPPLE_MAINNET, refused: [] });
    expect(list.blobs).toHaveLength(1);
    expect(list.blobs[0]).toMatchObject({ sequence: 37, expiration: 594172800, effective: 0 });
    expect(list.blobs[0]!.validators).toHaveLength(23);
    const trust = new ValidatorTrust({ publisherKeys: [RIPPLE_MAINNET] });
    expect(trust.applyList(document, { site: 'fixture', now: 594172800 - 1 })).toMatchObject({ disposition: 'accepted', sequence: 37 });
    // Every listed validator's manifest from the list was verified and applied.
    for (const { masterKey } of list.blobs[0]!.validators) expect(trust.manifests.knowsMaster(masterKey)).toBe(true);
    expect(trust.trusted().size).toBe(23);
    expect(trust.quorum()).toBe(19);
  });

  it('is refused with one byte of its blob, its signature or its manifest changed, or under another key', () => {
    const trusted = new Set([RIPPLE_MAINNET]);
    const refusal = (changed: Record<string, unknown>, keys = trusted) => {
      try {
        readPublishedList({ ...document, ...changed }, keys);
      } catch (error) {
        return (error as InvalidList).disposition;
      }
      return 'accepted';
    };
    expect(refusal({ blob: flipByte(document.blob, 100) })).toBe('invalid');
    const signature = Buffer.from(document.signature, 'hex');
    signature[10]! ^= 0x01;
    expect(refusal({ signature: signature.toString('hex') })).toBe('invalid');
    expect(refusal({ manifest: flipByte(document.manifest, 40) })).toBe('untrusted');
    expect(refusal({}, new Set([RIPPLE_TESTNET]))).toBe('untrusted');
    expect(refusal({ version: 3 })).toBe('unsupported_version');
  });

  it('is expired once its expiration has passed: nothing is trusted by it', () => {
    const trust = new ValidatorTrust({ publisherKeys: [RIPPLE_MAINNET] });
    expect(trust.applyList(document, { site: 'fixture', now: 594172800 })).toMatchObject({ disposition: 'expired' });
    expect(trust.quorum()).toBe(Number.POSITIVE_INFINITY);
    expect(trust.blockedReason()).toMatch(/expired/);
  });
});

/**
 * An XPOP carries a ledger's header fields, the validations of that ledger collected from the
 * network, and the publisher's list they were checked against.
 */
for (const { file, publisher, ledgerIndex, listSequence, listed, validations, quorum } of [
  { file: 'xpop-mainnet-83576782.json', publisher: XRPLF_MAINNET, ledgerIndex: 83576782, listSequence: 2023102101, listed: 35, validations: 33, quorum: 28 },
  { file: 'xpop-testnet-39419653.json', publisher: RIPPLE_TESTNET, ledgerIndex: 39419653, listSequence: 55, listed: 6, validations: 6, quorum: 5 },
]) {
  describe(`real validations of ledger ${ledgerIndex} (${file})`, () => {
    const xpop = read(file);
    const ledgerHash = hashLedgerHeader({
      ledgerIndex: xpop.ledger.index,
      totalCoins: BigInt(xpop.ledger.coins),
      parentHash: xpop.ledger.phash,
      transactionHash: xpop.ledger.txroot,
      accountHash: xpop.ledger.acroot,
      parentCloseTime: xpop.ledger.pclose,
      closeTime: xpop.ledger.close,
      closeTimeResolution: xpop.ledger.cres,
      closeFlags: xpop.ledger.flags,
    });
    const trustAtClose = () => {
      const trust = new ValidatorTrust({ publisherKeys: [publisher] });
      expect(trust.applyList(xpop.validation.unl, { site: 'fixture', now: xpop.ledger.close })).toMatchObject({ disposition: 'accepted', sequence: listSequence });
      return trust;
    };
    /** The distinct trusted validators whose validation of the recomputed hash verifies. */
    const count = (trust: ValidatorTrust, blobs: string[]) => {
      const masters = new Set<string>();
      for (const blob of blobs) {
        try {
          const validation = verifyValidation(xrpl, blob);
          const master = trust.trustedMasterOf(validation.publicKey);
          if (validation.full && validation.ledgerHash === ledgerHash && validation.ledgerIndex === ledgerIndex && master) masters.add(master);
        } catch {
          // A validation whose signature does not check out counts for nobody.
        }
      }
      return masters.size;
    };

    it(`the list verifies (${listed} validators, quorum ${quorum}) and ${validations} validations of the recomputed ledger hash reach it`, () => {
      const trust = trustAtClose();
      expect(trust.trusted().size).toBe(listed);
      expect(trust.quorum()).toBe(quorum);
      const blobs = Object.values(xpop.validation.data) as string[];
      expect(blobs).toHaveLength(validations);
      expect(count(trust, blobs)).toBe(validations);
      expect(validations).toBeGreaterThanOrEqual(quorum);
    });

    it('is kept as the store keeps evidence: the list as its parts gives back the publisher\'s document, and the validations and manifests read alike unverified', () => {
      const parts = listDocumentParts(xpop.validation.unl, publisher, listSequence);
      expect(listDocumentOf(parts)).toEqual({ ...xpop.validation.unl, public_key: xpop.validation.unl.public_key.toUpperCase(), signature: xpop.validation.unl.signature.toUpperCase() });
      expect(readPublishedList(listDocumentOf(parts), new Set([publisher])).blobs.map((blob) => blob.sequence)).toEqual([listSequence]);
      expect(listSequences(parts)).toEqual([listSequence]);
      for (const blob of Object.values(xpop.validation.data) as string[]) expect(readValidation(xrpl, blob)).toEqual(verifyValidation(xrpl, blob));
      const { validators } = readPublishedList(xpop.validation.unl, new Set([publisher])).blobs[0]!;
      for (const { manifest } of validators) {
        const { masterKey, sequence } = readManifest(manifest!);
        expect(manifestIdentity(Buffer.from(manifest!, 'base64'))).toEqual({ masterKey, sequence });
      }
    });

    it('a validation with one byte changed counts for nobody, and a tampered list proves nothing', () => {
      const trust = trustAtClose();
      const blobs = Object.values(xpop.validation.data) as string[];
      const tampered = blobs.map((blob, index) => {
        if (index !== 0) return blob;
        const bytes = Buffer.from(blob, 'hex');
        bytes[bytes.length - 5]! ^= 0x01;
        return bytes.toString('hex');
      });
      expect(count(trust, tampered)).toBe(validations - 1);
      const untrusted = new ValidatorTrust({ publisherKeys: [publisher] });
      const outcome = untrusted.applyList({ ...xpop.validation.unl, blob: flipByte(xpop.validation.unl.blob, 50) }, { site: 'fixture', now: xpop.ledger.close });
      expect(outcome.disposition).toBe('invalid');
      expect(untrusted.quorum()).toBe(Number.POSITIVE_INFINITY);
      expect(count(untrusted, blobs)).toBe(0);
    });

    it('the negative UNL lowers the quorum (never below 60% of the list), and its validators do not count', () => {
      const trust = trustAtClose();
      const disabled = new Set([...trust.trusted()].slice(0, Math.ceil(listed * 0.25)));
      expect(trust.quorum(disabled)).toBe(Math.max(Math.ceil((listed - disabled.size) * 0.8), Math.ceil(listed * 0.6)));
      // More than a quarter of the list cannot be the network's negative UNL: ignored.
      expect(trust.quorum(new Set(trust.trusted()))).toBe(quorum);
    });
  });
}
