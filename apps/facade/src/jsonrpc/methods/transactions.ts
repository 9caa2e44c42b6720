import type { LedgerSelector, TransactionRecord } from '@ledger-node/contracts';
import type { MethodContext } from '../method';
import { RenderedJson } from '../protocol';
import { transactionObject } from '../../format/records';

/**
 * A stored transaction's answer by hash (`kind` names which: its object or its receipt), rendered
 * once and then served from the answer cache: a stored transaction is validated and never changes.
 * Null when it is not stored, which is never kept (it may be stored in the next ledger).
 */
export async function answerByHash<R>(kind: string, hash: Buffer, context: MethodContext, render: (record: TransactionRecord) => R): Promise<RenderedJson<R> | null> {
  const key = `${kind}:${hash.toString('hex')}`;
  const cached = context.answers.get(key);
  if (cached !== undefined) return new RenderedJson(cached);
  const record = await context.reads.transaction.load(hash);
  if (!record) return null;
  const answer = RenderedJson.of(render(record));
  context.answers.set(key, answer.json);
  return answer;
}

/** The transaction at a position of a stored ledger, as the SPEC's transaction object, or null. */
export async function transactionByIndex(ledger: LedgerSelector, txIndex: number, context: MethodContext) {
  const { transaction } = await context.clients.ledgerStore.getTransactionByIndex({ ledger, txIndex });
  return transaction ? transactionObject(transaction, context.profile) : null;
}
