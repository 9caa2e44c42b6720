import { describe, expect, it } from 'vitest';
import { encodeLedgerHeader, type FetchedLedger, getProfile, ledgerHeaderFromJson, stateEntryFromLedgerJson, StateTree, transactionFromLedgerJson, type VerifiedLedger, verifyLedger } from '@ledger-node/chain';
import { StateChangeKind } from '@ledger-node/contracts';
import { createLogger } from '@ledger-node/telemetry';
import { readFixture, rejectionOf } from '@ledger-node/test-utils';
import { recordedFetchedLedger, recordedLedgerFile, recordedRun, type RecordedLedgerFile } from '../../test/support/recorded-ledgers';
import { UpstreamRequestError } from '@ledger-node/upstream';
import { deriveStateChanges, historicSkipListKey, skipListKeysChangedBy, type DerivedChange } from './derive';
import { provenStateChanges, StateNotProven } from './state-changes';

const xrpl = getProfile('xrpl');
const logger = createLogger('sync', 'silent');

function verified(fetched: FetchedLedger): VerifiedLedger {
  const verification = verifyLedger(fetched);
  if (!verification.ok) throw new Error(verification.failure.message);
  return verification.ledger;
}

const fullState = readFixture<RecordedLedgerFile>('xrpl/ledgers/mainnet/38129-full-state.json');
const stateBlobs = new Map<string, string>(
  (fullState.ledger.accountState as Record<string, any>[]).map((entry) => {
    const { index, blob } = stateEntryFromLedgerJson(entry, xrpl);
    return [index, blob];
  }),
);

function ledger38129(): VerifiedLedger {
  return verified({
    ledgerIndex: 38129,
    headerBlob: encodeLedgerHeader(ledgerHeaderFromJson(fullState.ledger)),
    ledgerHash: fullState.ledger_hash,
    transactions: fullState.ledger.transactions.map((tx) => {
      const binary = transactionFromLedgerJson(tx, xrpl);
      return { txBlob: Buffer.from(binary.txBlob, 'hex'), metaBlob: Buffer.from(binary.metaBlob, 'hex') };
    }),
  });
}

const hexOf = (image: DerivedChange['after']) => (image.state === 'object' ? image.blob.toString('hex').toUpperCase() : image.state);

