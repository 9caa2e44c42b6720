import { describe, expect, it } from 'vitest';
import { encodeNodePublicKey, getProfile, listDocumentOf, readPublishedList, REVOKED_SEQUENCE, signManifest, signValidation, verifyValidation } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { testNetwork } from '../trust/test-network';
import { AnchorProof, type AnchorProofOptions, type NegativeUnlReading } from './anchor-proof';

const profile = getProfile('xrpl');
const logger = createLogger('sync', 'silent');
const hash = 'AB'.repeat(32);
const otherHash = 'CD'.repeat(32);
const parentHash = 'EF'.repeat(32);
const network = testNetwork(profile, 5);
const never = () => new AbortController().signal;

function proof(options: Partial<AnchorProofOptions> & { refused?: string[] } = {}): AnchorProof {
  const refused = options.refused ?? [];
  return new AnchorProof({
    profile,
    logger,
    lists: network.lists(),
    endpoints: ['ws://a'],
    ledgerHashFrom: async () => ({ hash, server: 'node A' }),
    fetchManifest: async () => undefined,
    negativeUnl: async (): Promise<NegativeUnlReading> => ({ keys: new Set(), source: 'state' }),
    onRefused: (reason) => refused.push(reason),
    validationWaitMs: 200,
    ...options,
  });
}

