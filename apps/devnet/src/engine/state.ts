/**
 * Ledger state as the rules see it: the open ledger's entries (decoded JSON kept beside the
 * state tree's serialized blobs) and a per-transaction sandbox that records what a transaction
 * reads, creates, modifies and deletes — rippled's ApplyStateTable, whose record becomes the
 * transaction's metadata.
 */
import type { ChainCodec, StateTree } from '@ledger-node/chain';

export type LedgerEntry = Record<string, unknown>;

export function cloneEntry<T>(value: T): T {
  if (Array.isArray(value)) return value.map((member) => cloneEntry(member)) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) copy[key] = cloneEntry(member);
    return copy as T;
  }
  return value;
}

/** The open ledger's state: every entry decoded, over the state tree that hashes them. */
export class OpenLedgerState {
  private readonly entries = new Map<string, LedgerEntry>();

  constructor(
    private readonly codec: ChainCodec,
    readonly tree: StateTree,
  ) {}

  /** The stored entry; callers must not mutate it (the sandbox hands out copies). */
  get(index: string): Readonly<LedgerEntry> | undefined {
    return this.entries.get(index);
  }

  /** Uppercase hex of the stored entry's serialized form. */
  blobHex(index: string): string | undefined {
    const blob = this.tree.get(index);
    return blob === undefined ? undefined : blob.toString('hex').toUpperCase();
  }

  /** Stores an entry, serializing it with the chain's codec; returns the blob written. */
  put(index: string, entry: LedgerEntry, blobHex = this.codec.encode(entry)): string {
    this.entries.set(index, entry);
    this.tree.set(index, blobHex);
    return blobHex;
  }

  remove(index: string): void {
    this.entries.delete(index);
    this.tree.delete(index);
  }

  /** An independent copy (the tree copied on write): what a dry run changes never reaches this state. */
  copy(): OpenLedgerState {
    const copied = new OpenLedgerState(this.codec, this.tree.snapshot());
    for (const [index, entry] of this.entries) copied.entries.set(index, entry);
    return copied;
  }
}

export type ItemAction = 'cache' | 'insert' | 'modify' | 'erase';

export interface SandboxItem {
  action: ItemAction;
  /** The entry as this transaction left it (for `erase`, as it was when erased). */
  entry: LedgerEntry;
}

/** Changes of one transaction, kept apart from the open ledger until it is applied. */
export class Sandbox {
  private readonly items = new Map<string, SandboxItem>();

  constructor(readonly base: OpenLedgerState) {}

  /** The entry as this transaction currently sees it, read-only. */
  read(index: string): Readonly<LedgerEntry> | undefined {
    const item = this.items.get(index);
    if (item !== undefined) return item.action === 'erase' ? undefined : item.entry;
    return this.base.get(index);
  }

  exists(index: string): boolean {
    return this.read(index) !== undefined;
  }

  /**
   * A mutable copy to change; changes count only after `update` (rippled `peek` + `update`).
   * Peeking the same index twice returns the same object.
   */
  peek(index: string): LedgerEntry | undefined {
    const item = this.items.get(index);
    if (item !== undefined) return item.action === 'erase' ? undefined : item.entry;
    const stored = this.base.get(index);
    if (stored === undefined) return undefined;
    const copy = cloneEntry(stored) as LedgerEntry;
    this.items.set(index, { action: 'cache', entry: copy });
    return copy;
  }

  insert(index: string, entry: LedgerEntry): void {
    const item = this.items.get(index);
    if (item !== undefined && item.action !== 'erase') throw new Error(`ledger entry ${index} already exists`);
    if (item === undefined && this.base.get(index) !== undefined) throw new Error(`ledger entry ${index} already exists`);
    // Re-creating an entry erased earlier in the same transaction is a modification of the original.
    this.items.set(index, { action: item?.action === 'erase' ? 'modify' : 'insert', entry });
  }

  update(index: string, entry: LedgerEntry): void {
    const item = this.items.get(index);
    if (item === undefined || item.action === 'erase') throw new Error(`ledger entry ${index} must be peeked before update`);
    if (item.entry !== entry) throw new Error(`ledger entry ${index} updated with a different object than peeked`);
    if (item.action === 'cache') item.action = 'modify';
  }

  erase(index: string): void {
    const item = this.items.get(index);
    if (item === undefined || item.action === 'erase') throw new Error(`ledger entry ${index} must be peeked before erase`);
    if (item.action === 'insert') {
      this.items.delete(index);
      return;
    }
    item.action = 'erase';
  }

  /** Items in ascending index order (rippled's ApplyStateTable is a map keyed by index). */
  sortedItems(): [string, SandboxItem][] {
    return [...this.items.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  }

  /** The item recorded for an index, if this transaction touched it. */
  item(index: string): SandboxItem | undefined {
    return this.items.get(index);
  }
}
