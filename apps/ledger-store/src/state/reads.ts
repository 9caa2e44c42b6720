/**
 * Account state reads over the versioned state (see repositories/stateObjects for the model): an
 * account's root and trust lines, and the whole state page by page.
 */
import { keylet } from '@ledger-node/chain';
import type { LedgerSelector } from '@ledger-node/contracts';
import { InvalidParams, OutOfRange } from '@ledger-node/errors';
import type { StateWindow, StoredHeader } from '../backend/records';
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
        ? 'account state is not available: the state download has not started'
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
  const accountRootBlob = await store.backend.stateObjectAt(rootKey, header.ledgerIndex, window);
  const lineKeys = await store.backend.trustLineKeys(accountId);
  const lines = await Promise.all(lineKeys.map((lineKey) => store.backend.stateObjectAt(lineKey, header.ledgerIndex, window)));
  return { accountRootBlob, trustLineBlobs: lines.filter((blob): blob is Buffer => blob !== undefined), header };
}

/** Most keys one GetStateObjects call reads (ledgerstore.proto). */
export const MAX_STATE_OBJECT_KEYS = 1000;

/** State objects by key at the selected ledger, in the order asked; undefined where no object had the key. */
export async function stateObjects(store: LedgerStore, keys: readonly Buffer[], selector: LedgerSelector | undefined): Promise<{ header: StoredHeader; blobs: (Buffer | undefined)[] }> {
  if (keys.length > MAX_STATE_OBJECT_KEYS) throw new InvalidParams(`keys holds more than ${MAX_STATE_OBJECT_KEYS} keys`, 'keys');
  keys.forEach((key, position) => {
    if (key.length !== KEY_LENGTH) throw new InvalidParams(`keys[${position}] must be ${KEY_LENGTH} bytes, got ${key.length}`, 'keys');
  });
  const { header, window } = await stateLedger(store, selector);
  const blobs = await Promise.all(keys.map((key) => store.backend.stateObjectAt(key, header.ledgerIndex, window)));
  return { header, blobs };
}

/**
 * A page of the state at `ledgerIndex`, keys after `afterKey` and, when `beforeKey` is given, below it: inside the state window, or the download's own
 * ledger before it is complete (its staged pages, which nothing else reads), so the downloader can
 * verify the root before it marks the download complete.
 */
export async function listStateObjects(store: LedgerStore, ledgerIndex: number, afterKey: Buffer, limit: number, beforeKey: Buffer = Buffer.alloc(0)) {
  if (beforeKey.length === 0) return listStatePage(store, ledgerIndex, afterKey, limit);
  if (beforeKey.length !== KEY_LENGTH) throw new InvalidParams(`before_key must be empty or ${KEY_LENGTH} bytes, got ${beforeKey.length}`, 'before_key');
  const page = await listStatePage(store, ledgerIndex, afterKey, limit);
  const inRange = page.objects.filter((object) => Buffer.compare(object.key, beforeKey) < 0);
  // A page that reaches the bound is the last: nothing after it is in range.
  return { objects: inRange, nextAfterKey: inRange.length < page.objects.length ? undefined : page.nextAfterKey };
}

async function listStatePage(store: LedgerStore, ledgerIndex: number, afterKey: Buffer, limit: number) {
  if (afterKey.length !== 0 && afterKey.length !== KEY_LENGTH) throw new InvalidParams(`after_key must be empty or ${KEY_LENGTH} bytes, got ${afterKey.length}`, 'after_key');
  if (limit > MAX_STATE_OBJECTS_PER_LIST) throw new InvalidParams(`limit must be at most ${MAX_STATE_OBJECTS_PER_LIST}, got ${limit}`, 'limit');
  const pageSize = limit === 0 ? MAX_STATE_OBJECTS_PER_LIST : limit;
  const after = afterKey.length === 0 ? undefined : afterKey;
  const download = store.stateDownload;
  if (download.ledgerIndex !== 0 && ledgerIndex === download.ledgerIndex && !download.complete) {
    const objects = await store.backend.stagedStateObjects(after, pageSize);
    return { objects, nextAfterKey: objects.length === pageSize ? objects.at(-1)!.key : undefined };
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
  return store.backend.stateObjectsAt(ledgerIndex, window, after, pageSize);
}
