/**
 * JSON-RPC 2.0 over WebSocket at /v1/ws on the -rpc listener: each message is a call or a batch,
 * answered by the same Dispatcher as POST /v1/jsonrpc (every jt_* method, its limits, spans and
 * metrics, the signing policy judged on the upgrade request), plus the connection's
 * subscriptions (jt_subscribe / jt_unsubscribe, jt-session.ts).
 */
import type { Server } from 'node:http';
import type Koa from 'koa';
import type { ChainProfile } from '@ledger-node/chain';
import { withCallScope } from '@ledger-node/grpc';
import { inServerSpan, type Logger } from '@ledger-node/telemetry';
import type { CallerContext, Dispatcher } from '../jsonrpc/dispatcher';
import { jsonRpcErrorBody } from '../jsonrpc/route';
import { errorResponse, responseJson, RpcCode } from '../jsonrpc/protocol';
import type { CallerOf } from '../caller';
import { messageText, StreamConnection } from './connection';
import type { LedgerFollower } from './follower';
import { jtCallScopes, JtStreamSession } from './jt-session';
import { acceptUpgrades, type Upgrades } from './upgrade';

export const JSON_RPC_WS_PATH = '/v1/ws';

export interface JsonRpcWsOptions {
  dispatcher: Dispatcher;
  /** Who may sign: judged once per connection, on its upgrade request. */
  callerOf(ctx: Koa.Context): CallerContext;
  /** Who the connection's calls are for (caller.ts). */
  callerIdentity: CallerOf;
  follower: LedgerFollower;
  profile: ChainProfile;
  guard: Koa.Middleware;
  /** Largest message (-max_body_bytes). */
  maxPayload: number;
  /** -ws_queue_bytes. */
  queueBytes: number;
  logger: Logger;
}

/** The answer to a message (JSON text), undefined when only notifications came. */
export async function answerMessage(text: string, dispatcher: Dispatcher, caller: CallerContext): Promise<string | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return responseJson(errorResponse(null, { code: RpcCode.parseError, message: 'parse error: the message is not valid JSON' }));
  }
  return dispatcher.handle(body, caller);
}

export function attachJsonRpcWebSocket(server: Server, app: Koa, options: JsonRpcWsOptions): Upgrades {
  const { logger } = options;
  return acceptUpgrades(server, app, {
    path: JSON_RPC_WS_PATH,
    guard: options.guard,
    errorBody: jsonRpcErrorBody,
    maxPayload: options.maxPayload,
    logger,
    onConnection: (socket, request, ctx) => {
      // The client, behind a trusted proxy too (caller.ts): per-client limits count it.
      const identity = options.callerIdentity(request);
      const caller = options.callerOf(ctx);
      const connection = new StreamConnection(socket, identity.address, { api: 'jsonrpc', queueBytes: options.queueBytes, logger });
      const session = new JtStreamSession(options.follower, options.profile, connection, logger);
      connection.onClose(() => session.close());
      const scope = { signal: connection.signal, ...identity };
      socket.on('message', (data) => {
        const text = messageText(data);
        void connection.serve(() =>
          withCallScope(scope, () => {
            const call = { session, afterAnswer: [] as (() => void)[] };
            return jtCallScopes.run(call, () =>
              inServerSpan(`WS ${JSON_RPC_WS_PATH}`, {}, { 'network.transport': 'websocket' }, async () => {
                const answer = await answerMessage(text, options.dispatcher, caller);
                if (answer !== undefined) connection.send(answer);
                // Notifications begin once the answer naming their subscription is on its way.
                if (connection.isOpen) for (const start of call.afterAnswer) start();
              }),
            );
          }),
        );
      });
    },
  });
}
