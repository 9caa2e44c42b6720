/**
 * Account state reads over the versioned state (see repositories/stateObjects for the model): an
 * account's root and trust lines, objects by key, and the state (or one key range of it) page by page.
 */
import { keylet } from '@ledger-node/chain';
import type { LedgerSelector, ListStateObjectsRequest } from '@ledger-node/contracts';
import { InvalidParams, OutOfRange } from '@ledger-node/errors';
import type { KeyedObject, StateWindow, StoredHeader } from '../backend/records';
import type { LedgerStore } from '../store';

const ACCOUNT_ID_LENGTH = 20;
const KEY_LENGTH = 32;
/** ListStateObjects answers at most this many objects per call (ledgerstore.proto). */
export const MAX_STATE_OBJECTS_PER_LIST = 4096;

export function requireAccountId(accountId: Buffer, field = 'account_id'): void {
  if (accountId.length !== ACCOUNT_ID_LENGTH) throw new InvalidParams(`${field} must be ${ACCOUNT_ID_LENGTH} bytes, got ${accountId.length}`, field);
}

function rangeText(range: { first: number; last: number } | undefined): string {
  return range ? `${range.first}-${range.last}` : 'none';
}

/** The stored header a selector names, and the state window it lies in; OutOfRange otherwise. */
export async function stateLedger(store: LedgerStore, selector: LedgerSelector | undefined): Promise<{ header: StoredHeader; window: StateWindow }> {
  const header = await store.resolve(selector, 'ledger');
  const window = store.stateWindow();
  const stateRange = window && { first: window.low, last: window.high };
  const data = { state_range: stateRange ?? null, complete_ranges: [...store.ranges] };
  if (!window) {
    const download = store.stateDownload;
    throw new OutOfRange(
      download.ledgerIndex === 0
        ? store.stateSetAside
          ? 'account state is not available: it was set aside with a stored ledger the network contradicts, and is downloaded again'
          : 'account state is not available: the state download has not started'
        : `account state is not available until the state download at ledger ${download.ledgerIndex} completes (${download.objectCount} objects so far)`,
      { ...data, state_download_ledger_index: download.ledgerIndex },
    );
  }
  if (!header) {
    throw new OutOfRange(`the ledger asked for is not stored; account state is stored for ledgers ${rangeText(stateRange)}`, data);
  }
  if (header.ledgerIndex < window.low || header.ledgerIndex > window.high) {
    throw new OutOfRange(`ledger ${header.ledgerIndex} is outside the ledgers whose account state is stored (${rangeText(stateRange)})`, {
      ...data,
      ledger_index: header.ledgerIndex,
    });
  }
  return { header, window };
}

export interface AccountState {
  accountRootBlob?: Buffer;
  trustLineBlobs: Buffer[];
  header: StoredHeader;
}

/** The account's root object and the trust lines it is a side of, at the selected ledger. */
export async function accountState(store: LedgerStore, accountId: Buffer, selector: LedgerSelector | undefined): Promise<AccountState> {
  requireAccountId(accountId);
  const { header, window } = await stateLedger(store, selector);
  const rootKey = Buffer.from(keylet.account(accountId), 'hex');
  const lineKeys = await store.backend.trustLineKeys(accountId);
  const [accountRootBlob, ...lines] = await store.backend.stateObjectsByKey([rootKey, ...lineKeys], header.ledgerIndex, window);
  return { accountRootBlob, trustLineBlobs: lines.filter((blob): blob is Buffer => blob !== undefined), header };
}

/** Most keys one GetStateObjects call reads (ledgerstore.proto). */
export const MAX_STATE_OBJECT_KEYS = 1000;

/**
 * State objects by key at the selected ledger, in the order asked (a key asked twice is answered
 * twice); undefined where no object has the key there. Refused as an account state read is.
 */
export async function stateObjects(store: LedgerStore, keys: readonly Buffer[], selector: LedgerSelector | undefined): Promise<{ header: StoredHeader; blobs: (Buffer | undefined)[] }> {
  if (keys.length > MAX_STATE_OBJECT_KEYS) throw new InvalidParams(`keys holds ${keys.length} keys; at most ${MAX_STATE_OBJECT_KEYS} per call`, 'keys');
  keys.forEach((key, position) => {
    if (key.length !== KEY_LENGTH) throw new InvalidParams(`keys[${position}] must be ${KEY_LENGTH} bytes, got ${key.length}`, `keys[${position}]`);
  });
  const { header, window } = await stateLedger(store, selector);
  return { header, blobs: await store.backend.stateObjectsByKey(keys, header.ledgerIndex, window) };
}

