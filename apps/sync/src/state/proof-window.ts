/**
 * The proven state trees of the newest ledgers, for state proofs (GetStateProof): a snapshot of
 * the forward tree after each ledger it moves to, the newest and the `size` before it. Snapshots
 * share every node they have in common, so each ledger costs only the inner nodes and leaves its
 * changes made.
 */
import type { StateTree } from '@ledger-node/chain';
import { OutOfRange } from '@ledger-node/errors';
import type { LedgerRange } from '../backfill/ranges';

export class ProofWindow {
  /** By ledger index, ascending: the forward tree only moves up one ledger at a time. */
  private readonly trees = new Map<number, StateTree>();

  /** `size`: how many ledgers below the newest keep their tree (-proof_window). */
  constructor(private readonly size: number) {}

  /** The ledgers whose tree is held. */
  get range(): LedgerRange | undefined {
    const indexes = [...this.trees.keys()];
    return indexes.length === 0 ? undefined : { first: indexes[0]!, last: indexes[indexes.length - 1]! };
  }

  /** The proven state after `ledgerIndex`; a ledger not above the newest held starts the window again. */
  add(ledgerIndex: number, tree: StateTree): void {
    const last = this.range?.last;
    if (last !== undefined && ledgerIndex !== last + 1) this.trees.clear();
    this.trees.set(ledgerIndex, tree.snapshot());
    for (const held of this.trees.keys()) {
      if (held >= ledgerIndex - this.size) break;
      this.trees.delete(held);
    }
  }

  /** The state was set aside: no tree held is proven any more. */
  clear(): void {
    this.trees.clear();
  }

  /** The tree after `ledgerIndex` (the newest held when undefined); OutOfRange naming the window otherwise. */
  tree(ledgerIndex: number | undefined): { ledgerIndex: number; tree: StateTree } {
    const range = this.range;
    if (range === undefined) throw new OutOfRange('no proven state tree is held yet: state proofs start once the account state is downloaded and proven');
    const index = ledgerIndex ?? range.last;
    const tree = this.trees.get(index);
    if (tree === undefined) {
      throw new OutOfRange(`state proofs are served for ledgers ${range.first}-${range.last} (the newest proven and the -proof_window before it), not ledger ${index}`, {
        first_ledger_index: range.first,
        last_ledger_index: range.last,
      });
    }
    return { ledgerIndex: index, tree };
  }
}

