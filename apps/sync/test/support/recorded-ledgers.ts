/** The recorded mainnet run 11119599..11119604 (fixtures/) in the shape the upstream serves in binary. */
import { encodeLedgerHeader, type FetchedLedger, getProfile, ledgerHeaderFromJson, transactionFromLedgerJson } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';

export const recordedRun = [11119599, 11119600, 11119601, 11119602, 11119603, 11119604] as const;

export interface RecordedLedgerFile {
  ledger: Record<string, any> & { transactions: Record<string, any>[] };
  ledger_hash: string;
  ledger_index: number;
}

export function recordedLedgerFile(ledgerIndex: number): RecordedLedgerFile {
  return readFixture<RecordedLedgerFile>(`xrpl/ledgers/mainnet/${ledgerIndex}.json`);
}

/** A recorded ledger as the binary `ledger` answer carries it: header bytes, tx and meta blobs in ledger order. */
export function recordedFetchedLedger(ledgerIndex: number): FetchedLedger {
  const file = recordedLedgerFile(ledgerIndex);
  const profile = getProfile('xrpl');
  const transactions = file.ledger.transactions
    .map((tx) => ({ binary: transactionFromLedgerJson(tx, profile), txIndex: tx.metaData.TransactionIndex as number }))
    .sort((a, b) => a.txIndex - b.txIndex)
    .map(({ binary }) => ({ txBlob: Buffer.from(binary.txBlob, 'hex'), metaBlob: Buffer.from(binary.metaBlob, 'hex') }));
  return {
    ledgerIndex,
    headerBlob: encodeLedgerHeader(ledgerHeaderFromJson(file.ledger)),
    ledgerHash: file.ledger_hash,
    transactions,
  };
}
