/**
 * rippled `account_objects`: the objects an account owns, read by walking its owner directory at a
 * stored ledger and reading each listed object (AccountObjects.cpp): `type` filter, `limit` (10 to
 * 400, 200 by default), `deletion_blockers_only`, and rippled's marker "<directory page key>,<next
 * entry key>".
 */
import { keylet } from '@ledger-node/chain';
import { directoryIndexes, entryTypeOfFilter, invalidField, nextDirectoryPage, ownableEntryType, pageLimits, readBoolean, readLimit, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { readAccountAt } from './accounts';
import { ledgerFields } from './ledgers';
import { StateView, type StateEntry } from './state';

/** Entry types that keep an account from being deleted (rippled AccountDelete's blockers). */
function isDeletionBlocker(entryType: string, trustLineEntryType: string): boolean {
  return (
    entryType === trustLineEntryType ||
    ['Check', 'Escrow', 'NFTokenPage', 'PayChannel', 'Bridge', 'XChainOwnedClaimID', 'XChainOwnedCreateAccountClaimID', 'MPToken', 'MPTokenIssuance'].includes(entryType)
  );
}

function readMarker(marker: unknown): { pageKey: string; entryKey: string } | undefined {
  if (marker === undefined) return undefined;
  if (typeof marker !== 'string') throw invalidField('marker', 'string');
  const match = /^([0-9A-Fa-f]{64}),([0-9A-Fa-f]{64})$/.exec(marker);
  if (!match) throw invalidField('marker');
  return { pageKey: match[1].toUpperCase(), entryKey: match[2].toUpperCase() };
}

export const accountObjects: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  let entryType: string | undefined;
  if (params.type !== undefined) {
    entryType = entryTypeOfFilter(params.type, profile);
    if (!entryType || !ownableEntryType(entryType)) throw invalidField('type');
  }
  const limit = readLimit(params, pageLimits.accountObjects);
  const blockersOnly = readBoolean(params, 'deletion_blockers_only');
  const { account, accountId, ledger } = await readAccountAt(params, context);
  const state = new StateView(context, ledger.ledgerIndex);
  const { entries, marker } = await ownedEntries(state, accountId, params.marker, limit, (type) => {
    if (entryType !== undefined && type !== entryType) return false;
    return !blockersOnly || isDeletionBlocker(type, profile.trustLineEntryType);
  });
  const result: JsonObject = { account, account_objects: entries.map((entry) => state.rendered(entry)), ...ledgerFields(ledger) };
  if (params.limit !== undefined) result.limit = limit;
  if (marker !== undefined) result.marker = marker;
  return result;
};

/**
 * Up to `limit` entries of the account's owner directory whose type `wanted` takes, from the
 * marker on (rippled's "<directory page key>,<next entry key>"), walking its pages in order; and
 * the marker to continue from when more follow.
 */
export async function ownedEntries(
  state: StateView,
  accountId: Uint8Array,
  markerParam: unknown,
  limit: number,
  wanted: (entryType: string) => boolean,
): Promise<{ entries: StateEntry[]; marker: string | undefined }> {
  const marker = readMarker(markerParam);
  const rootKey = keylet.ownerDir(accountId);
  let pageKey = marker?.pageKey ?? rootKey;
  let skipUntil = marker?.entryKey;
  const entries: StateEntry[] = [];
  const visited = new Set<string>();
  while (!visited.has(pageKey)) {
    visited.add(pageKey);
    const page = await state.readOne(pageKey);
    if (!page) {
      if (marker && pageKey === marker.pageKey) throw invalidField('marker');
      break;
    }
    let indexes = directoryIndexes(page.json);
    if (skipUntil !== undefined) {
      const at = indexes.indexOf(skipUntil);
      if (at < 0) throw invalidField('marker');
      indexes = indexes.slice(at);
      skipUntil = undefined;
    }
    for (const [position, entry] of (await state.read(indexes)).entries()) {
      if (!entry || !wanted(String(entry.json.LedgerEntryType))) continue;
      if (entries.length === limit) return { entries, marker: `${pageKey},${indexes[position]}` };
      entries.push(entry);
    }
    const next = nextDirectoryPage(page.json);
    if (next === undefined) break;
    pageKey = keylet.dirPage(rootKey, next);
  }
  return { entries, marker: undefined };
}
