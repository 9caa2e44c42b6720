/**
 * One WebSocket connection to a rippled-compatible server: requests matched to answers by `id`,
 * each with a timeout, and stream messages handed to a listener. It never reconnects; the
 * Upstream decides what to do when it closes.
 */
import { UpstreamUnavailable } from '@ledger-node/errors';
import WebSocket from 'ws';
import type { z } from 'zod';
import { errorAnswer, incomingMessage, successAnswer } from './messages';

/**
 * The largest message read: a binary ledger of a few thousand transactions or a 2048-object
 * ledger_data page is a few MB. A larger frame closes the connection before it is buffered, so
 * junk of 100 MB costs no memory.
 */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The server answered a request with an error (rippled `status: "error"`), e.g. `lgrNotFound`. */
export class UpstreamRequestError extends Error {
  constructor(
    readonly command: string,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamRequestError';
  }
}

/** A message that did not match the shape the protocol promises. */
export class MalformedUpstreamMessage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedUpstreamMessage';
  }
}

export interface ConnectionEvents {
  /** A message with a `type` other than `response` (stream messages). */
  onStreamMessage(message: Record<string, unknown>): void;
  /** A message that is not JSON or does not match any expected shape. */
  onMalformed(reason: string): void;
  onClose(reason: string): void;
}

/** How long one answer took (the sync stage histogram's `fetch` and `parse`, stage-timing.ts). */
export interface AnswerTiming {
  /** From sending the request until its answer's message event. */
  waitedSeconds: number;
  /** UTF-8 and JSON decoding of the answer and its schema checks. */
  parsedSeconds: number;
}

/** An answer's result, with when its message arrived and how long its decoding took (process.hrtime.bigint()). */
interface Answer {
  result: Record<string, unknown>;
  receivedAtNs: bigint;
  decodedNs: bigint;
}

interface Pending {
  command: string;
  resolve(answer: Answer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class UpstreamConnection {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private constructor(
    readonly url: string,
    private readonly socket: WebSocket,
    private readonly events: ConnectionEvents,
  ) {
    socket.on('message', (data) => this.receive(data, process.hrtime.bigint()));
    socket.on('close', (code, reason) => this.finish(`closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`));
    socket.on('error', (error) => this.finish(error.message));
  }

  /** Requests in a row that got no answer at all (any answer resets it): a server that streams but does not answer. */
  unansweredInARow = 0;

  /**
   * Opens a connection to `connectTo` (the URL with credentials), known as `url` (as shown); rejects
   * with UpstreamUnavailable when it cannot within `timeoutMs`.
   */
  static open(url: string, events: ConnectionEvents, timeoutMs: number, connectTo = url): Promise<UpstreamConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(connectTo, { handshakeTimeout: timeoutMs, maxPayload: MAX_MESSAGE_BYTES });
      const fail = (error: Error) => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        reject(new UpstreamUnavailable(`cannot connect to ${url}: ${error.message}`, { url }));
      };
      socket.once('error', fail);
      socket.once('open', () => {
        socket.off('error', fail);
        resolve(new UpstreamConnection(url, socket, events));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends `command` and resolves with the validated `result` of its answer; `onAnswered` hears how long it took. */
  request<S extends z.ZodType>(
    command: string,
    params: Record<string, unknown>,
    schema: S,
    timeoutMs: number,
    onAnswered?: (timing: AnswerTiming) => void,
  ): Promise<z.infer<S>> {
    if (!this.isOpen) return Promise.reject(new UpstreamUnavailable(`${this.url} is not connected`, { url: this.url }));
    const id = this.nextId++;
    const sentAtNs = process.hrtime.bigint();
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.unansweredInARow++;
        reject(new UpstreamUnavailable(`${command} to ${this.url} got no answer within ${timeoutMs} ms`, { url: this.url }));
      }, timeoutMs);
      this.pending.set(id, { command, resolve, reject, timer });
      this.socket.send(JSON.stringify({ id, command, ...params }), (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new UpstreamUnavailable(`cannot send ${command} to ${this.url}: ${error.message}`, { url: this.url }));
      });
    }).then(({ result, receivedAtNs, decodedNs }) => {
      const checkStartedAtNs = process.hrtime.bigint();
      const parsed = schema.safeParse(result);
      onAnswered?.({ waitedSeconds: Number(receivedAtNs - sentAtNs) / 1e9, parsedSeconds: Number(decodedNs + process.hrtime.bigint() - checkStartedAtNs) / 1e9 });
      if (!parsed.success) {
        const reason = `malformed ${command} answer: ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`;
        this.events.onMalformed(reason);
        throw new MalformedUpstreamMessage(reason);
      }
      return parsed.data;
    });
  }

  /** Closes the connection at once (a stalled or failed upstream); pending requests fail. */
  terminate(reason: string): void {
    this.finish(reason);
    this.socket.terminate();
  }

  private receive(data: WebSocket.RawData, receivedAtNs: bigint): void {
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch (error) {
      this.events.onMalformed(`not JSON: ${(error as Error).message}`);
      return;
    }
    const message = incomingMessage.safeParse(json);
    if (!message.success) {
      this.events.onMalformed('not a JSON object');
      return;
    }
    const { id, type } = message.data;
    if (type !== undefined && type !== 'response') {
      this.events.onStreamMessage(message.data);
      return;
    }
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!pending) {
      this.events.onMalformed(`an answer to no pending request (id ${String(id)})`);
      return;
    }
    this.pending.delete(id as number);
    clearTimeout(pending.timer);
    this.unansweredInARow = 0;
    const failure = errorAnswer.safeParse(message.data);
    if (failure.success) {
      const { error, error_message: errorMessage } = failure.data;
      pending.reject(new UpstreamRequestError(pending.command, error, `${pending.command} failed on ${this.url}: ${error}${errorMessage ? ` (${errorMessage})` : ''}`));
      return;
    }
    const success = successAnswer.safeParse(message.data);
    if (!success.success) {
      const reason = `malformed answer to ${pending.command}: neither success with a result nor error`;
      this.events.onMalformed(reason);
      pending.reject(new MalformedUpstreamMessage(reason));
      return;
    }
    pending.resolve({ result: success.data.result, receivedAtNs, decodedNs: process.hrtime.bigint() - receivedAtNs });
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new UpstreamUnavailable(`${pending.command} to ${this.url} failed: connection ${reason}`, { url: this.url }));
      this.pending.delete(id);
    }
    this.events.onClose(reason);
  }
}
