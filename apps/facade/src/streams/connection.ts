/**
 * One WebSocket client of a streaming API (rippled's on -wsport, JSON-RPC's /v1/ws on -rpcport):
 * its outgoing messages go through one bounded queue, the socket's own send buffer. A client that
 * leaves more than -ws_queue_bytes unread is closed with 1008 and the reason, as rippled closes a
 * client past its send_queue_limit ("client is too slow"), and the close is counted. Requests run
 * a few at a time: past that the socket is not read, so a client that floods requests is slowed by
 * TCP instead of growing a queue here.
 */
import { setMaxListeners } from 'node:events';
import type { RawData, WebSocket } from 'ws';
import { counter, gauge, observedGauges, type Logger } from '@ledger-node/telemetry';

/** Which API a connection speaks (a metric label). */
export type StreamApi = 'rippled' | 'jsonrpc';

export const STREAM_APIS: readonly StreamApi[] = ['rippled', 'jsonrpc'];

/** WebSocket close codes (RFC 6455 §7.4.1). */
export const CloseCode = {
  goingAway: 1001,
  policyViolation: 1008,
} as const;

/** Requests of one connection answered at once; more wait unread in the socket. */
export const MAX_REQUESTS_IN_FLIGHT = 16;

/** A client whose last close frame went unread this long after the close is cut off. */
const CLOSE_GRACE_MS = 15_000;

const streamMetrics = {
  open: gauge('ledger_node_stream_connections', 'Open WebSocket connections by API', ['api']),
  slowClosed: counter(
    'ledger_node_stream_slow_disconnects_total',
    'WebSocket clients closed because they left more than -ws_queue_bytes of messages unread, by API',
    ['api'],
  ),
  messages: counter('ledger_node_stream_messages_total', 'Stream messages sent to WebSocket clients by API', ['api']),
  dropped: counter(
    'ledger_node_stream_dropped_messages_total',
    'Stream messages not sent, by API: the client was closed for leaving more than -ws_queue_bytes unread, or was gone',
    ['api'],
  ),
  subscribers: gauge(
    'ledger_node_stream_subscribers',
    'Subscriptions open, by API and stream (rippled: ledger, transactions, transactions_proposed, rt_transactions, server, accounts; jsonrpc: newBlocks, transactions)',
    ['api', 'stream'],
  ),
};

// Each API's series from the start, so that rate() sees the first of each.
for (const api of STREAM_APIS) for (const metric of [streamMetrics.messages, streamMetrics.dropped, streamMetrics.slowClosed]) metric.inc({ api }, 0);

/** The open connections, whose queues the queued gauges sum at each scrape. */
const openConnections = new Set<StreamConnection>();

function queuedByApi(read: (connection: StreamConnection) => number): [{ api: StreamApi }, number][] {
  const sums = new Map<StreamApi, number>(STREAM_APIS.map((api) => [api, 0]));
  for (const connection of openConnections) sums.set(connection.api, sums.get(connection.api)! + read(connection));
  return [...sums].map(([api, sum]) => [{ api }, sum]);
}

observedGauges('ledger_node_stream_queued_messages', 'Messages handed to WebSocket clients and not yet written to the network, by API', ['api'], () =>
  queuedByApi((connection) => connection.unsentMessages),
);
observedGauges('ledger_node_stream_queued_bytes', 'Bytes of messages handed to WebSocket clients and not yet written to the network, by API (each client at most -ws_queue_bytes)', ['api'], () =>
  queuedByApi((connection) => connection.unsentBytes),
);

/** One subscription of `stream` more (1) or fewer (-1) on `api` (ledger_node_stream_subscribers). */
export function countSubscribers(api: StreamApi, stream: string, change: 1 | -1): void {
  streamMetrics.subscribers.inc({ api, stream }, change);
}

export interface ConnectionOptions {
  api: StreamApi;
  /** Most bytes waiting unsent (-ws_queue_bytes). */
  queueBytes: number;
  logger: Logger;
}

