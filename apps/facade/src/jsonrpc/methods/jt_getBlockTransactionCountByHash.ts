import { z } from 'zod';
import { defineMethod, param } from '../method';
import { blockHash } from '../params';
import { countTransactions } from './blocks';

export const jt_getBlockTransactionCountByHash = defineMethod({
  name: 'jt_getBlockTransactionCountByHash',
  summary: 'The number of transactions in a block given by hash; null when the block is not stored.',
  params: [param('blockHash', blockHash, 'DATA, 32-byte block hash')],
  result: z.number().int().nonnegative().nullable(),
  handler: ([ledger], context) => countTransactions(ledger, context),
});