/** One page of a state listing, and the ledger it lists. */
export interface StatePage {
  objects: KeyedObject[];
  /** The key to continue after; undefined when no key of the range is left. */
  nextAfterKey: Buffer | undefined;
  ledgerIndex: number;
  /** Empty when the ledger's header is not stored. */
  ledgerHash: Buffer;
}

/**
 * A page of the state at a ledger, keys after `afterKey` and below `beforeKey` (each empty for no
 * bound), at most `limit` (0 for the most). A ledger named by selector is resolved and refused as
 * GetStateObjects does. One named by index is listed inside the state window, or at the download's
 * own ledger before it is complete (its staged pages, which nothing else reads), so the downloader
 * can verify the root before it marks the download complete.
 */
export async function listStateObjects(
  store: LedgerStore,
  ledger: number | LedgerSelector,
  afterKey: Buffer,
  limit: number,
  beforeKey: Buffer = Buffer.alloc(0),
): Promise<StatePage> {
  if (afterKey.length !== 0 && afterKey.length !== KEY_LENGTH) throw new InvalidParams(`after_key must be empty or ${KEY_LENGTH} bytes, got ${afterKey.length}`, 'after_key');
  if (beforeKey.length !== 0 && beforeKey.length !== KEY_LENGTH) throw new InvalidParams(`before_key must be empty or ${KEY_LENGTH} bytes, got ${beforeKey.length}`, 'before_key');
  if (limit > MAX_STATE_OBJECTS_PER_LIST) throw new InvalidParams(`limit must be at most ${MAX_STATE_OBJECTS_PER_LIST}, got ${limit}`, 'limit');
  const pageSize = limit === 0 ? MAX_STATE_OBJECTS_PER_LIST : limit;
  const after = afterKey.length === 0 ? undefined : afterKey;
  const before = beforeKey.length === 0 ? undefined : beforeKey;

  if (typeof ledger !== 'number') {
    const { header, window } = await stateLedger(store, ledger);
    const page = await store.backend.stateObjectsAt(header.ledgerIndex, window, after, pageSize, before);
    return { ...page, ledgerIndex: header.ledgerIndex, ledgerHash: header.ledgerHash };
  }

  const ledgerIndex = ledger;
  const hashOf = async () => (await store.backend.header(ledgerIndex))?.ledgerHash ?? Buffer.alloc(0);
  const download = store.stateDownload;
  if (download.ledgerIndex !== 0 && ledgerIndex === download.ledgerIndex && !download.complete) {
    const [objects, ledgerHash] = await Promise.all([store.backend.stagedStateObjects(after, pageSize, before), hashOf()]);
    return { objects, nextAfterKey: objects.length === pageSize ? objects.at(-1)!.key : undefined, ledgerIndex, ledgerHash };
  }
  const window = store.stateWindow();
  if (!window || ledgerIndex < window.low || ledgerIndex > window.high) {
    const stateRange = store.stateRangeAnswered();
    throw new OutOfRange(`ledger ${ledgerIndex} is outside the ledgers whose account state is stored (${rangeText(stateRange)})`, {
      ledger_index: ledgerIndex,
      state_range: stateRange ?? null,
      state_download_ledger_index: download.ledgerIndex,
    });
  }
  const [page, ledgerHash] = await Promise.all([store.backend.stateObjectsAt(ledgerIndex, window, after, pageSize, before), hashOf()]);
  return { ...page, ledgerIndex, ledgerHash };
}

/** The ledger a ListStateObjects request names: by `ledger`, or by `ledger_index` (never both). */
export function listedLedger(request: Pick<ListStateObjectsRequest, 'ledgerIndex' | 'ledger'>): number | LedgerSelector {
  if (request.ledger === undefined) return request.ledgerIndex;
  if (request.ledgerIndex !== 0) throw new InvalidParams(`name the ledger by ledger_index or by ledger, not both (ledger_index is ${request.ledgerIndex})`, 'ledger');
  return request.ledger;
}
