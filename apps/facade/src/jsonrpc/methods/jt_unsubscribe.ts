import { z } from 'zod';
import { LedgerNodeError } from '@ledger-node/errors';
import { defineMethod, param } from '../method';
import { JSON_RPC_WS_PATH } from '../../streams/jsonrpc-ws';
import { jtCallScopes } from '../../streams/jt-session';

/** Over the WebSocket of /v1/ws only: ends one of the connection's subscriptions. */
export const jt_unsubscribe = defineMethod({
  name: 'jt_unsubscribe',
  summary: `Over the WebSocket at ${JSON_RPC_WS_PATH} only: ends a subscription of this connection; true when it ended, false when the connection has no subscription of that id.`,
  params: [param('subscriptionId', z.string({ error: 'expected a subscription id' }).max(100, 'expected a subscription id'), 'String: the id jt_subscribe answered')],
  result: z.boolean(),
  errors: ['notImplemented'],
  examples: [{ name: 'a subscription of this connection', params: ['0x9cbd0b4b41e4c6a1e0d4a4ea1c1d0c2f'], result: true }],
  async handler([id]) {
    const call = jtCallScopes.getStore();
    if (!call) {
      throw new LedgerNodeError('unimplemented', `jt_unsubscribe needs a WebSocket connection: open ws://<rpcaddr>:<rpcport>${JSON_RPC_WS_PATH} and call it there`);
    }
    return call.session.unsubscribe(id);
  },
});
