/**
 * The devnet's server: rippled's WebSocket request/response protocol (`command`, echoed `id`,
 * `type: "response"`, `status: "success" | "error"`) over one LedgerSource, and on plain HTTP the
 * network's validator-list publisher site (`GET /vl.json`). A malformed request gets rippled's
 * error shape and never ends the connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@ledger-node/telemetry';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { envelopeErrors, errorFields, parseWsRequest, readApiVersion, readCommand, wsError, wsSuccess, type JsonObject } from '@ledger-node/rippled-api';
import type { DevnetNetwork } from '../network/network';
import type { LedgerSource } from './ledger-source';
import { methods } from './methods';
import { Subscriber } from './subscriptions';

/** Largest request accepted; the socket is closed with 1009 (message too big) beyond it. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** A subscriber that lets this much output pile up is too slow to keep. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** Where the publisher site serves the signed list. */
export const VALIDATOR_LIST_PATH = '/vl.json';

export interface DevnetWsServer {
  readonly url: string;
  /** `http://HOST:PORT/vl.json`: the publisher site. */
  readonly siteUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface WsServerOptions {
  source: LedgerSource;
  network: DevnetNetwork;
  host: string;
  port: number;
  logger: Logger;
}

/** Handles one request text and returns the response object (exported for unit tests). */
export function answer(
  text: string,
  context: { source: LedgerSource; network: DevnetNetwork; subscriber: Subscriber; startedAtMs: number; logger: Logger },
): JsonObject {
  const parsed = parseWsRequest(text);
  if ('response' in parsed) return parsed.response;
  const { request } = parsed;
  const apiVersion = readApiVersion(request);
  if (apiVersion === undefined) return wsError(request, envelopeErrors.invalidApiVersion);
  const command = readCommand(request);
  if (command === undefined) return wsError(request, envelopeErrors.missingCommand);
  const handler = Object.hasOwn(methods, command) ? methods[command] : undefined;
  if (!handler) return wsError(request, envelopeErrors.unknownCmd);
  try {
    const result = handler({ request, apiVersion, source: context.source, network: context.network, subscriber: context.subscriber, startedAtMs: context.startedAtMs });
    return wsSuccess(request, result);
  } catch (error) {
    const fields = errorFields(error);
    if (fields) return wsError(request, fields);
    context.logger.error({ err: error, command }, 'request failed');
    return wsError(request, envelopeErrors.internal);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/**
 * The publisher site: the current signed list at VALIDATOR_LIST_PATH, and at `/vl/<publisher key>`
 * as rippled serves the lists it holds (on its peer port), so that a node given only the publisher
 * key reads it from its endpoint; 404 for anything else.
 */
function serveSite(network: DevnetNetwork, request: IncomingMessage, response: ServerResponse): void {
  const path = (request.url ?? '/').split('?')[0];
  const served = path === VALIDATOR_LIST_PATH || path?.toUpperCase() === `/VL/${network.publisherKey}`;
  if ((request.method === 'GET' || request.method === 'HEAD') && served) {
    const body = JSON.stringify(network.document);
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
    return;
  }
  response.writeHead(404, { 'Content-Type': 'text/plain' });
  response.end('Not Found\n');
}

export async function startWsServer(options: WsServerOptions): Promise<DevnetWsServer> {
  const { source, network, logger } = options;
  const startedAtMs = Date.now();
  const http = createServer((request, response) => serveSite(network, request, response));
  const server = new WebSocketServer({ server: http, maxPayload: MAX_REQUEST_BYTES });
  await new Promise<void>((resolve, reject) => {
    http.once('listening', resolve);
    http.once('error', reject);
    http.listen(options.port, options.host);
  });
  http.on('error', (error) => logger.error({ err: error }, 'http server error'));
  server.on('error', (error) => logger.error({ err: error }, 'websocket server error'));

  server.on('connection', (socket: WebSocket, incoming) => {
    const peer = `${incoming.socket.remoteAddress ?? '?'}:${incoming.socket.remotePort ?? '?'}`;
    const send = (message: JsonObject) => {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        logger.warn({ peer }, 'closing a connection that does not read its messages');
        socket.terminate();
        return;
      }
      socket.send(JSON.stringify(message));
    };
    const subscriber = new Subscriber(source, network, send);
    subscriber.onPathRequests = (event, number, open) => logger.info({ peer, open }, `path request ${number} ${event}, ${open} open`);
    logger.debug({ peer }, 'client connected');
    socket.on('message', (data) => {
      send(answer(rawText(data), { source, network, subscriber, startedAtMs, logger }));
    });
    socket.on('close', () => {
      subscriber.close();
      logger.debug({ peer }, 'client disconnected');
    });
    socket.on('error', (error) => logger.warn({ err: error, peer }, 'client connection error'));
  });

  const address = http.address() as AddressInfo;
  const url = `ws://${options.host}:${address.port}`;
  return {
    url,
    siteUrl: `http://${options.host}:${address.port}${VALIDATOR_LIST_PATH}`,
    port: address.port,
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
