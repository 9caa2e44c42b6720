import type { LedgerSelector } from '@ledger-node/contracts';
import { TxDetail } from '@ledger-node/contracts';
import type { MethodContext } from '../method';
import { blockObject } from '../../format/records';

/** A stored ledger as the SPEC's block object, or null when it is not stored. */
export async function readBlock(ledger: LedgerSelector, full: boolean, { clients, profile }: MethodContext) {
  const { ledger: record } = await clients.ledgerStore.getLedger({ ledger, txDetail: full ? TxDetail.FULL : TxDetail.HASHES });
  return record ? blockObject(record, full, profile) : null;
}

/** The number of transactions in a stored ledger, or null when it is not stored. */
export async function countTransactions(ledger: LedgerSelector, { clients }: MethodContext) {
  const { ledger: record } = await clients.ledgerStore.getLedger({ ledger, txDetail: TxDetail.NONE });
  return record ? record.transactionCount : null;
}