describe('AnchorProof with a published list', () => {
  it('proves a ledger once rippled\'s quorum of distinct listed validators signed its hash under their manifests\' keys', async () => {
    const anchor = proof();
    for (const index of [0, 0, 1, 2]) anchor.onValidation(network.validation(index, 500, hash));
    anchor.onValidation(network.validation(3, 500, otherHash));
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toBe(`ledger 500 ${hash} not proven: 3 of the 4 trusted validations needed came`);
    anchor.onValidation(network.validation(4, 500, hash));
    expect((await anchor.prove(500, hash.toLowerCase(), parentHash, never()))?.text).toBe('validated by 4 of 5 trusted validators (quorum 4)');
    expect(anchor.state).toBe('ledger 500 validated by 4 of 5 trusted validators (quorum 4)');
  });

  it('keeps what proved the ledger: each validation counted as received, the list in force, and the manifests naming their keys', async () => {
    const anchor = proof();
    for (const index of [0, 1, 2, 3, 4]) anchor.onValidation(network.validation(index, 500, hash));
    anchor.onValidation(network.validation(0, 501, otherHash));
    const evidence = (await anchor.prove(500, hash, parentHash, never()))?.evidence;
    expect(evidence?.quorum).toBe(4);
    const signers = network.keys.validators.map((validator) => validator.signing.publicKey.toUpperCase());
    expect(evidence!.validations.map((blob) => verifyValidation(profile, blob.toString('hex')))).toEqual(
      signers.map((publicKey) => ({ ledgerIndex: 500, ledgerHash: hash, signingTime: 1, full: true, publicKey })),
    );
    expect(evidence!.manifests.map((manifest) => manifest.toString('hex').toUpperCase())).toEqual(network.keys.validators.map((validator) => network.manifestOf(validator)));
    const publisher = network.keys.publisher.master.publicKey.toUpperCase();
    expect(evidence!.validatorLists.map((list) => ({ publisher: list.publicKey.toString('hex').toUpperCase(), sequence: list.sequence }))).toEqual([{ publisher, sequence: 1 }]);
    const listed = readPublishedList(listDocumentOf(evidence!.validatorLists[0]!), new Set([publisher]));
    expect(listed.blobs.map((blob) => blob.validators.map((validator) => validator.masterKey))).toEqual([network.keys.validators.map((validator) => validator.master.publicKey.toUpperCase())]);
  });

  it('a negative UNL lowers the quorum and its validators do not count', async () => {
    const disabled = new Set([3, 4].map((index) => network.keys.validators[index]!.master.publicKey));
    const anchor = proof({ negativeUnl: async () => ({ keys: disabled, source: 'upstream' }) });
    for (const index of [0, 1, 4]) anchor.onValidation(network.validation(index, 500, hash));
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toMatch(/2 of the 3 trusted validations needed came/);
    anchor.onValidation(network.validation(2, 500, hash));
    expect((await anchor.prove(500, hash, parentHash, never()))?.text).toBe('validated by 3 of 5 trusted validators (quorum 3, 2 on the negative UNL the upstream states)');
  });

  it('counts a rotated validator only once its new manifest is learnt from the upstream, and the old key no more', async () => {
    const rotated = network.keys.nextSigningKey('test rotation');
    const validator = network.keys.validators[0]!;
    const manifest = signManifest({ master: validator.master, signing: rotated, sequence: 2 });
    const asked: string[] = [];
    const anchor = proof({
      fetchManifest: async (key) => {
        asked.push(key);
        return Buffer.from(manifest, 'hex').toString('base64');
      },
    });
    const byNewKey = { data: signValidation(profile, rotated, { ledgerIndex: 500, ledgerHash: hash, signingTime: 1 }), master_key: encodeNodePublicKey(validator.master.publicKey, profile) };
    for (const index of [1, 2, 3]) anchor.onValidation(network.validation(index, 500, hash));
    anchor.onValidation(byNewKey);
    expect((await anchor.prove(500, hash, parentHash, never()))?.text).toBe('validated by 4 of 5 trusted validators (quorum 4)');
    expect(asked).toEqual([encodeNodePublicKey(rotated.publicKey, profile)]);
    // Its validations under the rotated-out key count for nobody now.
    const after = proof({ lists: anchorLists(manifest) });
    for (const index of [0, 1, 2]) after.onValidation(network.validation(index, 501, hash));
    expect(await after.prove(501, hash, parentHash, never())).toBeUndefined();
  });

  it('a revoked validator leaves the trusted set and the quorum is recomputed', async () => {
    const lists = network.lists();
    lists.trust.applyManifest(signManifest({ master: network.keys.validators[4]!.master, sequence: REVOKED_SEQUENCE }));
    const anchor = proof({ lists });
    for (const index of [0, 1, 2, 4]) anchor.onValidation(network.validation(index, 500, hash));
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toMatch(/3 of the 4 trusted validations needed came/);
    anchor.onValidation(network.validation(3, 500, hash));
    expect((await anchor.prove(500, hash, parentHash, never()))?.text).toBe('validated by 4 of 4 trusted validators (quorum 4)');
  });

  it('proves nothing while the list is not had or has expired, and says why', async () => {
    const anchor = proof({ lists: network.lists({ applyList: false }) });
    for (const index of [0, 1, 2, 3, 4]) anchor.onValidation(network.validation(index, 500, hash));
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toMatch(/no quorum can be reached: no list of publisher .* verified yet/);
    const expired = network.lists({ applyList: false });
    expired.trust.applyList(network.document(1, network.now - 1), { site: 'test', now: network.now });
    const late = proof({ lists: expired });
    for (const index of [0, 1, 2, 3, 4]) late.onValidation(network.validation(index, 500, hash));
    expect(await late.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(late.state).toMatch(/no quorum can be reached: the list of publisher .* expired/);
  });

  it('stops waiting for a ledger once a later one is validated: its validations were withheld, or it is a fork', async () => {
    const anchor = proof({ validationWaitMs: 60_000 });
    const waiting = anchor.prove(500, hash, parentHash, never());
    for (const index of [0, 1, 2, 3]) anchor.onValidation(network.validation(index, 501, otherHash));
    expect(await waiting).toBeUndefined();
    expect(anchor.state).toBe(`ledger 500 ${hash} not proven: 0 of the 4 trusted validations needed came, and a later ledger is validated already`);
    // Validations that came in time still prove their ledger, later ones notwithstanding.
    for (const index of [0, 1, 2, 3]) anchor.onValidation(network.validation(index, 500, hash));
    expect((await anchor.prove(500, hash, parentHash, never()))?.text).toBe('validated by 4 of 5 trusted validators (quorum 4)');
  });

  it('counts nothing from a validation whose signature does not check out, nor from a key no list names', async () => {
    const refused: string[] = [];
    const anchor = proof({ refused });
    const decoded = profile.codec.decode(network.validation(0, 500, hash).data);
    anchor.onValidation({ data: profile.codec.encode({ ...decoded, Cookie: '0000000000000001' }) });
    anchor.onValidation({ data: '00' });
    const stranger = profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(3) }));
    anchor.onValidation({ data: signValidation(profile, stranger, { ledgerIndex: 500, ledgerHash: hash, signingTime: 1 }) });
    for (const index of [1, 2, 3]) anchor.onValidation(network.validation(index, 500, hash));
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(refused.sort()).toEqual(['validation_bad_signature', 'validation_malformed', 'validation_untrusted']);
  });

  it("checks a trusted validator's validation of a newer ledger as it comes; a second hash at that index waits until it would count", async () => {
    const refused: string[] = [];
    const anchor = proof({ refused });
    const forged = (index: number, ledgerIndex: number, ledgerHash: string) =>
      profile.codec.encode({ ...profile.codec.decode(network.validation(index, ledgerIndex, ledgerHash).data), Cookie: '0000000000000001' });
    anchor.onValidation({ data: forged(0, 500, hash) });
    expect(refused).toEqual(['validation_bad_signature']);
    anchor.onValidation(network.validation(1, 501, hash));
    anchor.onValidation({ data: forged(1, 501, otherHash) });
    expect(refused).toEqual(['validation_bad_signature']);
    for (const index of [0, 2, 3]) anchor.onValidation(network.validation(index, 501, otherHash));
    expect(await anchor.prove(501, otherHash, parentHash, never())).toBeUndefined();
    expect(refused).toEqual(['validation_bad_signature', 'validation_bad_signature']);
    for (const index of [0, 2, 3]) anchor.onValidation(network.validation(index, 501, hash));
    expect((await anchor.prove(501, hash, parentHash, never()))?.text).toBe('validated by 4 of 5 trusted validators (quorum 4)');
  });

  it('-validators signing keys prove as before, with the file\'s quorum', async () => {
    const signer = profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(9) }));
    const anchor = proof({ lists: network.lists({ validators: { keys: [signer.publicKey], quorum: 1 } }) });
    anchor.onValidation({ data: signValidation(profile, signer, { ledgerIndex: 500, ledgerHash: hash, signingTime: 1 }) });
    const proven = await anchor.prove(500, hash, parentHash, never());
    expect(proven?.text).toBe('validated by 1 of 1 trusted validators (quorum 1)');
    // No list made the key trusted, and it signs under no manifest: the evidence is its validation alone.
    expect(proven?.evidence).toMatchObject({ quorum: 1, validatorLists: [], manifests: [] });
    expect(proven!.evidence!.validations).toHaveLength(1);
  });
});

