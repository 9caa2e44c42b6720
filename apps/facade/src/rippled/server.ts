/**
 * rippled's API on its own listener (-ws, -wsaddr, -wsport): WebSocket on any path, and HTTP
 * JSON-RPC at POST (rippled reads no path), behind the same Host/Origin guard, connection limit,
 * body limit, request scope and spans as the facade's other listeners. Each WebSocket connection
 * has its subscriptions (streams.ts) and its bounded queue (streams/connection.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { withCallScope } from '@ledger-node/grpc';
import { rpcErrors, type RpcErrorToken } from '@ledger-node/rippled-api';
import { inServerSpan, type Logger } from '@ledger-node/telemetry';
import type { CallerOf } from '../caller';
import { jsonErrorBodies, type ErrorBodyOf } from '../error-bodies';
import { answerJson } from '../json-answer';
import { requestScope } from '../request-scope';
import { requestSpans } from '../request-spans';
import { messageText, StreamConnection } from '../streams/connection';
import type { LedgerFollower } from '../streams/follower';
import { acceptUpgrades, type Upgrades } from '../streams/upgrade';
import { commandRunner, type CommandRunner } from './commands';
import { httpAnswer, parseHttpCall, parseWsCall, wsAnswer } from './envelope';
import type { RippledContext, RippledHandler } from './method';
import { serverStateOf } from './methods/server-info';
import { RippledSubscriptions, type ServerFacts, type StreamChain } from './streams';
import { ConnectionPathRequest } from './path-requests';

export interface RippledApiOptions {
  methods: Readonly<Record<string, RippledHandler>>;
  context: RippledContext;
  follower: LedgerFollower;
  chain: StreamChain;
  /** The listener's Host/Origin guard (http-guard.ts). */
  guard: Koa.Middleware;
  /** Who each request is for (caller.ts). */
  callerIdentity: CallerOf;
  /** /healthz, /readyz (and /metrics when asked), as on the other listeners. */
  probes: Koa.Middleware;
  /** Largest HTTP body and WebSocket message (-max_body_bytes). */
  maxBodyBytes: number;
  /** -ws_queue_bytes. */
  queueBytes: number;
  slowMs?: number;
  logger: Logger;
}

/** The HTTP JSON-RPC form: any POST is a call (rippled ignores the path). */
function httpRoute(runner: CommandRunner, maxBodyBytes: number): Koa.Middleware {
  const parseBody = bodyParser({
    enableTypes: ['json'],
    // rippled reads the body as JSON whatever its Content-Type says.
    extendTypes: { json: ['*/*'] },
    jsonLimit: String(maxBodyBytes),
    jsonStrict: false,
    onError: (error: Error & { status?: number }, ctx) => {
      if (error.status === 413) {
        ctx.status = 413;
        ctx.body = rippledErrorBody(ctx, 413, `request body exceeds ${maxBodyBytes} bytes (-max_body_bytes)`);
      } else {
        ctx.status = 400;
        ctx.type = 'text/plain';
        ctx.body = 'Unable to parse request: the body is not valid JSON';
      }
      ctx.state.bodyRejected = true;
    },
  });

  return async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    await parseBody(ctx, async () => {});
    if (ctx.state.bodyRejected) return;
    const parsed = parseHttpCall((ctx.request as { body?: unknown }).body);
    if ('refusal' in parsed) {
      runner.refused('badRequest', 'http');
      ctx.status = parsed.refusal.status;
      ctx.type = 'text/plain';
      ctx.body = parsed.refusal.text;
      return;
    }
    const { command, fields, apiVersion, request } = parsed.call;
    const outcome = await runner.run(command, fields, apiVersion, 'http');
    answerJson(ctx, httpAnswer(request, outcome));
  };
}

