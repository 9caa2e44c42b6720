/** rippled `ledger_entry`: one state object, by `index` or one of the typed selectors. */
import { readBoolean, readEntrySelection, RpcError } from '@ledger-node/rippled-api';
import { ledgerFields, resolveLedger, stateLedgerIndex } from '../params';
import { renderedEntry, type MethodHandler } from './context';

export const ledgerEntry: MethodHandler = ({ request, source, apiVersion }) => {
  const binary = readBoolean(request, 'binary');
  const selection = readEntrySelection(request, source.profile, apiVersion);
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');
  const entry = source.stateEntry(selection.key, ledgerIndex);
  if (!entry) throw new RpcError('entryNotFound');
  if (selection.expectedType !== undefined && entry.json.LedgerEntryType !== selection.expectedType) throw new RpcError('unexpectedLedgerType');
  return binary
    ? { index: entry.index, ...ledgerFields(ref), node_binary: entry.blob }
    : { index: entry.index, ...ledgerFields(ref), node: renderedEntry(entry, source.profile) };
};
