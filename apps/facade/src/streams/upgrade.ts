/**
 * WebSocket upgrades on a facade listener (the `ws` package in noServer mode): each upgrade
 * request passes the listener's own Host/Origin guard (http-guard.ts) before the handshake — a
 * page of another site opening a WebSocket to a loopback node is refused like its HTTP requests —
 * and its messages are bounded by -max_body_bytes (larger ones close the connection with 1009).
 * Connections count against the listener's -max_connections like any other.
 */
import { ServerResponse, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ErrorBodyOf } from '../error-bodies';
import type { Logger } from '@ledger-node/telemetry';
import { CloseCode } from './connection';

export interface UpgradeOptions {
  /** The only path upgraded; any path when absent (rippled upgrades on any). */
  path?: string;
  /** The listener's guard, run on a Koa context of the upgrade request. */
  guard: Koa.Middleware;
  /** Largest message accepted (-max_body_bytes). */
  maxPayload: number;
  /** The listener's JSON error shape (error-bodies.ts) for a refusal the upgrade words itself. */
  errorBody: ErrorBodyOf;
  logger: Logger;
  onConnection(socket: WebSocket, request: IncomingMessage, ctx: Koa.Context): void;
}

export interface Upgrades {
  /** Closes every connection (1001, going away) and stops upgrading. */
  close(): Promise<void>;
}

/** Answers an upgrade request with a plain HTTP error and ends the connection. */
function refuseUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

export function acceptUpgrades(server: Server, app: Koa, options: UpgradeOptions): Upgrades {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload, perMessageDeflate: false });
  let stopped = false;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Errors of a socket not yet upgraded (a client gone mid-handshake) end it and nothing else.
    socket.on('error', () => socket.destroy());
    void upgrade(request, socket, head).catch((error: unknown) => {
      options.logger.error({ err: error }, 'WebSocket upgrade failed');
      socket.destroy();
    });
  };

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const ctx = app.createContext(request, new ServerResponse(request));
    if (stopped) return refuseUpgrade(socket, 503, options.errorBody(ctx, 503, 'the server is stopping'));
    if (options.path !== undefined && ctx.path !== options.path) {
      return refuseUpgrade(socket, 404, options.errorBody(ctx, 404, `no WebSocket endpoint at ${ctx.path.slice(0, 200)}: connect to ${options.path}`));
    }
    let admitted = false;
    await options.guard(ctx, async () => {
      admitted = true;
    });
    if (!admitted) return refuseUpgrade(socket, ctx.status, ctx.body ?? 'refused');
    sockets.handleUpgrade(request, socket, head, (webSocket) => options.onConnection(webSocket, request, ctx));
  };

  server.on('upgrade', onUpgrade);
  return {
    close: async () => {
      stopped = true;
      server.off('upgrade', onUpgrade);
      for (const client of sockets.clients) client.close(CloseCode.goingAway, 'server shutting down');
      await new Promise<void>((resolve) => {
        // A client that does not answer the close is cut off.
        const cutOff = setTimeout(() => {
          for (const client of sockets.clients) client.terminate();
        }, 1_000);
        sockets.close(() => {
          clearTimeout(cutOff);
          resolve();
        });
        if (sockets.clients.size === 0) clearTimeout(cutOff);
      });
    },
  };
}