describe('state changes from metadata', () => {
  it('rebuilds the exact objects a mainnet payment created and modified (ledger 38129 against its full state)', () => {
    const changes = deriveStateChanges(ledger38129(), xrpl);
    const created = changes.find((change) => change.kind === StateChangeKind.CREATED)!;
    const modified = changes.find((change) => change.kind === StateChangeKind.MODIFIED && change.ledgerEntryType === 'AccountRoot')!;
    // The CreatedNode lacks Flags and OwnerCount (zero, left out of NewFields) and the threading fields.
    expect(hexOf(created.after)).toBe(stateBlobs.get(created.key));
    expect(created.before).toEqual({ state: 'absent' });
    expect(xrpl.codec.encodeAccountId(created.accountId!)).toBe('rLQBHVhFnaC5gLEkgr6HgBJJ3bgeZHg9cj');
    expect(hexOf(modified.after)).toBe(stateBlobs.get(modified.key));
    // Before: Balance and Sequence from PreviousFields, threading from the node's top level.
    const before = xrpl.codec.decode(hexOf(modified.before));
    expect(before).toMatchObject({ Balance: '991481999390', Sequence: 62, PreviousTxnID: '2485FDC606352F1B0785DA5DE96FB9DBAF43EB60ECBB01B7F6FA970F512CDA5F', PreviousTxnLgrSeq: 31317 });
    // The skip list is not in metadata: both of its images are read from the upstream.
    const skip = changes.find((change) => change.ledgerEntryType === 'LedgerHashes')!;
    expect([skip.after.state, skip.before.state]).toEqual(['unknown', 'unknown']);
    expect(changes).toHaveLength(3);
  });

  it('derives for each object of consecutive mainnet ledgers an image after one ledger equal to the image before the next', () => {
    let compared = 0;
    for (const ledgerIndex of recordedRun.slice(0, -1)) {
      const after = new Map(deriveStateChanges(verified(recordedFetchedLedger(ledgerIndex)), xrpl).map((change) => [change.key, change.after]));
      for (const change of deriveStateChanges(verified(recordedFetchedLedger(ledgerIndex + 1)), xrpl)) {
        const previous = after.get(change.key);
        if (!previous || previous.state === 'unknown' || change.before.state === 'unknown') continue;
        expect([change.key, hexOf(change.before)]).toEqual([change.key, hexOf(previous)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('assembles after-images that are the canonical encoding of the last node’s fields and this transaction’s threading (every recorded mainnet ledger)', () => {
    let checked = 0;
    for (const ledgerIndex of [...recordedRun, 7501326]) {
      // The last metadata node of each object, in transaction order, as JSON.
      const lastNodes = new Map<string, { kind: string; node: Record<string, any>; hash: string }>();
      const transactions = [...recordedLedgerFile(ledgerIndex).ledger.transactions].sort((a, b) => a.metaData.TransactionIndex - b.metaData.TransactionIndex);
      for (const tx of transactions) {
        for (const wrapper of tx.metaData.AffectedNodes as Record<string, any>[]) {
          const [kind, node] = Object.entries(wrapper)[0]!;
          lastNodes.set(node.LedgerIndex, { kind, node, hash: tx.hash });
        }
      }
      for (const change of deriveStateChanges(verified(recordedFetchedLedger(ledgerIndex)), xrpl)) {
        if (change.after.state !== 'object') continue;
        const { kind, node, hash } = lastNodes.get(change.key)!;
        const image = hexOf(change.after);
        const decoded = xrpl.codec.decode(image);
        expect(decoded).toMatchObject({
          LedgerEntryType: node.LedgerEntryType,
          ...(kind === 'CreatedNode' ? node.NewFields : node.FinalFields),
          PreviousTxnID: hash,
          PreviousTxnLgrSeq: ledgerIndex,
        });
        expect(xrpl.codec.encode(decoded)).toBe(image);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('names the skip lists Ledger::updateSkipList changes: the recent list always, the historic one after every 256th ledger', () => {
    expect(skipListKeysChangedBy(1)).toEqual([]);
    expect(skipListKeysChangedBy(38129)).toHaveLength(1);
    expect(skipListKeysChangedBy(38145)).toEqual([skipListKeysChangedBy(38129)[0], historicSkipListKey(38144)]);
    // Both skip lists of ledger 38129's state are the ones these keys name.
    expect([...stateBlobs.keys()].filter((key) => key === skipListKeysChangedBy(2)[0] || key === historicSkipListKey(38128))).toHaveLength(2);
  });

});

describe('state changes proven by a state tree', () => {
  const signal = new AbortController().signal;
  const options = { signal, logger };
  const fullTree = () => {
    const tree = new StateTree();
    for (const [key, blob] of stateBlobs) tree.set(key, blob);
    return tree;
  };
  /** Answers ledger_entry at ledger 38129 from its full state, at its parent with `parentObjects`; `forge` edits an answer. */
  function reader(parentObjects: Map<string, string>, forge?: (key: string, blob: string) => string) {
    const reads: string[] = [];
    return {
      reads,
      async ledgerEntry(objectKey: string, ledgerHash: string) {
        const atLedger = ledgerHash === fullState.ledger_hash;
        reads.push(`${objectKey.slice(0, 8)}@${atLedger ? 'ledger' : 'parent'}`);
        const blob = (atLedger ? stateBlobs : parentObjects).get(objectKey);
        if (!blob) throw new UpstreamRequestError('ledger_entry', 'entryNotFound', 'entry not found');
        return { index: objectKey, node_binary: forge ? forge(objectKey, blob) : blob };
      },
    };
  }
  const skipKey = skipListKeysChangedBy(38129)[0]!;
  const flipLastByte = (blob: string) => blob.slice(0, -2) + (parseInt(blob.slice(-2), 16) ^ 1).toString(16).padStart(2, '0').toUpperCase();

  it('forwards: the images built on the state before make the ledger’s account_hash; a forged image read from the upstream is refused', async () => {
    const ledger = ledger38129();
    expect(fullTree().root()).toBe(ledger.header.accountHash.toUpperCase());
    // The state before, as far as a forward proof depends on it: every object the ledger did not
    // change (those it changed hold their images before as metadata gives them, or any bytes).
    const before = fullTree();
    for (const change of deriveStateChanges(ledger, xrpl)) {
      if (change.before.state === 'object') before.set(change.key, change.before.blob);
      else if (change.before.state === 'absent') before.delete(change.key);
      else before.set(change.key, flipLastByte(stateBlobs.get(change.key)!));
    }

    const honest = reader(new Map());
    const proof = await provenStateChanges(ledger, xrpl, honest, { side: 'before', tree: before }, ledger.header.accountHash, options);
    expect(proof.tree.root()).toBe(ledger.header.accountHash.toUpperCase());
    // Metadata determines the account roots; only the skip list is read, at the ledger.
    expect(honest.reads).toEqual([`${skipKey.slice(0, 8)}@ledger`]);
    expect(proof.changes.map((change) => [change.kind, change.ledgerEntryType]).sort()).toEqual([
      [StateChangeKind.CREATED, 'AccountRoot'],
      [StateChangeKind.MODIFIED, 'AccountRoot'],
      [StateChangeKind.MODIFIED, 'LedgerHashes'],
    ]);

    const forged = reader(new Map(), (key, blob) => (key === skipKey ? flipLastByte(blob) : blob));
    const refusal = await rejectionOf<StateNotProven>(provenStateChanges(ledger, xrpl, forged, { side: 'before', tree: before }, ledger.header.accountHash, options));
    expect(refusal).toBeInstanceOf(StateNotProven);
    expect(refusal.reason).toBe('state_root_mismatch');
    // The second try read every image again before refusing.
    expect(forged.reads.length).toBeGreaterThan(1);
  });

  it('downwards: before-images on the state after must make the parent’s account_hash; a forged one is refused', async () => {
    const ledger = ledger38129();
    const parentSkipList = flipLastByte(stateBlobs.get(skipKey)!);
    const parentObjects = new Map([[skipKey, parentSkipList]]);
    // The parent's state as the honest images make it: the test's own account_hash for the parent.
    const parent = fullTree();
    for (const change of deriveStateChanges(ledger, xrpl)) {
      if (change.key === skipKey) parent.set(change.key, parentSkipList);
      else if (change.before.state === 'object') parent.set(change.key, change.before.blob);
      else parent.delete(change.key);
    }
    const proof = await provenStateChanges(ledger, xrpl, reader(parentObjects), { side: 'after', tree: fullTree() }, parent.root(), options);
    expect(proof.tree.root()).toBe(parent.root());
    expect(proof.changes.every((change) => change.previousBlob !== undefined)).toBe(true);

    const forged = reader(parentObjects, (_key, blob) => `${blob.slice(0, -2)}00`);
    const refusal = await rejectionOf<StateNotProven>(provenStateChanges(ledger, xrpl, forged, { side: 'after', tree: fullTree() }, parent.root(), options));
    expect(refusal.reason).toBe('state_root_mismatch');
  });

  it('refuses a ledger whose images the upstream does not serve, naming it', async () => {
    const stateless = {
      async ledgerEntry(): Promise<never> {
        throw new UpstreamRequestError('ledger_entry', 'notSupported', 'no state');
      },
    };
    const ledger = ledger38129();
    const refusal = await rejectionOf<StateNotProven>(provenStateChanges(ledger, xrpl, stateless, { side: 'before', tree: fullTree() }, ledger.header.accountHash, options));
    expect([refusal.reason, refusal.ledgerIndex]).toEqual(['image_unavailable', 38129]);
    expect(refusal.message).toMatch(/notSupported/);
  });
});
