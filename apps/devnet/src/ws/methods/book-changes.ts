/**
 * rippled `book_changes`: what a closed ledger's transactions traded, per order book, from their
 * metadata (libs/rippled-api computes it for the devnet and the node alike). A request that names
 * no ledger reads the validated one, as Clio does.
 */
import { bookChanges as computeBookChanges, RpcError } from '@ledger-node/rippled-api';
import { resolveLedger } from '../params';
import type { MethodHandler } from './context';

export const bookChanges: MethodHandler = ({ request, source }) => {
  const ref = resolveLedger(request, source, 'validated');
  // The open ledger has no transaction tree yet: its changes are read once it closes.
  if (ref.kind === 'open') throw new RpcError('notSupported', 'book_changes reads closed ledgers; this one is still open.');
  const ledger = ref.ledger;
  return computeBookChanges(
    { ledgerIndex: ledger.header.ledgerIndex, ledgerHash: ledger.hash, closeTime: ledger.header.closeTime, validated: true },
    ledger.transactions.map((tx) => ({ hash: tx.hash, txJson: tx.txJson, metaJson: tx.metaJson })),
  );
};
