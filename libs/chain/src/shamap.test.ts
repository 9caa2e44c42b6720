import { describe, expect, it } from 'vitest';
import { hashes } from 'xrpl';
import { HashPrefix, sha512Half, ZERO_HASH } from './hash';
import { hashLedgerHeader, ledgerHeaderFromJson } from './header';
import { stateEntryFromLedgerJson, transactionFromLedgerJson } from './ledger-json';
import { getProfile } from './profiles';
import { flatProofPath, proofPathOfFlat, StateTree, stateTreeRoot, transactionTreeProof, transactionTreeRoot, transactionTreeRootOf, variableLengthPrefix, type ProofPath } from './shamap';
import { ledgerFixtures, type LedgerFixture } from './test-fixtures';

const xrpl = getProfile('xrpl');

const ledgersWithTransactions = [...ledgerFixtures('xrpl/ledgers/mainnet'), ...ledgerFixtures('xrpl/ledgers/privnet')].filter(
  ([, fixture]) => (fixture.ledger.transactions ?? []).length > 0,
);
const fullStateLedgers = ledgerFixtures('xrpl/ledgers/mainnet').filter(([, fixture]) => fixture.ledger.accountState !== undefined);

function stateItems(fixture: LedgerFixture) {
  return fixture.ledger.accountState!.map((entry) => stateEntryFromLedgerJson(entry, xrpl));
}

describe('transactionTreeRoot', () => {
  it('is 64 zeros for a ledger without transactions', () => {
    expect(transactionTreeRoot([])).toBe(ZERO_HASH);
    const [, empty] = ledgerFixtures('xrpl/ledgers/mainnet').find(([name]) => name.endsWith('40000-full-state.json'))!;
    expect(empty.ledger.transaction_hash).toBe(ZERO_HASH);
  });

  it('covers the runs 11119599..11119604, 7501326, 38129 and privnet 3..6', () => {
    expect(ledgersWithTransactions.map(([, fixture]) => String(fixture.ledger_index)).sort()).toEqual(
      ['11119599', '11119600', '11119601', '11119602', '11119603', '11119604', '38129', '3', '4', '5', '6', '7501326'].sort(),
    );
  });

  for (const [file, fixture] of ledgersWithTransactions) {
    it(`equals transaction_hash of ${file}`, () => {
      const items = fixture.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl));
      expect(transactionTreeRoot(items)).toBe(fixture.ledger.transaction_hash);
    });
  }

  it('does not depend on the order the transactions are added in', () => {
    const [, fixture] = ledgersWithTransactions.find(([name]) => name.endsWith('11119603.json'))!;
    const items = fixture.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl));
    expect(transactionTreeRoot([...items].reverse())).toBe(fixture.ledger.transaction_hash);
  });

  it('keeps one leaf for a transaction given twice, the last given', () => {
    const [, fixture] = ledgersWithTransactions.find(([name]) => name.endsWith('11119603.json'))!;
    const items = fixture.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl));
    const first = items[0]!;
    const otherMeta = { ...first, metaBlob: first.metaBlob.slice(0, -2) + (first.metaBlob.endsWith('00') ? '01' : '00') };
    expect(transactionTreeRoot([...items, first])).toBe(fixture.ledger.transaction_hash);
    expect(transactionTreeRoot([otherMeta, ...items])).toBe(fixture.ledger.transaction_hash);
    expect(transactionTreeRoot([...items, otherMeta])).not.toBe(fixture.ledger.transaction_hash);
  });

  it('is the same root from bytes (transactionTreeRootOf), which names an id given twice instead of keeping one leaf', () => {
    const asBytes = (item: { hash: string; txBlob: string; metaBlob: string }) => ({ hash: Buffer.from(item.hash, 'hex'), txBlob: Buffer.from(item.txBlob, 'hex'), metaBlob: Buffer.from(item.metaBlob, 'hex') });
    for (const [, fixture] of ledgersWithTransactions) {
      const items = fixture.ledger.transactions!.map((tx) => asBytes(transactionFromLedgerJson(tx, xrpl)));
      const tree = transactionTreeRootOf(items);
      expect('root' in tree && tree.root.toString('hex').toUpperCase()).toBe(fixture.ledger.transaction_hash);
      expect(transactionTreeRootOf([...items, items.at(-1)!])).toEqual({ sameId: items.at(-1)!.hash });
    }
    expect(transactionTreeRootOf([])).toEqual({ root: Buffer.alloc(32) });
  });

  it('changes when one metadata byte changes', () => {
    const [, fixture] = ledgersWithTransactions.find(([name]) => name.endsWith('7501326.json'))!;
    const items = fixture.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl));
    const last = items[items.length - 1]!;
    const tampered = { ...last, metaBlob: last.metaBlob.slice(0, -2) + (last.metaBlob.endsWith('00') ? '01' : '00') };
    expect(transactionTreeRoot([...items.slice(0, -1), tampered])).not.toBe(fixture.ledger.transaction_hash);
  });

  it('agrees with the published xrpl package on ledger 7501326', () => {
    const [, fixture] = ledgersWithTransactions.find(([name]) => name.endsWith('7501326.json'))!;
    expect(transactionTreeRoot(fixture.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl)))).toBe(
      hashes.hashTxTree(fixture.ledger.transactions as never),
    );
  });
});

