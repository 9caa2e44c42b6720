/**
 * Owner directories, rippled `ApplyView::dirInsert` / `dirRemove`: a root page (whose index is
 * the directory's) plus numbered pages of at most 32 entries, linked by IndexNext and
 * IndexPrevious; the root's IndexPrevious points at the last page. Within a page entries are
 * kept sorted (the SortedDirectories rule); removal keeps the relative order.
 */
import { DIRECTORY_MAX_PAGES, DIRECTORY_PAGE_SIZE } from './protocol';
import type { LedgerKeys } from './keys';
import type { LedgerEntry, Sandbox } from './state';

/** UInt64 fields are 16 uppercase hex digits in JSON. */
export function u64Hex(value: bigint): string {
  return value.toString(16).toUpperCase().padStart(16, '0');
}

export function u64Of(value: unknown): bigint {
  return typeof value === 'string' && value !== '' ? BigInt(`0x${value}`) : 0n;
}

/**
 * Adds `entryIndex` to the directory rooted at `rootIndex`; returns the page it went to, or
 * undefined when the directory is full (rippled answers tecDIR_FULL).
 */
export function dirInsert(
  sandbox: Sandbox,
  keys: LedgerKeys,
  rootIndex: string,
  entryIndex: string,
  describe: (page: LedgerEntry) => void,
  /** rippled `dirAppend` (order books): entries stay in arrival order, the page is not sorted. */
  append = false,
): bigint | undefined {
  const root = sandbox.peek(rootIndex);
  if (root === undefined) {
    const created: LedgerEntry = { LedgerEntryType: 'DirectoryNode', Flags: 0, RootIndex: rootIndex, Indexes: [entryIndex] };
    describe(created);
    sandbox.insert(rootIndex, created);
    return 0n;
  }
  let pageNumber = u64Of(root.IndexPrevious);
  let pageIndex = rootIndex;
  let page = root;
  if (pageNumber !== 0n) {
    pageIndex = keys.dirPage(rootIndex, pageNumber);
    const last = sandbox.peek(pageIndex);
    if (last === undefined) throw new Error('directory chain: root back-pointer broken');
    page = last;
  }
  const indexes = [...(page.Indexes as string[])];
  if (indexes.length < DIRECTORY_PAGE_SIZE) {
    if (indexes.includes(entryIndex)) throw new Error('directory: double insertion');
    if (append) {
      indexes.push(entryIndex);
    } else {
      // rippled sorts the page before inserting: it may be a legacy, unsorted page.
      indexes.sort();
      let position = 0;
      while (position < indexes.length && indexes[position]! < entryIndex) position++;
      indexes.splice(position, 0, entryIndex);
    }
    page.Indexes = indexes;
    sandbox.update(pageIndex, page);
    return pageNumber;
  }
  pageNumber += 1n;
  if (pageNumber >= DIRECTORY_MAX_PAGES) return undefined;
  // Link the new page at the end of the chain before creating it.
  page.IndexNext = u64Hex(pageNumber);
  sandbox.update(pageIndex, page);
  root.IndexPrevious = u64Hex(pageNumber);
  sandbox.update(rootIndex, root);
  const created: LedgerEntry = { LedgerEntryType: 'DirectoryNode', Flags: 0, RootIndex: rootIndex, Indexes: [entryIndex] };
  // rippled leaves IndexPrevious out when it is the default, 0.
  if (pageNumber !== 1n) created.IndexPrevious = u64Hex(pageNumber - 1n);
  describe(created);
  sandbox.insert(keys.dirPage(rootIndex, pageNumber), created);
  return pageNumber;
}

/** Removes `entryIndex` from page `pageNumber`; returns false when it is not there. */
export function dirRemove(
  sandbox: Sandbox,
  keys: LedgerKeys,
  rootIndex: string,
  pageNumber: bigint,
  entryIndex: string,
  keepRoot: boolean,
): boolean {
  const pageIndex = keys.dirPage(rootIndex, pageNumber);
  const page = sandbox.peek(pageIndex);
  if (page === undefined) return false;
  const indexes = (page.Indexes as string[]).filter((index) => index !== entryIndex);
  if (indexes.length === (page.Indexes as string[]).length) return false;
  page.Indexes = indexes;
  sandbox.update(pageIndex, page);
  if (indexes.length > 0) return true;

  let previousPage = u64Of(page.IndexPrevious);
  let nextPage = u64Of(page.IndexNext);
  if (pageNumber === 0n) {
    // The root is deleted only with the whole directory. An empty last page left by older code goes first.
    if (nextPage === previousPage && nextPage !== 0n) {
      const lastIndex = keys.dirPage(rootIndex, nextPage);
      const last = sandbox.peek(lastIndex);
      if (last === undefined) throw new Error('directory chain: forward link broken');
      if ((last.Indexes as string[]).length === 0) {
        page.IndexNext = u64Hex(0n);
        page.IndexPrevious = u64Hex(0n);
        sandbox.update(pageIndex, page);
        sandbox.erase(lastIndex);
        nextPage = 0n;
        previousPage = 0n;
      }
    }
    if (!keepRoot && nextPage === 0n && previousPage === 0n) sandbox.erase(pageIndex);
    return true;
  }

  const previousIndex = keys.dirPage(rootIndex, previousPage);
  const previous = sandbox.peek(previousIndex);
  if (previous === undefined) throw new Error('directory chain: forward link broken');
  previous.IndexNext = u64Hex(nextPage);
  sandbox.update(previousIndex, previous);
  const followingIndex = keys.dirPage(rootIndex, nextPage);
  const following = sandbox.peek(followingIndex);
  if (following === undefined) throw new Error('directory chain: reverse link broken');
  following.IndexPrevious = u64Hex(previousPage);
  sandbox.update(followingIndex, following);
  sandbox.erase(pageIndex);

  // If the next page is now the last one and empty, it goes too.
  if (nextPage !== 0n && u64Of(following.IndexNext) === 0n && (following.Indexes as string[]).length === 0) {
    sandbox.erase(followingIndex);
    previous.IndexNext = u64Hex(0n);
    sandbox.update(previousIndex, previous);
    const root = sandbox.peek(rootIndex);
    if (root === undefined) throw new Error('directory chain: root link broken');
    root.IndexPrevious = u64Hex(previousPage);
    sandbox.update(rootIndex, root);
    nextPage = 0n;
  }
  if (!keepRoot && nextPage === 0n && previousPage === 0n && (previous.Indexes as string[]).length === 0) {
    sandbox.erase(previousIndex);
  }
  return true;
}

/** Every entry index of a directory, page by page. */
export function dirEntries(read: (index: string) => Readonly<LedgerEntry> | undefined, keys: LedgerKeys, rootIndex: string): string[] {
  const entries: string[] = [];
  let pageNumber = 0n;
  for (let guard = 0n; guard < DIRECTORY_MAX_PAGES; guard++) {
    const page = read(keys.dirPage(rootIndex, pageNumber));
    if (page === undefined) break;
    entries.push(...(page.Indexes as string[]));
    pageNumber = u64Of(page.IndexNext);
    if (pageNumber === 0n) break;
  }
  return entries;
}
