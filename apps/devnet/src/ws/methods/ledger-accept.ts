/** rippled `ledger_accept` (standalone mode): closes the open ledger now. */
import { BareRpcError } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

export const ledgerAccept: MethodHandler = ({ source }) => {
  // rippled answers `notStandAlone` when the server is not a standalone chain (here: replay).
  if (!source.writer) throw new BareRpcError('notStandAlone');
  source.writer.acceptLedger();
  return { ledger_current_index: source.writer.openLedgerIndex() };
};