describe('stateTreeRoot', () => {
  it('covers ledgers 38129 and 40000 with 261 entries each', () => {
    expect(fullStateLedgers.map(([, fixture]) => [fixture.ledger_index, fixture.ledger.accountState!.length])).toEqual([
      [38129, 261],
      [40000, 261],
    ]);
  });

  for (const [file, fixture] of fullStateLedgers) {
    it(`equals account_hash of ${file}`, () => {
      expect(stateTreeRoot(stateItems(fixture))).toBe(fixture.ledger.account_hash);
    });

    it(`agrees with the published xrpl package on ${file}`, () => {
      expect(stateTreeRoot(stateItems(fixture))).toBe(hashes.hashStateTree(fixture.ledger.accountState as never));
    });
  }

  it('is 64 zeros for an empty state', () => {
    expect(stateTreeRoot([])).toBe(ZERO_HASH);
    expect(new StateTree().root()).toBe(ZERO_HASH);
  });
});

describe('StateTree', () => {
  const [, ledger38129] = fullStateLedgers.find(([, fixture]) => fixture.ledger_index === 38129)!;
  const [, ledger40000] = fullStateLedgers.find(([, fixture]) => fixture.ledger_index === 40000)!;
  const items38129 = stateItems(ledger38129);
  const items40000 = stateItems(ledger40000);

  function treeOf(items: { index: string; blob: string }[]): StateTree {
    const tree = new StateTree();
    for (const item of items) tree.set(item.index, item.blob);
    return tree;
  }

  it('reaches account_hash of 40000 by applying the differences from 38129 one entry at a time', () => {
    const tree = treeOf(items38129);
    expect(tree.root()).toBe(ledger38129.ledger.account_hash);
    const next = new Map(items40000.map((item) => [item.index, item.blob]));
    for (const item of items38129) if (!next.has(item.index)) expect(tree.delete(item.index)).toBe(true);
    for (const [index, blob] of next) tree.set(index, blob);
    expect(tree.root()).toBe(ledger40000.ledger.account_hash);
    expect(tree.size).toBe(261);
  });

  it('returns to each earlier root when the entries added after it are deleted', () => {
    const tree = new StateTree();
    const roots = [tree.root()];
    for (const item of items38129) {
      tree.set(item.index, item.blob);
      roots.push(tree.root());
    }
    for (let position = items38129.length - 1; position >= 0; position--) {
      expect(tree.delete(items38129[position]!.index)).toBe(true);
      expect(tree.root()).toBe(roots[position]);
    }
    expect(tree.size).toBe(0);
  });

  it('gives the same root whatever the insertion order', () => {
    expect(treeOf([...items38129].reverse()).root()).toBe(ledger38129.ledger.account_hash);
  });

  it('keeps a snapshot unchanged while the source changes, and the other way round', () => {
    const tree = treeOf(items38129);
    const snapshot = tree.snapshot();
    const [first, second] = items38129;
    tree.delete(first!.index);
    tree.set(second!.index, items38129[2]!.blob);
    expect(snapshot.root()).toBe(ledger38129.ledger.account_hash);
    expect(snapshot.get(first!.index)?.toString('hex').toUpperCase()).toBe(first!.blob);
    expect(snapshot.size).toBe(261);
    expect(tree.size).toBe(260);

    const before = tree.root();
    snapshot.delete(second!.index);
    expect(tree.root()).toBe(before);
    expect(tree.get(second!.index)?.toString('hex').toUpperCase()).toBe(items38129[2]!.blob);
  });

  it('answers get and has for present and absent keys, and delete of an absent key is a no-op', () => {
    const tree = treeOf(items38129.slice(0, 10));
    expect(tree.get(items38129[3]!.index)?.toString('hex').toUpperCase()).toBe(items38129[3]!.blob);
    expect(tree.has(items38129[20]!.index)).toBe(false);
    const root = tree.root();
    expect(tree.delete(items38129[20]!.index)).toBe(false);
    expect(tree.root()).toBe(root);
  });

  it('lists entries in key order and pages after a marker', () => {
    const tree = treeOf(items38129);
    const sorted = items38129.map((item) => item.index).sort();
    expect([...tree.entries()].map((entry) => entry.index)).toEqual(sorted);
    expect([...tree.entries(sorted[99])].map((entry) => entry.index)).toEqual(sorted.slice(100));
    expect([...tree.entries(sorted[260])]).toEqual([]);
    // A marker that is not itself a key still pages from the next larger key.
    const between = (BigInt('0x' + sorted[49]) + 1n).toString(16).toUpperCase().padStart(64, '0');
    expect([...tree.entries(between)].map((entry) => entry.index)).toEqual(sorted.slice(50));
    expect([...tree.entries('0'.repeat(64))].length).toBe(261);
  });

  it('replacing an entry with other bytes changes the root, and restoring them restores it', () => {
    const tree = treeOf(items38129);
    tree.set(items38129[0]!.index, items38129[1]!.blob);
    expect(tree.root()).not.toBe(ledger38129.ledger.account_hash);
    tree.set(items38129[0]!.index, items38129[0]!.blob);
    expect(tree.root()).toBe(ledger38129.ledger.account_hash);
  });

  it('hashes the header of 38129 with the recomputed account and transaction roots', () => {
    const header = ledgerHeaderFromJson(ledger38129.ledger);
    const recomputed = {
      ...header,
      accountHash: treeOf(items38129).root(),
      transactionHash: transactionTreeRoot(ledger38129.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl))),
    };
    expect(hashLedgerHeader(recomputed)).toBe(ledger38129.ledger_hash);
  });
});

