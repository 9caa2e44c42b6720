/**
 * path_find requests relayed as rippled keeps them: one per upstream connection (rippled InfoSub
 * holds one path request), each on a connection of its own, its `create` answer and then every
 * asynchronous update the upstream sends (`type: "path_find"`) handed to the caller, until the
 * caller goes away, the upstream connection ends, or the request reaches its lifetime. Then the
 * request is closed upstream and its connection closed. At most `maxOpen` are open at once; one
 * more is refused at once (rippled's `tooBusy` at the facade).
 */
import { on, EventEmitter } from 'node:events';
import { InvalidParams, RateLimited, UpstreamUnavailable } from '@ledger-node/errors';
import { MalformedUpstreamMessage, UpstreamRequestError, type ConnectionEvents, type ForwardedParams } from '@ledger-node/upstream';
import { errorFieldsOf, forwardedParams } from './forwarder';

/** One upstream connection of a path request (an UpstreamClient of its own). */
export interface PathConnection {
  request(command: 'path_find', params: ForwardedParams, options?: { timeoutMs?: number }): Promise<Record<string, unknown>>;
  close(): void;
}

export interface PathFinderLimits {
  /** Path requests open at once (each holds an upstream connection). */
  maxOpen: number;
  /** How long a request stays open; then it is closed as if its caller had gone. */
  lifetimeMs: number;
  /** Deadline of the upstream's answer to create (and to close). */
  timeoutMs: number;
  /** The largest message handed on, in bytes of its JSON. */
  maxMessageBytes: number;
}

export const DEFAULT_PATH_FINDER_LIMITS: PathFinderLimits = { maxOpen: 16, lifetimeMs: 10 * 60_000, timeoutMs: 10_000, maxMessageBytes: 1024 * 1024 };

/** A message of a path request: the answer to create (an error answer ends the request), then each update. */
export interface PathMessage {
  message: Record<string, unknown>;
  error: boolean;
}

export class PathFinder {
  private openCount = 0;

  constructor(
    /** Opens a connection of its own to the upstream, its stream messages and its end told to `events`. */
    private readonly connect: (events: ConnectionEvents) => PathConnection,
    private readonly limits: PathFinderLimits = DEFAULT_PATH_FINDER_LIMITS,
  ) {}

  /** Path requests open now. */
  get open(): number {
    return this.openCount;
  }

  /**
   * Opens the path request `paramsJson` (a path_find create) and yields its messages until
   * `signal` aborts, the upstream connection ends (UpstreamUnavailable) or its lifetime passes.
   */
  async *find(paramsJson: string, apiVersion: number, signal: AbortSignal): AsyncGenerator<PathMessage> {
    const params = forwardedParams(paramsJson, apiVersion);
    if (params.subcommand !== 'create') throw new InvalidParams("FindPaths opens a path request: subcommand must be 'create'", 'subcommand');
    if (this.openCount >= this.limits.maxOpen) throw new RateLimited(`${this.limits.maxOpen} path requests are open already`, { path_requests: this.limits.maxOpen });
    this.openCount++;
    const events = new EventEmitter();
    let ended: string | undefined;
    const connection = this.connect({
      onStreamMessage: (message) => {
        if (message.type === 'path_find') events.emit('update', message);
      },
      onClose: (reason) => {
        ended = reason;
        events.emit('end');
      },
    });
    try {
      let created: Record<string, unknown>;
      try {
        created = await connection.request('path_find', params, { timeoutMs: this.limits.timeoutMs });
      } catch (error) {
        if (error instanceof UpstreamRequestError) {
          yield { message: errorFieldsOf(error), error: true };
          return;
        }
        if (error instanceof MalformedUpstreamMessage) throw new UpstreamUnavailable(`the upstream's path_find answer is malformed: ${error.message}`);
        throw error;
      }
      yield { message: this.checked(created), error: false };
      const lifetime = AbortSignal.timeout(this.limits.lifetimeMs);
      try {
        for await (const [update] of on(events, 'update', { signal: AbortSignal.any([signal, lifetime]), close: ['end'] })) {
          yield { message: this.checked(update as Record<string, unknown>), error: false };
        }
      } catch (error) {
        if (!(error instanceof Error && error.name === 'AbortError')) throw error;
        return;
      }
      // The upstream connection ended: the request is gone with it.
      throw new UpstreamUnavailable(`the upstream connection of the path request closed: ${ended ?? 'closed'}`);
    } finally {
      this.openCount--;
      // rippled closes a connection's request with it; closing it first tells the upstream at once.
      if (ended === undefined) await connection.request('path_find', { subcommand: 'close' }, { timeoutMs: Math.min(this.limits.timeoutMs, 2000) }).catch(() => undefined);
      connection.close();
    }
  }

  private checked(message: Record<string, unknown>): Record<string, unknown> {
    if (Buffer.byteLength(JSON.stringify(message)) > this.limits.maxMessageBytes) {
      throw new UpstreamUnavailable(`a path_find message of the upstream is larger than ${this.limits.maxMessageBytes} bytes`);
    }
    return message;
  }
}
