import { z } from 'zod';
import { InvalidParams, LedgerNodeError } from '@ledger-node/errors';
import { defineMethod, param } from '../method';
import { accountAddress, ledgerIndexQuantity } from '../params';
import { JSON_RPC_WS_PATH } from '../../streams/jsonrpc-ws';
import { jtCallScopes } from '../../streams/jt-session';

const options = z
  .strictObject(
    {
      fromBlock: ledgerIndexQuantity
        .optional()
        .describe(
          'QUANTITY: the first block to notify, e.g. one above the last block seen before a reconnect; every stored block from it on comes, then the new ones, none missed or repeated. ' +
            'At most -max_resume_ledgers blocks behind the newest (else -32002, data.earliest_resume_point the earliest fromBlock)',
        ),
      fullTransactions: z.boolean({ error: 'expected true or false' }).optional().describe('newBlocks: full transaction objects instead of hashes'),
      accounts: z
        .array(accountAddress, { error: 'expected an array of account addresses' })
        .max(100, 'at most 100 accounts')
        .optional()
        .describe('transactions: only the transactions affecting these accounts'),
    },
    { error: 'expected an options object {fromBlock?, fullTransactions?, accounts?}' },
  )
  .optional()
  .transform((value) => value ?? {});

/** Over the WebSocket of /v1/ws only: a subscription to new blocks or validated transactions, resumable from a block. */
export const jt_subscribe = defineMethod({
  name: 'jt_subscribe',
  summary:
    `Over the WebSocket at ${JSON_RPC_WS_PATH} only: subscribes to "newBlocks" (the block object of each new ledger) or "transactions" (the transaction object of each validated transaction, or of those affecting options.accounts) and answers the subscription id; ` +
    'notifications come as {"jsonrpc":"2.0","method":"jt_subscription","params":{"subscription","result"}}. options.fromBlock resumes: every stored block from it on, then the new ones.',
  params: [
    param('subscription', z.enum(['newBlocks', 'transactions'], { error: 'expected "newBlocks" or "transactions"' }), 'String: "newBlocks" or "transactions"'),
    param('options', options, 'Object: {fromBlock?: QUANTITY, fullTransactions?: Boolean (newBlocks), accounts?: [address] (transactions)}', { optional: true }),
  ],
  result: z.string().describe('The subscription id (0x followed by 32 hex digits)'),
  errors: ['notImplemented', 'outOfRange', 'rateLimited'],
  examples: [{ name: 'new blocks from mainnet ledger 38129 on', params: ['newBlocks', { fromBlock: '38129' }], result: '0x9cbd0b4b41e4c6a1e0d4a4ea1c1d0c2f' }],
  async handler([kind, { fromBlock, fullTransactions, accounts }]) {
    const call = jtCallScopes.getStore();
    if (!call) {
      throw new LedgerNodeError('unimplemented', `jt_subscribe needs a WebSocket connection: open ws://<rpcaddr>:<rpcport>${JSON_RPC_WS_PATH} and call it there`);
    }
    if (fromBlock === 0) throw new InvalidParams('invalid parameter 2 (options): fromBlock must be 1 or more', 'options');
    if (kind === 'newBlocks' && accounts !== undefined) throw new InvalidParams('invalid parameter 2 (options): accounts applies to "transactions" only', 'options');
    if (kind === 'transactions' && fullTransactions !== undefined) throw new InvalidParams('invalid parameter 2 (options): fullTransactions applies to "newBlocks" only', 'options');
    const { id, start } = await call.session.subscribe({ kind, fromBlock, fullTransactions, accounts });
    call.afterAnswer.push(start);
    return id;
  },
});
