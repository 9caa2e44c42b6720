import { describe, expect, it } from 'vitest';
import { StateTree } from '@ledger-node/chain';
import { ProofWindow } from './proof-window';

const key = (n: number) => n.toString(16).toUpperCase().padStart(64, '0');

/** A forward tree moved through ledgers first..last, entry `ledger` set at each. */
function follow(window: ProofWindow, first: number, last: number, tree = new StateTree()): StateTree {
  for (let ledgerIndex = first; ledgerIndex <= last; ledgerIndex++) {
    tree.set(key(ledgerIndex), Buffer.from([ledgerIndex & 0xff]));
    window.add(ledgerIndex, tree);
  }
  return tree;
}

describe('ProofWindow', () => {
  it('holds the newest ledger and the N before it, dropping the oldest as the tree moves up', () => {
    const window = new ProofWindow(3);
    follow(window, 10, 20);
    expect(window.range).toEqual({ first: 17, last: 20 });
    expect(window.tree(undefined).ledgerIndex).toBe(20);
    expect(window.tree(17).tree.has(key(17))).toBe(true);
  });

  it('keeps each ledger its own state: later changes of the forward tree do not reach the trees kept', () => {
    const window = new ProofWindow(4);
    const forward = follow(window, 1, 3);
    forward.set(key(99), 'AA');
    expect(window.tree(1).tree.has(key(2))).toBe(false);
    expect(window.tree(2).tree.has(key(2))).toBe(true);
    expect(window.tree(3).tree.has(key(99))).toBe(false);
    expect(window.tree(3).tree.root()).not.toBe(forward.root());
  });

  it('refuses a ledger outside the window, naming the ledgers held', () => {
    const window = new ProofWindow(2);
    follow(window, 5, 9);
    expect(() => window.tree(6)).toThrow('state proofs are served for ledgers 7-9 (the newest proven and the -proof_window before it), not ledger 6');
    expect(() => window.tree(10)).toThrow(expect.objectContaining({ kind: 'out_of_range', details: { data: { first_ledger_index: 7, last_ledger_index: 9 } } }));
  });

  it('holds nothing before the first proven tree, nor after the state is set aside', () => {
    const window = new ProofWindow(2);
    expect(() => window.tree(undefined)).toThrow('no proven state tree is held yet');
    follow(window, 1, 2);
    window.clear();
    expect(window.range).toBeUndefined();
  });

  it('starts again at a tree that is not the next ledger (the state proven again elsewhere)', () => {
    const window = new ProofWindow(8);
    follow(window, 1, 4);
    window.add(40, new StateTree());
    expect(window.range).toEqual({ first: 40, last: 40 });
  });

  it('with -proof_window 0 holds the newest tree only', () => {
    const window = new ProofWindow(0);
    follow(window, 1, 5);
    expect(window.range).toEqual({ first: 5, last: 5 });
  });

  it('shares the unchanged nodes: 256 ledgers of one change each over 20 000 entries cost a few MB, not 256 copies', () => {
    const tree = new StateTree();
    for (let n = 0; n < 20_000; n++) tree.set(key(1_000_000 + n), Buffer.alloc(100, n & 0xff));
    const window = new ProofWindow(256);
    const before = process.memoryUsage().heapUsed;
    follow(window, 1, 257, tree);
    const grownMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    expect(window.range).toEqual({ first: 1, last: 257 });
    // One copy of the tree alone is about 20 MB of heap (20 000 leaves of 100 bytes and their inner nodes).
    expect(grownMb).toBeLessThan(40);
  });
});
