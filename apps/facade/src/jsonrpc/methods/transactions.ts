import type { LedgerSelector, TransactionRecord } from '@ledger-node/contracts';
import type { MethodContext } from '../method';
import { receiptObject, transactionObject } from '../../format/records';

export async function transactionByHash(hash: Buffer, context: MethodContext): Promise<TransactionRecord | undefined> {
  return (await context.clients.ledgerStore.getTransaction({ hash })).transaction;
}

/** The transaction at a position of a stored ledger, as the SPEC's transaction object, or null. */
export async function transactionByIndex(ledger: LedgerSelector, txIndex: number, context: MethodContext) {
  const { transaction } = await context.clients.ledgerStore.getTransactionByIndex({ ledger, txIndex });
  return transaction ? transactionObject(transaction, context.profile) : null;
}

export const asTransaction = (record: TransactionRecord | undefined, context: MethodContext) =>
  record ? transactionObject(record, context.profile) : null;

export const asReceipt = (record: TransactionRecord | undefined, context: MethodContext) =>
  record ? receiptObject(record, context.profile) : null;
