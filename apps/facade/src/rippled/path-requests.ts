/**
 * rippled `path_find` on a WebSocket connection: the connection's one path request (rippled
 * InfoSub keeps one), opened on the upstream through the submission service (FindPaths, a
 * connection of its own there) as Clio forwards path_find. `create` answers the upstream's first
 * answer and relays each update the upstream sends on this connection, every message marked
 * `"forwarded": true`; a new `create` replaces the request; `status` answers the request's
 * newest state, `close` closes it upstream and answers that state with `closed: true` (rippled
 * PathRequest doStatus, doClose); the connection closing closes it too. A request the upstream
 * ends (its connection, the submission service's lifetime bound) is gone: `status` and `close`
 * then find none.
 */
import { invalidField, missingField, RpcError, type ApiVersion, type JsonObject } from '@ledger-node/rippled-api';
import type { FindPathsRequest, FindPathsResponse } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import { forwardedAnswer, forwardingError, refuseKeys } from './methods/forwarded';

/** What opens a path request upstream: the submission service's FindPaths. */
export interface PathFinding {
  findPaths(request: FindPathsRequest, options: { signal: AbortSignal }): AsyncIterable<FindPathsResponse>;
}

interface OpenRequest {
  readonly controller: AbortController;
  /** The request's newest state: the create answer, then each update, without the update's envelope fields. */
  status: JsonObject;
}

/** Fields of an update message that belong to its envelope, not to the request's state. */
const ENVELOPE_FIELDS = new Set(['type', 'id', 'status']);

export class ConnectionPathRequest {
  private current: OpenRequest | undefined;
  /** Creates begun on the connection: one overtaken by a later create while it waited is closed at once. */
  private creates = 0;
  private closed = false;

  constructor(
    private readonly submission: PathFinding,
    /** Sends a message on the connection (its bounded queue). */
    private readonly send: (message: JsonObject) => void,
    private readonly logger: Logger,
  ) {}

  /** Whether a request is open. */
  get open(): boolean {
    return this.current !== undefined;
  }

  /**
   * Runs one path_find command of the connection; `requestId` is the id the client gave its
   * create (rippled's updates carry it). A create's `start` relays the updates once its answer is sent.
   */
  async run(params: JsonObject, apiVersion: ApiVersion, requestId: unknown): Promise<{ result: JsonObject; start?: () => void }> {
    const subcommand = params.subcommand;
    if (subcommand === undefined) throw missingField('subcommand');
    if (typeof subcommand !== 'string') throw invalidField('subcommand');
    if (subcommand === 'status' || subcommand === 'close') {
      const open = this.current;
      if (!open) throw new RpcError('noPathRequest');
      if (subcommand === 'status') return { result: { ...open.status, forwarded: true } };
      this.stop();
      return { result: { ...open.status, closed: true, forwarded: true } };
    }
    if (subcommand !== 'create') throw new RpcError('invalidParams', "Invalid field 'subcommand'.");
    refuseKeys(params);
    // rippled: a new create replaces the connection's request.
    const mine = ++this.creates;
    this.stop();
    const controller = new AbortController();
    const stream = this.submission.findPaths({ paramsJson: JSON.stringify(params), apiVersion }, { signal: controller.signal })[Symbol.asyncIterator]();
    let first: IteratorResult<FindPathsResponse>;
    try {
      first = await stream.next();
    } catch (error) {
      controller.abort();
      throw forwardingError(error);
    }
    if (first.done) {
      controller.abort();
      throw new RpcError('noNetwork');
    }
    let answer: JsonObject;
    try {
      answer = forwardedAnswer(first.value.messageJson, first.value.error);
    } catch (error) {
      controller.abort();
      throw error;
    }
    if (this.closed || this.creates !== mine) {
      // The connection closed, or a later create replaced this one, while it waited for its answer.
      controller.abort();
      return { result: { ...answer, forwarded: true } };
    }
    const open: OpenRequest = { controller, status: answer };
    this.current = open;
    return { result: { ...answer, forwarded: true }, start: () => void this.relay(open, stream, requestId) };
  }

  /** The connection closed: its request is closed upstream, and one still being created once it answers. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.current?.controller.abort();
    this.current = undefined;
  }

  /** Sends each update of `open` on the connection while it is the connection's request. */
  private async relay(open: OpenRequest, stream: AsyncIterator<FindPathsResponse>, requestId: unknown): Promise<void> {
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done || open.controller.signal.aborted) break;
        let update: JsonObject;
        try {
          update = forwardedAnswer(next.value.messageJson, false);
        } catch {
          this.logger.warn('a path_find update of the upstream is no JSON object; the path request is closed');
          break;
        }
        open.status = Object.fromEntries(Object.entries(update).filter(([field]) => !ENVELOPE_FIELDS.has(field)));
        // rippled's update names the request by the id its create carried (the upstream's names the submission service's).
        this.send({ ...open.status, type: 'path_find', ...(requestId === undefined ? {} : { id: requestId }), forwarded: true });
      }
    } catch (error) {
      if (!open.controller.signal.aborted) this.logger.debug({ reason: error instanceof Error ? error.message : String(error) }, 'the upstream ended a path request');
    } finally {
      // Ended upstream (or replaced, or closed): the connection has no request in progress.
      if (this.current === open) this.current = undefined;
      open.controller.abort();
    }
  }
}
