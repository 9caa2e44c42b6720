/**
 * One WebSocket connection to a rippled-compatible server: typed requests matched to answers by
 * `id`, each with a deadline and its answer's `result` checked against the command's schema, and
 * stream messages handed to a listener. It never reconnects; its owner decides what to do when it
 * closes. Errors and events name the endpoint by its shown URL only, never the one with credentials.
 */
import { UpstreamUnavailable } from '@ledger-node/errors';
import WebSocket from 'ws';
import { MalformedUpstreamMessage, UpstreamRequestError } from './errors';
import { errorAnswer, incomingMessage, successAnswer, type StreamMessage } from './messages';
import { resultSchemaOf, type Command, type ParamsOf, type ResultOf } from './methods';

/**
 * The largest message read: a binary ledger of a few thousand transactions or a 2048-object
 * ledger_data page is a few MB. A larger frame closes the connection before it is buffered, so
 * junk of 100 MB costs no memory.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface ConnectionEvents {
  /** A message with a `type` other than `response` (stream messages). */
  onStreamMessage?(message: StreamMessage): void;
  /** A message that is not JSON or does not match the shape its command promises. */
  onMalformed?(reason: string): void;
  onClose?(reason: string): void;
}

/** How long one answer took (sync's stage histogram `fetch` and `parse`, apps/sync/src/stage-timing.ts). */
export interface AnswerTiming {
  /** From sending the request until its answer's message event. */
  waitedSeconds: number;
  /** UTF-8 and JSON decoding of the answer and its schema checks. */
  parsedSeconds: number;
}

export interface ConnectionOptions {
  /** The endpoint as logs and errors show it (libs/config UpstreamEndpoints). */
  url: string;
  /** The URL to open, credentials included (default: `url`). */
  connectUrl?: string;
  events?: ConnectionEvents;
  connectTimeoutMs: number;
  /** Deadline of a request that names none. */
  requestTimeoutMs: number;
}

export interface RequestOptions {
  timeoutMs?: number;
  /** Hears how long the answer took, whether its result matched or not. */
  onAnswered?(timing: AnswerTiming): void;
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
  /** Requests in a row that got no answer at all (any answer resets it): a server that streams but does not answer. */
  unansweredInARow = 0;
  /** The address and port the connection reached (`127.0.0.1:6006`), once open. */
  remoteEndpoint = '';

  private constructor(
    readonly url: string,
    private readonly socket: WebSocket,
    private readonly events: ConnectionEvents,
    private readonly requestTimeoutMs: number,
  ) {
    socket.on('message', (data) => this.receive(data, process.hrtime.bigint()));
    socket.on('close', (code, reason) => this.finish(`closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`));
    socket.on('error', (error) => this.finish(error.message));
  }

  /** Opens a connection; rejects with UpstreamUnavailable when it cannot within the connect timeout. */
  static open(options: ConnectionOptions): Promise<UpstreamConnection> {
    const { url, connectUrl = url, connectTimeoutMs } = options;
    // The URL with credentials may appear in what ws says (an invalid URL is quoted whole).
    const shown = (text: string) => text.split(connectUrl).join(url);
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => reject(new UpstreamUnavailable(`cannot connect to ${url}: ${shown(error.message)}`, { url }));
      let socket: WebSocket;
      try {
        socket = new WebSocket(connectUrl, { handshakeTimeout: connectTimeoutMs, maxPayload: MAX_MESSAGE_BYTES });
      } catch (error) {
        return fail(error as Error);
      }
      const failToOpen = (error: Error) => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        fail(error);
      };
      socket.once('error', failToOpen);
      let remoteEndpoint = '';
      socket.once('upgrade', (response) => {
        remoteEndpoint = `${response.socket.remoteAddress ?? ''}:${response.socket.remotePort ?? ''}`;
      });
      socket.once('open', () => {
        socket.off('error', failToOpen);
        const connection = new UpstreamConnection(url, socket, options.events ?? {}, options.requestTimeoutMs);
        connection.remoteEndpoint = remoteEndpoint;
        resolve(connection);
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Sends `command` and resolves with its answer's `result`, checked against the command's schema.
   * An error answer rejects with UpstreamRequestError, a result that does not match with
   * MalformedUpstreamMessage (reported to onMalformed too), no answer with UpstreamUnavailable.
   */
  request<C extends Command, const P extends ParamsOf<C>>(command: C, params: P, options: RequestOptions = {}): Promise<ResultOf<C, P>> {
    if (!this.isOpen) return Promise.reject(new UpstreamUnavailable(`${this.url} is not connected`, { url: this.url }));
    const schema = resultSchemaOf(command, params);
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
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
      options.onAnswered?.({ waitedSeconds: Number(receivedAtNs - sentAtNs) / 1e9, parsedSeconds: Number(decodedNs + process.hrtime.bigint() - checkStartedAtNs) / 1e9 });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw this.malformed(`malformed ${command} answer: ${issue?.message ?? 'invalid'} at ${issue?.path.join('.') ?? ''}`);
      }
      return parsed.data as ResultOf<C, P>;
    });
  }

  /** Closes the connection at once (a stalled or failed upstream, or one no longer needed); pending requests fail. */
  terminate(reason: string): void {
    this.finish(reason);
    this.socket.terminate();
  }

  private receive(data: WebSocket.RawData, receivedAtNs: bigint): void {
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch (error) {
      this.malformed(`not JSON: ${(error as Error).message}`);
      return;
    }
    const message = incomingMessage.safeParse(json);
    if (!message.success) {
      this.malformed('not a JSON object');
      return;
    }
    const { id, type } = message.data;
    if (type !== undefined && type !== 'response') {
      this.events.onStreamMessage?.(message.data);
      return;
    }
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!pending) {
      this.malformed(`an answer to no pending request (id ${String(id)})`);
      return;
    }
    this.pending.delete(id as number);
    clearTimeout(pending.timer);
    this.unansweredInARow = 0;
    const failure = errorAnswer.safeParse(message.data);
    if (failure.success) {
      pending.reject(this.requestError(pending.command, failure.data));
      return;
    }
    const success = successAnswer.safeParse(message.data);
    if (!success.success) {
      pending.reject(this.malformed(`malformed answer to ${pending.command}: neither success with a result nor error`));
      return;
    }
    pending.resolve({ result: success.data.result, receivedAtNs, decodedNs: process.hrtime.bigint() - receivedAtNs });
  }

  private requestError(command: string, answer: { error: string; error_message?: string; error_exception?: string }): UpstreamRequestError {
    const said = answer.error_message ?? answer.error_exception;
    const { id: _id, type: _type, ...fields } = answer as Record<string, unknown>;
    return new UpstreamRequestError(command, answer.error, `${command} failed on ${this.url}: ${answer.error}${said ? ` (${said})` : ''}`, said, fields);
  }

  /** Reports a malformed message and returns the error for whoever waits on it. */
  private malformed(reason: string): MalformedUpstreamMessage {
    this.events.onMalformed?.(reason);
    return new MalformedUpstreamMessage(reason);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new UpstreamUnavailable(`${pending.command} to ${this.url} failed: connection ${reason}`, { url: this.url }));
      this.pending.delete(id);
    }
    this.events.onClose?.(reason);
  }
}
