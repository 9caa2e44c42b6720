import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader, getProfile, HashPrefix, proofPathOfFlat, sha512Half, StateTree, type LedgerHeader } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { syncHandlers } from '../grpc/handlers';
import { StateProver, type StateProverStore } from './state-prover';

const LEDGER = 10;
const key = (n: number) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
const objects = Array.from({ length: 40 }, (_, n) => ({ key: key(n + 1), blob: Buffer.from(`entry ${n + 1}`) }));
const tree = new StateTree();
for (const object of objects) tree.set(object.key.toString('hex'), object.blob);
const header: LedgerHeader = {
  ledgerIndex: LEDGER,
  totalCoins: 100_000_000_000_000_000n,
  parentHash: '11'.repeat(32),
  transactionHash: '22'.repeat(32),
  accountHash: tree.root(),
  parentCloseTime: 800_000_000,
  closeTime: 800_000_010,
  closeTimeResolution: 10,
  closeFlags: 0,
};

/** A store holding the state of ledger 10 and nothing else to prove: the prover loads it and waits. */
function storeWith(stored: { header?: LedgerHeader }): StateProverStore {
  return {
    stateDownload: async () => ({ ledgerIndex: LEDGER, marker: Buffer.alloc(0), complete: true, objectCount: BigInt(objects.length) }),
    stateRange: async () => ({ first: LEDGER, last: LEDGER }),
    listStateObjects: async () => ({ objects, nextAfterKey: Buffer.alloc(0) }),
    header: async () => (stored.header ? { ledgerHash: Buffer.alloc(32), header: stored.header } : undefined),
    storedLedger: async () => undefined,
    storedLedgers: async () => [],
    putStateChanges: async () => undefined,
  };
}

const provers: StateProver[] = [];
afterEach(async () => {
  await Promise.all(provers.splice(0).map((prover) => prover.stop()));
});

async function loadedProver(stored: { header?: LedgerHeader }) {
  const prover = new StateProver({
    store: storeWith(stored),
    reader: {} as never,
    chain: { ranges: { has: () => false } } as never,
    profile: getProfile('xrpl'),
    logger: createLogger('sync', 'silent'),
    refusals: { count: () => undefined },
    proofWindow: 4,
  });
  provers.push(prover);
  prover.start();
  await expect.poll(() => prover.provenRange).toEqual({ first: LEDGER, last: LEDGER });
  const handlers = syncHandlers({ status: () => ({}) as never, manifest: () => undefined, stateProof: (ledgerIndex, keys) => prover.stateProof(ledgerIndex, keys) });
  return (request: { ledgerIndex?: number; keys: Buffer[] }) => handlers.getStateProof(request, {} as never);
}

describe('GetStateProof', () => {
  it("answers each key's entry and path in the proven tree, with the ledger's header, at the newest ledger when none is named", async () => {
    const getStateProof = await loadedProver({ header });
    const answer = await getStateProof({ keys: [key(7), key(33)] });
    expect(answer.ledgerIndex).toBe(LEDGER);
    expect(decodeLedgerHeader(answer.headerBlob)).toEqual(header);
    expect(answer.entries.map((entry) => [entry.key, entry.blob])).toEqual([
      [key(7), Buffer.from('entry 7')],
      [key(33), Buffer.from('entry 33')],
    ]);
    for (const entry of answer.entries) {
      expect(sha512Half(HashPrefix.innerNode, entry.innerNodes[0]!).toString('hex').toUpperCase()).toBe(header.accountHash);
      expect(proofPathOfFlat(entry.innerNodes, entry.key)).toEqual(tree.proof(entry.key.toString('hex')));
    }
  });

  it('answers a key the ledger does not hold with no blob and no path', async () => {
    const getStateProof = await loadedProver({ header });
    const answer = await getStateProof({ ledgerIndex: LEDGER, keys: [key(500)] });
    expect(answer.entries).toEqual([{ key: key(500), blob: undefined, innerNodes: [] }]);
  });

  it('refuses a ledger outside the window, naming it', async () => {
    const getStateProof = await loadedProver({ header });
    await expect(getStateProof({ ledgerIndex: LEDGER - 1, keys: [key(1)] })).rejects.toMatchObject({
      kind: 'out_of_range',
      message: 'state proofs are served for ledgers 10-10 (the newest proven and the -proof_window before it), not ledger 9',
    });
  });

  it('refuses no key, too many keys and a key that is not 32 bytes', async () => {
    const getStateProof = await loadedProver({ header });
    await expect(getStateProof({ keys: [] })).rejects.toMatchObject({ kind: 'invalid_params', message: 'name from 1 to 256 keys' });
    await expect(getStateProof({ keys: Array.from({ length: 257 }, () => key(1)) })).rejects.toMatchObject({ kind: 'invalid_params' });
    await expect(getStateProof({ keys: [key(1), Buffer.alloc(31)] })).rejects.toMatchObject({ message: 'keys[1] is not a 32-byte ledger entry index' });
  });

  it('refuses a ledger of the window that bounded history removed since', async () => {
    const stored: { header?: LedgerHeader } = { header };
    const getStateProof = await loadedProver(stored);
    delete stored.header;
    await expect(getStateProof({ keys: [key(1)] })).rejects.toMatchObject({ kind: 'out_of_range', message: 'ledger 10 is no longer stored' });
  });
});
