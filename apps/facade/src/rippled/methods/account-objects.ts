/**
 * rippled `account_objects`: the objects an account owns, read by walking its owner directory at a
 * stored ledger and reading each listed object (AccountObjects.cpp): `type` filter, `limit` (10 to
 * 400, 200 by default), `deletion_blockers_only`, and rippled's marker "<directory page key>,<next
 * entry key>".
 */
import { keylet } from '@ledger-node/chain';
import { entryTypeOfFilter, invalidField, ownableEntryType, pageLimits, readBoolean, readLimit, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { readAccountAt } from './accounts';
import { ledgerFields } from './ledgers';
import { StateView } from './state';

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
  const marker = readMarker(params.marker);
  const { account, accountId, ledger } = await readAccountAt(params, context);
  const state = new StateView(context, ledger.ledgerIndex);

  const rootKey = keylet.ownerDir(accountId);
  let pageKey = marker?.pageKey ?? rootKey;
  let skipUntil = marker?.entryKey;
  const objects: JsonObject[] = [];
  let nextMarker: string | undefined;
  const visited = new Set<string>();
  while (nextMarker === undefined && !visited.has(pageKey)) {
    visited.add(pageKey);
    const page = await state.readOne(pageKey);
    if (!page) {
      if (marker && pageKey === marker.pageKey) throw invalidField('marker');
      break;
    }
    let indexes = Array.isArray(page.json.Indexes) ? (page.json.Indexes as unknown[]).filter((index): index is string => typeof index === 'string').map((index) => index.toUpperCase()) : [];
    if (skipUntil !== undefined) {
      const at = indexes.indexOf(skipUntil);
      if (at < 0) throw invalidField('marker');
      indexes = indexes.slice(at);
      skipUntil = undefined;
    }
    const entries = await state.read(indexes);
    for (const [position, entry] of entries.entries()) {
      if (!entry) continue;
      const type = String(entry.json.LedgerEntryType);
      if (entryType !== undefined && type !== entryType) continue;
      if (blockersOnly && !isDeletionBlocker(type, profile.trustLineEntryType)) continue;
      if (objects.length === limit) {
        nextMarker = `${pageKey},${indexes[position]}`;
        break;
      }
      objects.push(state.rendered(entry));
    }
    if (nextMarker !== undefined) break;
    const next = typeof page.json.IndexNext === 'string' && /^[0-9A-Fa-f]{1,16}$/.test(page.json.IndexNext) ? BigInt(`0x${page.json.IndexNext}`) : 0n;
    if (next === 0n) break;
    pageKey = keylet.dirPage(rootKey, next);
  }
  const result: JsonObject = { account, account_objects: objects, ...ledgerFields(ledger) };
  if (params.limit !== undefined) result.limit = limit;
  if (nextMarker !== undefined) result.marker = nextMarker;
  return result;
};
