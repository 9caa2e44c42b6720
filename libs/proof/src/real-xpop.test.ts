/**
 * Recorded XPOPs (fixtures/xrpl/trust and fixtures/xrpl/xpop, origins in fixtures/INDEX.md) verify
 * with their publishers' keys, long after their lists expired, and one changed byte is refused.
 */
import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { unixMsToRippleTime } from '@ledger-node/chain';
import { verifyProof, type ProofVerdict } from './index';
import { xrpl } from './test-network';

const XRPLF_MAINNET = 'ED45D1840EE724BE327ABE9146503D5848EFD5F38B6D5FEDE71E80ACCE5E6E738B';
const RIPPLE_TESTNET = 'ED264807102805220DA0F312E71FC2C69E1552C9C5790F6C25E3729DEB573D5860';
const XAHAU_TESTS = 'ED74D4036C6591A4BDF9C54CEFA39B996A5DCE5F86D11FDA1874481CE9D5A1CDC1';

const recorded = [
  { file: 'xrpl/trust/xpop-mainnet-83576782.json', publisher: XRPLF_MAINNET, validations: 33, listed: 35, quorum: 28, expiration: 766713600 },
  { file: 'xrpl/trust/xpop-testnet-39419653.json', publisher: RIPPLE_TESTNET, validations: 6, listed: 6, quorum: 5, expiration: 752716800 },
  { file: 'xrpl/xpop/xahau-import-test-564-accountset.json', publisher: XAHAU_TESTS, validations: 2, listed: 2, quorum: 2, expiration: 767784645 },
  { file: 'xrpl/xpop/xahau-import-test-149-accountset-10-validators.json', publisher: XAHAU_TESTS, validations: 10, listed: 10, quorum: 8, expiration: 757349624 },
  { file: 'xrpl/xpop/xahau-import-test-196-accountset-list-version-2.json', publisher: XAHAU_TESTS, validations: 3, listed: 3, quorum: 3, expiration: 750682412 },
  { file: 'xrpl/xpop/xahau-import-test-6795-setregularkey.json', publisher: XAHAU_TESTS, validations: 2, listed: 2, quorum: 2, expiration: 767784645 },
];

type Xpop = {
  ledger: Record<string, number | string>;
  transaction: { blob: string; meta: string; proof: unknown };
  validation: { data: Record<string, string>; unl: Record<string, string | number> };
};

/** The hex with one byte changed at `at` (from the end when negative). */
function flipHex(hex: string, at: number): string {
  const bytes = Buffer.from(hex, 'hex');
  bytes[at < 0 ? bytes.length + at : at]! ^= 0x01;
  return bytes.toString('hex').toUpperCase();
}

function failed(verdict: ProofVerdict): string[] {
  return verdict.steps.filter((step) => !step.ok).map((step) => step.name);
}

/** The first leaf hash of a proof, in either form, with one byte changed. */
function tamperProof(proof: unknown): unknown {
  if (Array.isArray(proof)) {
    const position = proof.findIndex((entry) => typeof entry === 'string' && !/^0+$/.test(entry));
    return proof.map((entry, index) => (index === position ? flipHex(entry as string, 0) : entry));
  }
  const node = proof as TreeNode;
  const [branch, child] = Object.entries(node.children)[0]!;
  const changed = Object.keys(child.children).length === 0 ? { ...child, hash: flipHex(child.hash, 0) } : tamperProof(child);
  return { ...node, children: { ...node.children, [branch]: changed } };
}

interface TreeNode {
  hash: string;
  key: string;
  children: Record<string, TreeNode>;
}

