/** The store format version: recorded in every store, checked before anything is read or written. */
import type { Bookkeeping, LedgerBackend } from '../backend/backend';

/**
 * The layout of the stored keys and values (storage/buckets.ts and the repositories). Every store
 * records it; a store of another version is refused at open, before anything is read or written.
 * A change of layout raises it.
 */
export const STORE_FORMAT_VERSION = 1;

/** Refuses a store of another format; a reader also one that records none (its writer never opened it, or the replica has not copied it yet). */
export function checkFormat(location: string, bookkeeping: Bookkeeping): void {
  const version = bookkeeping.formatVersion;
  if (version === STORE_FORMAT_VERSION) return;
  if (version === undefined) {
    throw new Error(`${location} records no store format version: its writer (-store) has not opened it yet, or this replica has not copied it yet`);
  }
  throw new Error(
    `${location} is in store format ${Number.isNaN(version) ? '(unreadable)' : version}, and this ledger-node reads and writes format ${STORE_FORMAT_VERSION} only: ` +
      'run the ledger-node release that wrote it, or move it aside and sync again',
  );
}

/** As checkFormat, for the writer: a store that records no version (new, or written before versions were recorded) is format 1, and recorded so. */
export async function requireFormat(backend: LedgerBackend, bookkeeping: Bookkeeping): Promise<void> {
  if (bookkeeping.formatVersion === undefined) await backend.recordFormatVersion(STORE_FORMAT_VERSION);
  else checkFormat(backend.location, bookkeeping);
}
