import type { LedgerSelector } from '@ledger-node/contracts';
import { TxDetail } from '@ledger-node/contracts';
import type { MethodContext } from '../method';
import { blockObject } from '../../format/records';

/** A stored ledger as the SPEC's block object, or null when it is not stored. */
export async function readBlock(ledger: LedgerSelector, full: boolean, { queries, profile }: MethodContext) {
  const record = await queries.ledger(ledger, full ? TxDetail.FULL : TxDetail.HASHES);
  return record ? blockObject(record, full, profile) : null;
}

/** The number of transactions in a stored ledger, or null when it is not stored. */
export async function countTransactions(ledger: LedgerSelector, { queries }: MethodContext) {
  const record = await queries.ledger(ledger, TxDetail.NONE);
  return record ? record.transactionCount : null;
}

/** What a call for a block with full transactions counts for in a batch's -max_batch: its answer is that much larger. */
export const FULL_BLOCK_WEIGHT = 10;

/** The batch weight of jt_getBlockBy*: heavy when `fullTransactions` is true. */
export const blockCallWeight = (params: unknown[]): number => (params[1] === true ? FULL_BLOCK_WEIGHT : 1);
