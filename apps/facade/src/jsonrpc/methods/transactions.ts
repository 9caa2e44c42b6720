import type { LedgerSelector, TransactionRecord } from '@ledger-node/contracts';
import type { MethodContext } from '../method';
import type { RenderedJson } from '../../queries/rendered-json';
import { transactionObject } from '../../format/records';

/** The answer cache's key of a transaction's answer of `kind` (answerByHash, and the hot set that renders them ahead). */
export function answerKey(kind: string, hash: Buffer): string {
  return `${kind}:${hash.toString('hex')}`;
}

/**
 * A stored transaction's answer by hash (`kind` names which: its object or its receipt), rendered
 * once and then served from the answer cache: a stored transaction is validated and never changes.
 * Null when it is not stored.
 */
export async function answerByHash<R>(kind: string, hash: Buffer, { queries }: MethodContext, render: (record: TransactionRecord) => R): Promise<RenderedJson<R> | null> {
  const answer = await queries.kept(answerKey(kind, hash), async () => {
    const record = await queries.transaction(hash);
    return record && render(record);
  });
  return answer ?? null;
}

/** The transaction at a position of a stored ledger, as the SPEC's transaction object, or null. */
export async function transactionByIndex(ledger: LedgerSelector, txIndex: number, { queries, profile }: MethodContext) {
  const transaction = await queries.transactionAt(ledger, txIndex);
  return transaction ? transactionObject(transaction, profile) : null;
}