/** Anything but a POST, a probe or a WebSocket upgrade. */
const notServed: Koa.Middleware = (ctx) => {
  ctx.status = 405;
  ctx.set('Allow', 'POST');
  ctx.body = rippledErrorBody(ctx, 405, "rippled's API: POST a JSON-RPC call ({\"method\", \"params\": [{…}]}) or open a WebSocket");
};

/** rippled's token for an HTTP status this listener answers itself. */
const tokenOfStatus = (status: number): RpcErrorToken => (status === 405 ? 'notSupported' : status >= 500 ? 'internal' : 'invalidParams');

/**
 * rippled's HTTP error shape (`{"result": {error, error_code, error_message, status}}`) for the
 * statuses this listener answers itself. A malformed call keeps rippled's own plain-text 400
 * (`Unable to parse request…`, `Null method`…), which rippled's clients are written against.
 */
export const rippledErrorBody: ErrorBodyOf = (_ctx, status, message) => {
  const token = tokenOfStatus(status);
  return { result: { error: token, error_code: rpcErrors[token].code, error_message: message, status: 'error' } };
};

export interface RippledApi {
  /** The HTTP side, for the listener. */
  readonly app: Koa;
  /** Takes the listener's WebSocket upgrades. */
  attach(server: Server): Upgrades;
}

export function rippledApi(options: RippledApiOptions): RippledApi {
  const { logger } = options;
  const runner = commandRunner({ methods: options.methods, context: options.context, logger, slowMs: options.slowMs });
  const { context } = options;
  const serverFacts: ServerFacts = {
    random: randomBytes(32).toString('hex').toUpperCase(),
    async serverStatus() {
      const sync = context.syncEnabled ? await context.syncStatus.status().catch(() => undefined) : undefined;
      return serverStateOf(sync, context.syncEnabled);
    },
  };
  const app = new Koa();
  app.use(jsonErrorBodies(rippledErrorBody, logger));
  app.use(options.guard);
  app.use(requestScope(options.callerIdentity));
  app.use(options.probes);
  app.use(requestSpans(['/']));
  app.use(httpRoute(runner, options.maxBodyBytes));
  app.use(notServed);

  const attach = (server: Server) =>
    acceptUpgrades(server, app, {
      guard: options.guard,
      errorBody: rippledErrorBody,
      maxPayload: options.maxBodyBytes,
      logger,
      onConnection: (socket, request) => {
        // The client, behind a trusted proxy too (caller.ts): per-client limits count it.
        const identity = options.callerIdentity(request);
        const peer = identity.address;
        const connection = new StreamConnection(socket, peer, { api: 'rippled', queueBytes: options.queueBytes, logger });
        const subscriptions = new RippledSubscriptions(options.follower, options.chain, connection, logger, serverFacts);
        const pathRequest = new ConnectionPathRequest(context.clients.submission, (message) => connection.send(JSON.stringify(message)), logger);
        connection.onClose(() => {
          subscriptions.close();
          pathRequest.close();
        });
        const scope = { signal: connection.signal, ...identity };
        logger.debug({ peer }, 'rippled API: WebSocket client connected');
        socket.on('message', (data) => {
          const text = messageText(data);
          void connection.serve(() =>
            withCallScope(scope, () =>
              inServerSpan('WS rippled', {}, { 'network.transport': 'websocket' }, async () => {
                const parsed = parseWsCall(text);
                if ('answer' in parsed) {
                  runner.refused(String(parsed.answer.error), 'ws');
                  connection.send(JSON.stringify(parsed.answer));
                  return;
                }
                const { command, fields, apiVersion, request } = parsed.call;
                const paths = { run: (params: typeof fields, version: typeof apiVersion) => pathRequest.run(params, version, request.id) };
                const outcome = await runner.run(command, fields, apiVersion, 'ws', subscriptions, paths);
                connection.send(wsAnswer(request, outcome));
                // Stream messages begin once the answer is on its way.
                if ('result' in outcome) outcome.start?.();
              }),
            ),
          );
        });
      },
    });

  return { app, attach };
}
