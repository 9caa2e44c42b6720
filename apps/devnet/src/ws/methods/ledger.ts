/** rippled `ledger`: a ledger's header, optionally its transactions, in JSON or binary form. */
import { inTreeOrder, ledgerHeaderHex, ledgerHeaderJson, ledgerTransactionJson, placeOf, readBoolean, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import { resolveLedger } from '../params';
import { DEVNET_RENDER_STYLE, rendered, type MethodHandler } from './context';

export const ledger: MethodHandler = ({ request, source, apiVersion }) => {
  const binary = readBoolean(request, 'binary');
  const expand = readBoolean(request, 'expand');
  const withTransactions = readBoolean(request, 'transactions');
  if (readBoolean(request, 'accounts') || readBoolean(request, 'full')) {
    throw new RpcError('notSupported', 'State dumps are served by ledger_data.');
  }
  const ref = resolveLedger(request, source);
  if (ref.kind === 'open') {
    // rippled fillJson: an open ledger shows only its index and parent (closed: false).
    const parent = source.validatedLedger();
    const open: JsonObject = binary
      ? { closed: false }
      : { closed: false, ledger_index: apiVersion > 1 ? ref.ledgerIndex : String(ref.ledgerIndex), parent_hash: parent?.hash };
    if (withTransactions) open.transactions = [];
    return { ledger: open, ledger_current_index: ref.ledgerIndex, validated: false };
  }
  const closed = ref.ledger;
  const header: JsonObject = binary ? { closed: true, ledger_data: ledgerHeaderHex(closed) } : ledgerHeaderJson(closed, apiVersion);
  if (withTransactions) {
    const place = placeOf(closed);
    header.transactions = inTreeOrder(closed.transactions, (tx) => tx.hash).map((tx) => ledgerTransactionJson(place, rendered(tx, source.profile), { apiVersion, expand, binary, ...DEVNET_RENDER_STYLE }));
  }
  return { ledger: header, ledger_hash: closed.hash, ledger_index: closed.header.ledgerIndex, validated: true };
};

export const ledgerClosed: MethodHandler = ({ source }) => {
  const closed = source.validatedLedger();
  if (!closed) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return { ledger_hash: closed.hash, ledger_index: closed.header.ledgerIndex };
};

export const ledgerCurrent: MethodHandler = ({ source }) => {
  const openLedgerIndex = source.writer?.openLedgerIndex();
  if (openLedgerIndex !== undefined) return { ledger_current_index: openLedgerIndex };
  // Recorded ledgers have no open ledger: the next index after the newest one held.
  const closed = source.validatedLedger();
  if (!closed) throw new RpcError('noCurrent');
  return { ledger_current_index: closed.header.ledgerIndex + 1 };
};
