/**
 * A rippled-compatible WebSocket server for unit tests, fed with captured rippled answers
 * (`fixtures/`, origins in its README): it listens on a free port of 127.0.0.1, answers each
 * command with its captured answer unless told otherwise, and can answer with an error, with
 * malformed text or not at all, and send stream messages.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

/** What the mock answers a request with. */
export type MockReply =
  /** A captured answer: `fixtures/<name>.json`. */
  | { fixture: string }
  /** A success answer with this result. */
  | { result: Record<string, unknown> }
  /** An error answer (rippled `status: "error"`), e.g. `lgrNotFound`. */
  | { error: string; errorMessage?: string }
  /** These characters as they are: text that is not JSON, or JSON of another shape. */
  | { raw: string }
  /** No answer at all. */
  | { silence: true };

/** A request as the mock received it. */
export interface MockRequest {
  id: unknown;
  command: string;
  [field: string]: unknown;
}

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** A captured message of `fixtures/` (a whole answer, or a stream message), by its file name without `.json`. */
export function capturedMessage(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;
}

/** The captured answer to `request`: `COMMAND.binary` for a binary request, else `COMMAND`; rippled's unknownCmd when none was captured. */
function capturedReply(request: MockRequest): MockReply {
  const name = request.binary === true ? `${request.command}.binary` : request.command;
  if (existsSync(path.join(FIXTURES, `${name}.json`))) return { fixture: name };
  return { error: 'unknownCmd', errorMessage: 'Unknown method.' };
}

export class MockUpstream {
  /** Every request received, in order. */
  readonly requests: MockRequest[] = [];
  private readonly replies = new Map<string, (request: MockRequest) => MockReply>();
  private readonly sockets = new Set<WebSocket>();

  /** ws://127.0.0.1:PORT, still naming the port once closed (an endpoint that refuses connections). */
  readonly url: string;

  private constructor(private readonly server: WebSocketServer) {
    this.url = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('message', (data) => this.answer(socket, data.toString()));
    });
  }

  static async start(): Promise<MockUpstream> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    return new MockUpstream(server);
  }

  /** Open connections. */
  get connectionCount(): number {
    return this.sockets.size;
  }

  /** How later requests of `command` are answered (instead of with their captured answer). */
  reply(command: string, reply: MockReply | ((request: MockRequest) => MockReply)): void {
    this.replies.set(command, typeof reply === 'function' ? reply : () => reply);
  }

  /** Sends a stream message on every open connection: an object as JSON, text or bytes as they are. */
  stream(message: Record<string, unknown> | string | Buffer): void {
    const data = typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message);
    for (const socket of this.sockets) socket.send(data);
  }

  /** Closes every connection at once; the server keeps listening. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  /** Stops listening and drops every connection: its URL refuses connections from then on. */
  close(): Promise<void> {
    this.dropConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(socket: WebSocket, text: string): void {
    let request: MockRequest;
    try {
      request = JSON.parse(text) as MockRequest;
    } catch {
      socket.send(JSON.stringify({ status: 'error', type: 'response', error: 'badSyntax' }));
      return;
    }
    this.requests.push(request);
    const reply = (this.replies.get(request.command) ?? capturedReply)(request);
    if ('silence' in reply) return;
    if ('raw' in reply) return void socket.send(reply.raw);
    socket.send(JSON.stringify(this.answerOf(request, reply)));
  }

  private answerOf(request: MockRequest, reply: Exclude<MockReply, { raw: string } | { silence: true }>): Record<string, unknown> {
    if ('fixture' in reply) return { ...capturedMessage(reply.fixture), id: request.id };
    if ('result' in reply) return { id: request.id, status: 'success', type: 'response', result: reply.result };
    return { id: request.id, status: 'error', type: 'response', error: reply.error, error_message: reply.errorMessage, request };
  }
}
