/**
 * rippled `ledger_entry`: one state object of a stored ledger, by `index` or a typed selector
 * (account_root, ripple_state, offer, directory, check, escrow, deposit_preauth, ticket, …; the
 * shared reader derives the key), in JSON or binary. An object of another type than the selector
 * names is `unexpectedLedgerType`, as rippled answers.
 */
import { readBoolean, readEntrySelection, RpcError } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

export const ledgerEntry: RippledMethod = async ({ params, apiVersion }, context) => {
  const binary = readBoolean(params, 'binary');
  const selection = readEntrySelection(params, context.profile, apiVersion);
  const resolved = await resolveLedger(params, context);
  const view = new StateView(context, resolved.header.ledgerIndex);
  const entry = await view.readOne(selection.key);
  if (!entry) throw new RpcError('entryNotFound');
  if (selection.expectedType !== undefined && entry.json.LedgerEntryType !== selection.expectedType) throw new RpcError('unexpectedLedgerType');
  return binary
    ? { index: entry.key, ...ledgerFields(resolved.place), node_binary: entry.blob.toString('hex').toUpperCase() }
    : { index: entry.key, ...ledgerFields(resolved.place), node: view.rendered(entry) };
};