describe('variableLengthPrefix', () => {
  it('uses rippled addVL boundaries 192 / 12480 / 918744', () => {
    expect(variableLengthPrefix(192).toString('hex')).toBe('c0');
    expect(variableLengthPrefix(193).toString('hex')).toBe('c100');
    expect(variableLengthPrefix(12480).toString('hex')).toBe('f0ff');
    expect(variableLengthPrefix(12481).toString('hex')).toBe('f10000');
    expect(variableLengthPrefix(918744).toString('hex')).toBe('fed417');
    expect(() => variableLengthPrefix(918745)).toThrow(/918744/);
  });
});

/** The root a proof path hashes to: each list an inner node over its 16 branches. */
function pathRoot(path: ProofPath): string {
  const children = path.map((entry) => (typeof entry === 'string' ? Buffer.from(entry, 'hex') : Buffer.from(pathRoot(entry), 'hex')));
  return sha512Half(HashPrefix.innerNode, ...children).toString('hex').toUpperCase();
}

/** The hash at the end of the path a key's nibbles follow, and how many inner nodes it passes. */
function pathLeaf(path: ProofPath, key: string): { hash: string; depth: number } {
  let node: string | ProofPath = path;
  let depth = 0;
  while (typeof node !== 'string') {
    expect(node).toHaveLength(16);
    node = node[Number.parseInt(key[depth]!, 16)]!;
    depth++;
  }
  return { hash: node, depth };
}

