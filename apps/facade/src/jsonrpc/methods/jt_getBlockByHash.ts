import { defineMethod, param } from '../method';
import { blockHash, fullTransactions } from '../params';
import { blockSchema } from '../../format/schemas';
import { blockCallWeight, readBlock } from './blocks';

export const jt_getBlockByHash = defineMethod({
  name: 'jt_getBlockByHash',
  summary: 'A block by its hash, with full transaction objects or only their hashes; null when the block is not stored.',
  params: [
    param('blockHash', blockHash, 'DATA, 32-byte block hash'),
    param('fullTransactions', fullTransactions, 'Boolean: true for full transaction objects, false for hashes only'),
  ],
  result: blockSchema.nullable(),
  weight: blockCallWeight,
  handler: ([ledger, full], context) => readBlock(ledger, full, context),
});
