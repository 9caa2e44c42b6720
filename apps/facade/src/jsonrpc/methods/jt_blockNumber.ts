import { z } from 'zod';
import { defineMethod } from '../method';
import { ledger38129 } from '../../format/examples';

/** The highest ledger stored locally (0 before the first one). */
export const jt_blockNumber = defineMethod({
  name: 'jt_blockNumber',
  summary: 'The current block number the node runs at: the highest stored ledger index, 0 when none is stored yet.',
  params: [],
  result: z.number().int().nonnegative(),
  errors: [],
  examples: [{ name: 'mainnet ledger 38129 stored last', params: [], result: ledger38129.index }],
  handler: (_params, { queries }) => queries.highestLedgerIndex(),
});
