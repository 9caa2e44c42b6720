import { z } from 'zod';
import { defineMethod, param } from '../method';
import { blockHash } from '../params';
import { countTransactions } from './blocks';
import { ledger38129 } from '../../format/examples';

export const jt_getBlockTransactionCountByHash = defineMethod({
  name: 'jt_getBlockTransactionCountByHash',
  summary: 'The number of transactions in a block given by hash; null when the block is not stored.',
  params: [param('blockHash', blockHash, 'DATA, 32-byte block hash')],
  result: z.number().int().nonnegative().nullable(),
  errors: [],
  examples: [{ name: 'mainnet ledger 38129', params: [ledger38129.hash], result: 1 }],
  handler: ([ledger], context) => countTransactions(ledger, context),
});
