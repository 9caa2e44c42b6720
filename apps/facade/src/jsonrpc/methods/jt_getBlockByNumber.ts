import { defineMethod, param } from '../method';
import { blockNumberOrTag, fullTransactions } from '../params';
import { blockSchema } from '../../format/schemas';
import { blockCallWeight, readBlock } from './blocks';
import { rpcExamples } from '../../format/examples';

export const jt_getBlockByNumber = defineMethod({
  name: 'jt_getBlockByNumber',
  summary: 'A block by number or tag, with full transaction objects or only their hashes; null when the block is not stored.',
  params: [
    param('blockNumber', blockNumberOrTag, 'QUANTITY or TAG: block number, or earliest, latest, pending, current, validated, closed'),
    param('fullTransactions', fullTransactions, 'Boolean: true for full transaction objects, false for hashes only'),
  ],
  result: blockSchema.nullable(),
  weight: blockCallWeight,
  errors: [],
  examples: [{ name: 'mainnet ledger 38129 with transaction hashes', params: ['38129', false], result: rpcExamples.block }],
  handler: ([ledger, full], context) => readBlock(ledger, full, context),
});
