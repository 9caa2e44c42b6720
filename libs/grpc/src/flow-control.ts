/**
 * HTTP/2 flow-control windows for calls that carry megabytes (a PutLedgers batch of 64 ledgers is
 * about 4 MB; a GetLedger of a full ledger can be as much).
 *
 * HTTP/2 lets a sender put at most the receiver's window (Node's default: 64 KiB) on the wire
 * before the receiver's WINDOW_UPDATE comes back, and a receiver sends one only when its event
 * loop reads the data. Between two busy processes a 4 MB message then crawls, one 64 KiB round
 * trip at a time (about two thirds of a PutLedgers call's time at 64 KiB). A client widens its own
 * window with grpc-js's `grpc-node.flow_control_window`; a server has no such option in grpc-js
 * (grpc/grpc-node#3058), so `widenServerWindows` sets the same on the server's HTTP/2 sessions.
 */
import type { Http2Server, Http2Session, ServerOptions } from 'node:http2';
import type { Server } from '@grpc/grpc-js';

/** Stream and connection receive windows: a whole batch in flight without waiting on the receiver. */
export const RECEIVE_WINDOW_BYTES = 16 * 1024 * 1024;

/** The grpc-js client option (channel argument) that sets a client's receive windows. */
export const clientWindowOptions = { 'grpc-node.flow_control_window': RECEIVE_WINDOW_BYTES } as const;

/** The grpc-js Server fields this module sets (grpc-js 1.14: the options its HTTP/2 servers are created with, and those servers). */
interface ServerInternals {
  commonServerOptions?: ServerOptions;
  http2Servers?: Map<Http2Server, unknown>;
}

function internalsOf(server: Server): Required<ServerInternals> {
  const internals = server as unknown as ServerInternals;
  if (internals.commonServerOptions === undefined || !(internals.http2Servers instanceof Map)) {
    throw new Error('@grpc/grpc-js no longer has the server fields the HTTP/2 windows are set through (libs/grpc flow-control.ts): update it for this version');
  }
  return internals as Required<ServerInternals>;
}

/**
 * Announces RECEIVE_WINDOW_BYTES as the stream window of every session the server will accept
 * (call before binding), and returns what widens each session's connection window (call after
 * binding: the HTTP/2 servers exist then).
 */
export function widenServerWindows(server: Server): { afterBind(): void } {
  const internals = internalsOf(server);
  internals.commonServerOptions.settings = { ...internals.commonServerOptions.settings, initialWindowSize: RECEIVE_WINDOW_BYTES };
  return {
    afterBind() {
      for (const http2Server of internals.http2Servers.keys()) {
        http2Server.on('session', (session: Http2Session) => session.setLocalWindowSize(RECEIVE_WINDOW_BYTES));
      }
    },
  };
}
