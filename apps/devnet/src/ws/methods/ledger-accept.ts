/** rippled `ledger_accept` (standalone mode): closes the open ledger now. */
import { BareRpcError } from '../rpc-error';
import type { MethodHandler } from './context';

export const ledgerAccept: MethodHandler = ({ source }) => {
  // rippled answers `notStandAlone` when the server is not a standalone chain (here: replay).
  if (!source.writer) throw new BareRpcError('notStandAlone');
  source.writer.acceptLedger();
  return { ledger_current_index: source.writer.openLedgerIndex() };
};