describe('proof paths', () => {
  const [, ledger11119603] = ledgersWithTransactions.find(([name]) => name.endsWith('11119603.json'))!;
  const transactions = ledger11119603.ledger.transactions!.map((tx) => transactionFromLedgerJson(tx, xrpl));

  it('lead from each of the 49 transactions of ledger 11119603 to its transaction_hash, some through more than one inner node', () => {
    const depths = transactions.map((item) => {
      const path = transactionTreeProof(transactions, item.hash)!;
      expect(pathRoot(path)).toBe(ledger11119603.ledger.transaction_hash);
      const { hash, depth } = pathLeaf(path, item.hash);
      const leaf = sha512Half(HashPrefix.txNode, variableLengthPrefix(item.txBlob.length / 2), Buffer.from(item.txBlob, 'hex'), variableLengthPrefix(item.metaBlob.length / 2), Buffer.from(item.metaBlob, 'hex'), Buffer.from(item.hash, 'hex'));
      expect(hash).toBe(leaf.toString('hex').toUpperCase());
      return depth;
    });
    expect(Math.max(...depths)).toBeGreaterThan(1);
  });

  it('is undefined for a transaction not in the ledger', () => {
    expect(transactionTreeProof(transactions, 'AB'.repeat(32))).toBeUndefined();
  });

  it('lead from each state entry of ledger 38129 to its account_hash', () => {
    const [, ledger38129] = fullStateLedgers.find(([, fixture]) => fixture.ledger_index === 38129)!;
    const tree = new StateTree();
    const items = stateItems(ledger38129);
    for (const item of items) tree.set(item.index, item.blob);
    for (const item of items) {
      const path = tree.proof(item.index)!;
      expect(pathRoot(path)).toBe(ledger38129.ledger.account_hash);
      expect(pathLeaf(path, item.index).hash).toBe(sha512Half(HashPrefix.leafNode, Buffer.from(item.blob, 'hex'), Buffer.from(item.index, 'hex')).toString('hex').toUpperCase());
    }
    expect(tree.proof('CD'.repeat(32))).toBeUndefined();
  });

  it('keep their inner nodes in the flat form: 512 bytes each, each hashing to the branch above it, and back to the same list', () => {
    const [, ledger38129] = fullStateLedgers.find(([, fixture]) => fixture.ledger_index === 38129)!;
    const tree = new StateTree();
    const items = stateItems(ledger38129);
    for (const item of items) tree.set(item.index, item.blob);
    for (const item of items) {
      const key = Buffer.from(item.index, 'hex');
      const flat = flatProofPath(tree.proof(item.index)!, key);
      expect(flat.every((node) => node.length === 512)).toBe(true);
      expect(sha512Half(HashPrefix.innerNode, flat[0]!).toString('hex').toUpperCase()).toBe(ledger38129.ledger.account_hash);
      expect(proofPathOfFlat(flat, key)).toEqual(tree.proof(item.index));
    }
  });

  it('refuse a flat node that is not 16 hashes, and an empty path', () => {
    const key = Buffer.alloc(32);
    expect(() => proofPathOfFlat([Buffer.alloc(511)], key)).toThrow('inner node 0 of the path is 511 bytes, not 16 hashes');
    expect(() => proofPathOfFlat([], key)).toThrow('the path holds no inner node');
  });
});
