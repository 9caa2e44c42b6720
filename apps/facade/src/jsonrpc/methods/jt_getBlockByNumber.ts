import { defineMethod, param } from '../method';
import { blockNumberOrTag, fullTransactions } from '../params';
import { blockSchema } from '../../format/schemas';
import { blockCallWeight, readBlock } from './blocks';

export const jt_getBlockByNumber = defineMethod({
  name: 'jt_getBlockByNumber',
  summary: 'A block by number or tag, with full transaction objects or only their hashes; null when the block is not stored.',
  params: [
    param('blockNumber', blockNumberOrTag, 'QUANTITY or TAG: block number, or earliest, latest, pending, current, validated, closed'),
    param('fullTransactions', fullTransactions, 'Boolean: true for full transaction objects, false for hashes only'),
  ],
  result: blockSchema.nullable(),
  weight: blockCallWeight,
  handler: ([ledger, full], context) => readBlock(ledger, full, context),
});
