import { defineMethod, param } from '../method';
import { blockHash, fullTransactions } from '../params';
import { blockSchema } from '../../format/schemas';
import { blockCallWeight, readBlock } from './blocks';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_getBlockByHash = defineMethod({
  name: 'jt_getBlockByHash',
  summary: 'A block by its hash, with full transaction objects or only their hashes; null when the block is not stored.',
  params: [
    param('blockHash', blockHash, 'DATA, 32-byte block hash'),
    param('fullTransactions', fullTransactions, 'Boolean: true for full transaction objects, false for hashes only'),
  ],
  result: blockSchema.nullable(),
  weight: blockCallWeight,
  errors: [],
  examples: [{ name: 'mainnet ledger 38129 with transaction hashes', params: [ledger38129.hash, false], result: rpcExamples.block }],
  handler: ([ledger, full], context) => readBlock(ledger, full, context),
});