describe('recorded XPOPs', () => {
  it('all had their lists expire before now', () => {
    const now = unixMsToRippleTime(Date.now());
    for (const { expiration } of recorded) expect(expiration).toBeLessThan(now);
  });

  for (const { file, publisher, validations, listed, quorum, expiration } of recorded) {
    describe(file, () => {
      const xpop = readFixture<Xpop>(file);
      const verify = (document: unknown, keys = [publisher]) => verifyProof(document, { publisherKeys: keys, profile: xrpl });

      it(`verifies with its publisher's key: ${validations} of ${listed} validators (quorum ${quorum}), the list in force at the close time, the transaction on its path`, () => {
        const verdict = verify(xpop);
        expect(failed(verdict)).toEqual([]);
        expect(verdict.ok).toBe(true);
        expect(verdict.steps.map((step) => step.name)).toEqual(['ledger', 'list', 'list_in_force', 'manifests', 'validations', 'quorum', 'transaction']);
        const detail = (name: string) => verdict.steps.find((step) => step.name === name)!.detail;
        expect(detail('quorum')).toContain(`${validations} of the ${listed} listed validators validated ledger ${xpop.ledger.index} (quorum ${quorum}`);
        expect(detail('list_in_force')).toContain(`expiration ${expiration}`);
        expect(Number(xpop.ledger.close)).toBeLessThan(expiration);
      });

      it('is refused under another publisher key', () => {
        expect(failed(verify(xpop, [XAHAU_TESTS === publisher ? RIPPLE_TESTNET : XAHAU_TESTS]))).toEqual(['list', 'validations']);
      });

      it('is refused with one byte of a validation changed, even with the quorum reached by the others', () => {
        const [name, blob] = Object.entries(xpop.validation.data)[0]!;
        const tampered = { ...xpop, validation: { ...xpop.validation, data: { ...xpop.validation.data, [name]: flipHex(blob, -5) } } };
        const verdict = verify(tampered);
        expect(failed(verdict)).toContain('validations');
        expect(verdict.steps.find((step) => step.name === 'validations')!.detail).toContain(`${name}: its signature does not verify`);
      });

      it('is refused with a header field changed (the hash the validations name no longer recomputes)', () => {
        expect(failed(verify({ ...xpop, ledger: { ...xpop.ledger, close: Number(xpop.ledger.close) + 1 } }))).toEqual(['validations', 'quorum']);
        expect(failed(verify({ ...xpop, ledger: { ...xpop.ledger, acroot: flipHex(String(xpop.ledger.acroot), 31) } }))).toEqual(['validations', 'quorum']);
      });

      it('is refused with one byte of the transaction, its metadata or the proof changed', () => {
        const transaction = xpop.transaction;
        expect(failed(verify({ ...xpop, transaction: { ...transaction, blob: flipHex(transaction.blob, 20) } }))).toEqual(['transaction']);
        expect(failed(verify({ ...xpop, transaction: { ...transaction, meta: flipHex(transaction.meta, 10) } }))).toEqual(['transaction']);
        expect(failed(verify({ ...xpop, transaction: { ...transaction, proof: tamperProof(transaction.proof) } }))).toEqual(['transaction']);
      });

      if (!Array.isArray(xpop.transaction.proof)) {
        it("is refused with the hash stated for the tree's root changed (the tree form states each inner node's hash)", () => {
          const root = xpop.transaction.proof as TreeNode;
          const verdict = verify({ ...xpop, transaction: { ...xpop.transaction, proof: { ...root, hash: flipHex(root.hash, 5) } } });
          expect(failed(verdict)).toEqual(['transaction']);
          expect(verdict.steps.find((step) => step.name === 'transaction')!.detail).toContain('node root states a hash its children do not hash to');
        });
      }

      it("is refused with one byte of the list's signature or blob changed", () => {
        const unl = xpop.validation.unl;
        const withList = (changed: Record<string, unknown>) => ({ ...xpop, validation: { ...xpop.validation, unl: { ...unl, ...changed } } });
        expect(failed(verify(withList({ signature: flipHex(String(unl.signature), 10) })))).toEqual(['list', 'validations']);
        const blob = Buffer.from(String(unl.blob), 'base64');
        blob[blob.length - 3]! ^= 0x01;
        expect(failed(verify(withList({ blob: blob.toString('base64') })))).toEqual(['list', 'validations']);
      });
    });
  }
});
