import { z } from 'zod';
import { defineMethod, param } from '../method';
import { blockNumberOrTag } from '../params';
import { countTransactions } from './blocks';

export const jt_getBlockTransactionCountByNumber = defineMethod({
  name: 'jt_getBlockTransactionCountByNumber',
  summary: 'The number of transactions in a block given by number or tag; null when the block is not stored.',
  params: [param('blockNumber', blockNumberOrTag, 'QUANTITY or TAG: block number, or earliest, latest, pending, current, validated, closed')],
  result: z.number().int().nonnegative().nullable(),
  errors: [],
  examples: [{ name: 'mainnet ledger 38129, by its number in hex', params: ['0x94f1'], result: 1 }],
  handler: ([ledger], context) => countTransactions(ledger, context),
});
