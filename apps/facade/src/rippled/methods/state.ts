/**
 * Point reads and key-range scans of the state at one stored ledger, for the methods that walk
 * directories (account_objects, book_offers, ledger_entry, ledger_data), through the query layer.
 */
import { keylet, type ChainProfile } from '@ledger-node/chain';
import { directoryIndexes, entryInRippledNotation, nextDirectoryPage, notationOf, type JsonObject } from '@ledger-node/rippled-api';
import type { MethodContext } from '../../jsonrpc/method';
import { hex, stateNotHeld } from './ledgers';

/** One state object: its key (uppercase hex), bytes and decoded JSON. */
export interface StateEntry {
  readonly key: string;
  readonly blob: Buffer;
  readonly json: JsonObject;
}

/** Most objects one scan call asks for (ListStateObjects answers at most 4096). */
const MAX_SCAN_PAGE = 4096;

export class StateView {
  constructor(
    private readonly context: Pick<MethodContext, 'queries' | 'profile'>,
    readonly ledgerIndex: number,
  ) {}

  private get profile(): ChainProfile {
    return this.context.profile;
  }

  entryOf(key: string, blob: Buffer): StateEntry {
    return { key, blob, json: this.profile.codec.decode(blob) };
  }

  /** An entry as an answer prints it: its JSON in rippled's notation, with its `index`. */
  rendered(entry: StateEntry): JsonObject {
    return entryInRippledNotation(entry.json, entry.key, notationOf(this.profile));
  }

  /** The objects at `keys` (uppercase hex), in the same order; undefined where none exists. */
  async read(keys: readonly string[]): Promise<Array<StateEntry | undefined>> {
    if (keys.length === 0) return [];
    try {
      const { objects } = await this.context.queries.stateObjects(
        keys.map((key) => Buffer.from(key, 'hex')),
        { selector: { $case: 'index', index: this.ledgerIndex } },
      );
      return keys.map((key, position) => {
        const blob = objects[position]?.blob;
        return blob && blob.length > 0 ? this.entryOf(key, blob) : undefined;
      });
    } catch (error) {
      return stateNotHeld(error);
    }
  }

  async readOne(key: string): Promise<StateEntry | undefined> {
    return (await this.read([key]))[0];
  }

  /**
   * Objects with keys above `afterKey` (exclusive) and below `beforeKey` (exclusive), ascending,
   * at most `limit`; `more` when others remain in that range.
   */
  async scan(range: { afterKey?: string; beforeKey?: string; limit: number }): Promise<{ entries: StateEntry[]; more: boolean }> {
    const limit = Math.min(range.limit, MAX_SCAN_PAGE - 1);
    try {
      // One more than asked tells whether others remain in the range.
      const page = await this.context.queries.listState({
        ledgerIndex: this.ledgerIndex,
        afterKey: range.afterKey === undefined ? Buffer.alloc(0) : Buffer.from(range.afterKey, 'hex'),
        beforeKey: range.beforeKey === undefined ? Buffer.alloc(0) : Buffer.from(range.beforeKey, 'hex'),
        limit: limit + 1,
      });
      const entries = page.objects.slice(0, limit).map((object) => this.entryOf(hex(object.key), object.blob));
      return { entries, more: page.objects.length > limit };
    } catch (error) {
      return stateNotHeld(error);
    }
  }

  /**
   * The pages of a directory from its root (rippled dirFirst/dirNext): each page's key and the
   * entry keys it lists, in order.
   */
  async *directoryPages(rootKey: string): AsyncGenerator<{ pageKey: string; indexes: string[] }> {
    const visited = new Set<bigint>();
    let page: bigint | undefined = 0n;
    while (page !== undefined && !visited.has(page)) {
      visited.add(page);
      const pageKey = keylet.dirPage(rootKey, page);
      const node = await this.readOne(pageKey);
      if (!node) return;
      yield { pageKey, indexes: directoryIndexes(node.json) };
      page = nextDirectoryPage(node.json);
    }
  }
}
