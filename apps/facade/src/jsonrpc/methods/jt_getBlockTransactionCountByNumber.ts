import { z } from 'zod';
import { defineMethod, param } from '../method';
import { blockNumberOrTag } from '../params';
import { countTransactions } from './blocks';

export const jt_getBlockTransactionCountByNumber = defineMethod({
  name: 'jt_getBlockTransactionCountByNumber',
  summary: 'The number of transactions in a block given by number or tag; null when the block is not stored.',
  params: [param('blockNumber', blockNumberOrTag, 'QUANTITY or TAG: block number, or earliest, latest, pending, current, validated, closed')],
  result: z.number().int().nonnegative().nullable(),
  handler: ([ledger], context) => countTransactions(ledger, context),
});
