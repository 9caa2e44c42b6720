import { describe, expect, it } from 'vitest';
import { encodeLedgerHeader, flatProofPath, getProfile, ledgerHeaderFromJson, listDocumentParts, stateEntryFromLedgerJson, StateTree } from '@ledger-node/chain';
import type { GetLedgerEvidenceResponse, GetStateProofRequest } from '@ledger-node/contracts';
import { readFixture } from '@ledger-node/test-utils';
import { ledger38129, stateProofExample } from '../../format/examples';
import { parseParams, type MethodContext } from '../method';
import { jt_getProof } from './jt_getProof';

const profile = getProfile('xrpl');
const issuer = 'r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx';
const fixture = readFixture<{ ledger: Record<string, any> }>('xrpl/ledgers/mainnet/38129-full-state.json');
const tree = new StateTree();
for (const entry of fixture.ledger.accountState as Record<string, unknown>[]) {
  const { index, blob } = stateEntryFromLedgerJson(entry, profile);
  tree.set(index, blob);
}
const evidenceOf38129: GetLedgerEvidenceResponse['evidence'] = {
  validations: Object.values(stateProofExample.validation.data).map((blob) => Buffer.from(blob, 'hex')),
  quorum: 1,
  validatorLists: [listDocumentParts(stateProofExample.validation.unl, stateProofExample.validation.unl.public_key, 1)],
  manifests: [],
};

/** A node holding ledger 38129's state tree in its proof window, with the evidence given. */
function nodeWith(evidence: GetLedgerEvidenceResponse['evidence']) {
  const asked: GetStateProofRequest[] = [];
  const context = {
    profile,
    clients: {
      sync: {
        async getStateProof(request: GetStateProofRequest) {
          asked.push(request);
          return {
            ledgerIndex: 38129,
            headerBlob: encodeLedgerHeader(ledgerHeaderFromJson(fixture.ledger)),
            entries: request.keys.map((key) => {
              const index = key.toString('hex');
              const path = tree.proof(index);
              return { key, blob: tree.get(index), innerNodes: path ? flatProofPath(path, key) : [] };
            }),
          };
        },
      },
    },
    queries: { ledger: async () => undefined, ledgerEvidence: async () => ({ ledgerIndex: 38129, ledgerHash: Buffer.from(ledger38129.hash, 'hex'), evidence }) },
  } as unknown as MethodContext;
  const call = (params: unknown[]) => jt_getProof.handler(parseParams(jt_getProof, params), context);
  return { call, asked };
}

describe('jt_getProof', () => {
  it('proves the AccountRoot and the trust lines named: the example, from the window and the kept evidence', async () => {
    const { call } = nodeWith(evidenceOf38129);
    expect(await call([ledger38129.lineHolder, '38129', [{ currency: 'USD', issuer }]])).toEqual(stateProofExample);
  });

  it('asks sync for the ledger named, and for the newest ledger it holds for a tag', async () => {
    const { call, asked } = nodeWith(evidenceOf38129);
    await call([ledger38129.lineHolder, 38129]);
    await call([ledger38129.lineHolder, 'validated']);
    expect(asked.map((request) => [request.ledgerIndex, request.keys.length])).toEqual([
      [38129, 1],
      [undefined, 1],
    ]);
  });

  it('refuses an account the ledger does not hold: no proof of absence is served', async () => {
    const { call } = nodeWith(evidenceOf38129);
    await expect(call(['rrrrrrrrrrrrrrrrrrrrBZbvji', '38129'])).rejects.toMatchObject({
      kind: 'account_not_found',
      message: 'account rrrrrrrrrrrrrrrrrrrrBZbvji not found at ledger 38129: only the state of an account that exists is proven',
    });
  });

  it('refuses a trust line the account does not have, naming it', async () => {
    const { call } = nodeWith(evidenceOf38129);
    await expect(call([ledger38129.lineHolder, '38129', [{ currency: 'EUR', issuer }]])).rejects.toMatchObject({
      kind: 'not_found',
      message: `account ${ledger38129.lineHolder} has no trust line in EUR with ${issuer} at ledger 38129`,
    });
  });

  it('refuses a ledger stored without its own validations, saying so', async () => {
    const { call } = nodeWith(undefined);
    await expect(call([ledger38129.lineHolder, '38129'])).rejects.toMatchObject({ kind: 'not_found', message: expect.stringContaining('ledger 38129 is stored without its own validations') });
  });

  it('refuses a ledger proven by -validators keys alone: the document needs a published list', async () => {
    const { call } = nodeWith({ ...evidenceOf38129, validatorLists: [] });
    await expect(call([ledger38129.lineHolder, '38129'])).rejects.toMatchObject({ message: expect.stringContaining('proven by -validators keys alone') });
  });

  it('refuses a ledger hash the store does not hold as out of range', async () => {
    const { call } = nodeWith(evidenceOf38129);
    await expect(call([ledger38129.lineHolder, 'AB'.repeat(32)])).rejects.toMatchObject({ kind: 'out_of_range', message: `ledger ${'AB'.repeat(32)} is not stored` });
  });

  it('refuses malformed trust lines and an issuer that is not an address as invalid params', async () => {
    for (const trustLines of [{ currency: 'USD', issuer }, [{ currency: 'USD' }], [{ currency: 'USD', issuer, extra: 1 }], Array.from({ length: 65 }, () => ({ currency: 'USD', issuer }))]) {
      expect(() => parseParams(jt_getProof, [ledger38129.lineHolder, '38129', trustLines]), JSON.stringify(trustLines).slice(0, 60)).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
    }
    const { call } = nodeWith(evidenceOf38129);
    await expect(call([ledger38129.lineHolder, '38129', [{ currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj' }]])).rejects.toMatchObject({ kind: 'invalid_params' });
    await expect(call([ledger38129.lineHolder, '38129', [{ currency: 'XRP', issuer }]])).rejects.toMatchObject({ kind: 'invalid_params' });
  });
});
