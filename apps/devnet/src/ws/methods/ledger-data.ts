/** rippled `ledger_data`: the state objects of a ledger, paged in ascending index order. */
import { entryTypeOfFilter, invalidField, isHash256, ledgerHeaderHex, ledgerHeaderJson, readBoolean, readLimit, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { StateEntry } from '../../engine/types';
import { ledgerFields, resolveLedger, stateLedgerIndex } from '../params';
import { renderedEntry, type MethodHandler } from './context';

/** rippled Tuning: binary pages hold up to 2048 objects, JSON pages up to 256. */
const BINARY_PAGE = { fallback: 2048, min: 1, max: 2048 };
const JSON_PAGE = { fallback: 256, min: 1, max: 256 };

export const ledgerData: MethodHandler = ({ request, source, apiVersion }) => {
  const binary = readBoolean(request, 'binary');
  const limit = readLimit(request, binary ? BINARY_PAGE : JSON_PAGE);
  const marker = request.marker;
  if (marker !== undefined && !isHash256(marker)) throw invalidField('marker', 'valid');
  let entryType: string | undefined;
  if (request.type !== undefined) {
    entryType = entryTypeOfFilter(request.type, source.profile);
    if (!entryType) throw invalidField('type');
  }
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');

  const entries: StateEntry[] = [];
  let cursor = typeof marker === 'string' ? marker.toUpperCase() : undefined;
  let more = false;
  // Reads past the page until one more matching object is seen, so the marker is only given when
  // objects remain (a type filter may skip many objects).
  const batchSize = Math.max(limit, 64);
  while (!more) {
    const batch = source.stateEntries(ledgerIndex, cursor, batchSize);
    for (const entry of batch) {
      if (entryType && entry.json.LedgerEntryType !== entryType) {
        cursor = entry.index;
        continue;
      }
      if (entries.length === limit) {
        more = true;
        break;
      }
      entries.push(entry);
      cursor = entry.index;
    }
    if (batch.length < batchSize) break;
  }

  const result: JsonObject = {
    ...ledgerFields(ref),
    state: entries.map((entry) => (binary ? { data: entry.blob, index: entry.index } : renderedEntry(entry, source.profile))),
  };
  if (more) result.marker = entries.at(-1)!.index;
  // rippled returns the ledger header with the first page only.
  if (marker === undefined && ref.kind === 'closed') {
    result.ledger = binary ? { closed: true, ledger_data: ledgerHeaderHex(ref.ledger) } : ledgerHeaderJson(ref.ledger, apiVersion);
  }
  return result;
};