/** The text of a WebSocket message, whatever frames it came in. */
export function messageText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export class StreamConnection {
  private readonly abort = new AbortController();
  private readonly drainWaiters = new Set<() => void>();
  private readonly closeListeners = new Set<() => void>();
  private inFlight = 0;
  /** Messages handed to the socket whose write has not completed. */
  private unsent = 0;
  private paused = false;
  private closing = false;
  /** Below this many unsent bytes a reader that waits (drained) goes on. */
  private readonly lowWaterBytes: number;

  constructor(
    readonly socket: WebSocket,
    readonly peer: string,
    private readonly options: ConnectionOptions,
  ) {
    this.lowWaterBytes = Math.floor(options.queueBytes / 4);
    setMaxListeners(0, this.abort.signal);
    streamMetrics.open.inc({ api: options.api });
    openConnections.add(this);
    socket.once('close', () => {
      streamMetrics.open.dec({ api: options.api });
      openConnections.delete(this);
      this.closing = true;
      this.abort.abort();
      this.wakeDrainWaiters();
      for (const listener of this.closeListeners) listener();
      this.closeListeners.clear();
    });
    socket.on('error', (error) => options.logger.debug({ err: error, peer }, 'WebSocket client connection error'));
  }

  /** Aborted once the connection is closed: the work done for it stops. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get isOpen(): boolean {
    return !this.closing && this.socket.readyState === this.socket.OPEN;
  }

  get api(): StreamApi {
    return this.options.api;
  }

  /** Bytes handed to the socket and not yet written to the network. */
  get unsentBytes(): number {
    return this.socket.bufferedAmount;
  }

  /** Messages handed to the socket and not yet written to the network. */
  get unsentMessages(): number {
    return this.unsent;
  }

  onClose(listener: () => void): void {
    if (this.closing) listener();
    else this.closeListeners.add(listener);
  }

  /**
   * Sends one message (JSON text); `stream` marks a stream message rather than an answer. False when
   * the connection is closed or was just closed for leaving too much unread.
   */
  send(text: string, stream = false): boolean {
    if (!this.isOpen) return this.dropped(stream);
    const bytes = Buffer.byteLength(text);
    if (exceedsQueue(this.unsentBytes, bytes, this.options.queueBytes)) {
      this.closeTooSlow();
      return this.dropped(stream);
    }
    this.unsent++;
    this.socket.send(text, () => {
      this.unsent--;
      this.wakeDrainWaiters();
    });
    if (stream) streamMetrics.messages.inc({ api: this.options.api });
    return true;
  }

  /** A message not sent: counted when it was a stream message (an answer to a client that is gone is nobody's loss). */
  private dropped(stream: boolean): false {
    if (stream) streamMetrics.dropped.inc({ api: this.options.api });
    return false;
  }

  /** Resolves once at most a quarter of the queue is unsent (or the connection closed): a replay waits so, never filling the queue. */
  drained(): Promise<void> {
    if (!this.isOpen || this.unsentBytes <= this.lowWaterBytes) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!this.isOpen || this.unsentBytes <= this.lowWaterBytes) {
          this.drainWaiters.delete(check);
          resolve();
        }
      };
      this.drainWaiters.add(check);
    });
  }

  /**
   * Runs the work for one request; past MAX_REQUESTS_IN_FLIGHT the socket is not read until one
   * ends. The work's errors are its own to answer: one that escapes is logged, never thrown.
   */
  async serve(work: () => Promise<void>): Promise<void> {
    this.inFlight++;
    if (this.inFlight >= MAX_REQUESTS_IN_FLIGHT && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    try {
      await work();
    } catch (error) {
      this.options.logger.error({ err: error, peer: this.peer }, 'WebSocket request failed');
    } finally {
      this.inFlight--;
      if (this.paused && this.inFlight < MAX_REQUESTS_IN_FLIGHT) {
        this.paused = false;
        this.socket.resume();
      }
    }
  }

  /** Closes with a code and reason (at most 123 bytes), cutting the connection off if the client does not answer. */
  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    this.wakeDrainWaiters();
    this.socket.close(code, reason);
    const cutOff = setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS);
    cutOff.unref();
    this.socket.once('close', () => clearTimeout(cutOff));
  }

  private closeTooSlow(): void {
    const reason = slowClientReason(this.options.queueBytes);
    streamMetrics.slowClosed.inc({ api: this.options.api });
    this.options.logger.warn({ peer: this.peer, unsentBytes: this.unsentBytes, api: this.options.api }, `closing a WebSocket client: ${reason}`);
    this.close(CloseCode.policyViolation, reason);
  }

  private wakeDrainWaiters(): void {
    for (const check of [...this.drainWaiters]) check();
  }
}

/** Whether a message of `bytes` would take the unsent bytes past the limit (one message alone always fits an empty queue). */
export function exceedsQueue(unsentBytes: number, bytes: number, limitBytes: number): boolean {
  return unsentBytes > 0 && unsentBytes + bytes > limitBytes;
}

/** The close reason a too-slow client reads (a close reason holds at most 123 bytes). */
export function slowClientReason(limitBytes: number): string {
  return `client too slow: more than ${limitBytes} bytes of messages unread (-ws_queue_bytes)`;
}
