/** rippled `account_lines`: an account's trust lines, read through its owner directory. */
import { keylet } from '@ledger-node/chain';
import { directoryIndexes, invalidField, isHash256, lineView, nextDirectoryPage, readAccount, readLimit, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { LedgerSource } from '../ledger-source';
import { ledgerFields, resolveLedger, stateLedgerIndex } from '../params';
import type { MethodHandler } from './context';

/** rippled Tuning::accountLines: 200 lines by default, at most 400. */
const LINES_PAGE = { fallback: 200, min: 1, max: 400 };

/** The entries an owner directory lists, page after page (rippled dirFirst/dirNext). */
export function* ownerDirectoryEntries(source: LedgerSource, accountId: Uint8Array, ledgerIndex: number): Generator<string> {
  const rootIndex = keylet.ownerDir(accountId);
  const visitedPages = new Set<bigint>();
  let page = 0n;
  for (;;) {
    visitedPages.add(page);
    const node = source.stateEntry(keylet.dirPage(rootIndex, page), ledgerIndex);
    if (!node) return;
    yield* directoryIndexes(node.json);
    const nextPage = nextDirectoryPage(node.json);
    if (nextPage === undefined || visitedPages.has(nextPage)) return;
    page = nextPage;
  }
}

export const accountLines: MethodHandler = ({ request, source }) => {
  const account = readAccount(request, source.profile.codec);
  const peer = request.peer === undefined ? undefined : readAccount(request, source.profile.codec, 'peer');
  const limit = readLimit(request, LINES_PAGE);
  const marker = request.marker;
  if (marker !== undefined && !isHash256(marker)) throw invalidField('marker');
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');
  const { codec, trustLineEntryType, noRippleWireName } = source.profile;
  const accountId = codec.decodeAccountId(account);
  if (!source.stateEntry(keylet.account(accountId), ledgerIndex)) {
    throw new RpcError('actNotFound', undefined, { account, ...ledgerFields(ref) });
  }

  const lines: JsonObject[] = [];
  const resumeAfter = typeof marker === 'string' ? marker.toUpperCase() : undefined;
  let markerSeen = resumeAfter === undefined;
  let nextMarker: string | undefined;
  let lastLineIndex: string | undefined;
  for (const entryIndex of ownerDirectoryEntries(source, accountId, ledgerIndex)) {
    if (!markerSeen) {
      markerSeen = entryIndex === resumeAfter;
      continue;
    }
    const entry = source.stateEntry(entryIndex, ledgerIndex);
    if (!entry || entry.json.LedgerEntryType !== trustLineEntryType) continue;
    const line = lineView(entry.json, account, noRippleWireName);
    if (!line || (peer !== undefined && line.account !== peer)) continue;
    if (lines.length === limit) {
      nextMarker = lastLineIndex;
      break;
    }
    lines.push(line);
    lastLineIndex = entryIndex;
  }
  if (!markerSeen) throw invalidField('marker');
  const result: JsonObject = { account, lines, ...ledgerFields(ref) };
  if (request.limit !== undefined) result.limit = limit;
  if (nextMarker) result.marker = nextMarker;
  return result;
};