/** Lists trusting the network, with validator 1's manifest replaced by `manifest`. */
function anchorLists(manifest: string) {
  const lists = network.lists();
  lists.trust.applyManifest(manifest);
  return lists;
}

describe('AnchorProof with nothing trusted', () => {
  it('proves a ledger when at least two endpoints name its hash and none names another', async () => {
    const named: Record<string, { hash: string; server: string } | Error> = { 'ws://a': { hash, server: 'node A' }, 'ws://b': { hash, server: 'node B' }, 'ws://c': new Error('down') };
    const ledgerHashFrom = async (url: string) => {
      const answer = named[url]!;
      if (answer instanceof Error) throw answer;
      return answer;
    };
    const anchor = proof({ lists: untrustingLists(), endpoints: Object.keys(named), ledgerHashFrom });
    expect((await anchor.prove(500, hash, parentHash, never()))?.text).toBe('named by 2 servers of 3 endpoints (no validator list is configured)');
    named['ws://c'] = { hash: otherHash, server: 'node C' };
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toBe(`ledger 500 ${hash} not proven: named by 2 of the 2 servers needed, another hash by 1 endpoint(s)`);
  });

  it('counts one server named by two URLs (a second spelling, a proxy) once: it proves nothing', async () => {
    const anchor = proof({ lists: untrustingLists(), endpoints: ['ws://localhost:6006', 'ws://127.0.0.1:6006'], ledgerHashFrom: async () => ({ hash, server: 'node N9' }) });
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toBe(`ledger 500 ${hash} not proven: named by 1 of the 2 servers needed, another hash by 0 endpoint(s); 2 endpoints named it, but they are one server`);
  });

  it('proves nothing with a single endpoint, and says so', async () => {
    const anchor = proof({ lists: untrustingLists() });
    expect(anchor.trustText()).toBe('nothing: no validator list, no -validators key, and a single -endpoint');
    expect(await anchor.prove(500, hash, parentHash, never())).toBeUndefined();
    expect(anchor.state).toBe('ledger 500 not proven: nothing proves a ledger with no validator list, no -validators key and a single -endpoint');
  });
});

/** Lists with no publisher and no key. */
function untrustingLists() {
  return network.lists({ validators: { keys: [], quorum: 1 } });
}
