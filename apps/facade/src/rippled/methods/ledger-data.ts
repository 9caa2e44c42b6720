/**
 * rippled `ledger_data`: the state objects of a stored ledger, paged in ascending key order with a
 * marker (the last key returned). Pages hold up to 2048 objects in binary, 256 in JSON (rippled
 * Tuning); the ledger header comes with the first page only. A `type` filter reads past the page
 * until one more matching object is seen, so the marker is given only when objects remain.
 */
import {
  entryTypeOfFilter,
  invalidField,
  isHash256,
  ledgerHeaderHex,
  ledgerHeaderJson,
  pageLimits,
  readBoolean,
  readLimit,
  type JsonObject,
} from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView, type StateEntry } from './state';

/** Objects read per scan when a type filter skips some. */
const SCAN_BATCH = 512;
/**
 * Most objects one request reads past a type filter; beyond, the page ends early with the marker
 * of the last object read (a rare type would otherwise make one request read the whole state).
 */
const MAX_SCANNED = 50_000;

export const ledgerData: RippledMethod = async ({ params, apiVersion }, context) => {
  const binary = readBoolean(params, 'binary');
  const limit = readLimit(params, binary ? pageLimits.ledgerDataBinary : pageLimits.ledgerDataJson);
  const marker = params.marker;
  if (marker !== undefined && !isHash256(marker)) throw invalidField('marker', 'valid');
  let entryType: string | undefined;
  if (params.type !== undefined) {
    entryType = entryTypeOfFilter(params.type, context.profile);
    if (!entryType) throw invalidField('type');
  }
  const resolved = await resolveLedger(params, context);
  const state = new StateView(context, resolved.header.ledgerIndex);

  const entries: StateEntry[] = [];
  let cursor = typeof marker === 'string' ? marker.toUpperCase() : undefined;
  let more = false;
  let scanned = 0;
  for (;;) {
    const batch = await state.scan({ afterKey: cursor, limit: entryType ? Math.max(limit + 1, SCAN_BATCH) : limit + 1 });
    scanned += batch.entries.length;
    for (const entry of batch.entries) {
      if (entryType && entry.json.LedgerEntryType !== entryType) {
        cursor = entry.key;
        continue;
      }
      if (entries.length === limit) {
        more = true;
        break;
      }
      entries.push(entry);
      cursor = entry.key;
    }
    if (more || !batch.more) break;
    if (scanned >= MAX_SCANNED) {
      more = true;
      break;
    }
  }

  const result: JsonObject = {
    ...ledgerFields(resolved.place),
    state: entries.map((entry) => (binary ? { data: entry.blob.toString('hex').toUpperCase(), index: entry.key } : state.rendered(entry))),
  };
  if (more && cursor !== undefined) result.marker = cursor;
  if (marker === undefined) result.ledger = binary ? { closed: true, ledger_data: ledgerHeaderHex(resolved) } : ledgerHeaderJson(resolved, apiVersion);
  return result;
};
