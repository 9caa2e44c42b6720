/**
 * A client of the upstream for callers that ask now and then (submission, the bench, tests): it
 * connects on the first request, to the first endpoint that answers in the order given starting
 * with the last one that did, and connects again the same way after its connection closes.
 */
import type { UpstreamEndpoints } from '@ledger-node/config';
import { UpstreamUnavailable } from '@ledger-node/errors';
import { UpstreamConnection, type ConnectionEvents, type RequestOptions } from './connection';
import { firstAnswering } from './failover';
import type { Command, ParamsOf, ResultOf } from './methods';

export interface UpstreamClientOptions {
  /** Shown URLs (all that errors name) and the URL with credentials to open for each. */
  endpoints: UpstreamEndpoints;
  /** Deadline of a request that names none (default 10 s). */
  requestTimeoutMs?: number;
  /** Deadline of opening one endpoint's connection (default: the request deadline). */
  connectTimeoutMs?: number;
  /** Malformed messages, closed connections, and the stream messages of a client that asked for some (a path_find request's updates). */
  events?: ConnectionEvents;
}

/** Endpoints given as plain URLs, without credentials. */
export function plainEndpoints(...urls: string[]): UpstreamEndpoints {
  return { urls, connectUrl: (url) => url };
}

export class UpstreamClient {
  private current: UpstreamConnection | undefined;
  private opening: Promise<UpstreamConnection> | undefined;
  /** The endpoint tried first: the last one that answered. */
  private position = 0;
  private closed = false;

  constructor(private readonly options: UpstreamClientOptions) {}

  /** The endpoint connected to, if any. */
  get url(): string | undefined {
    return this.current?.isOpen ? this.current.url : undefined;
  }

  /** Sends `command` over the connection, opening one first when there is none (see UpstreamConnection.request). */
  async request<C extends Command, const P extends ParamsOf<C>>(command: C, params: P, options?: RequestOptions): Promise<ResultOf<C, P>> {
    const connection = await this.connection();
    return connection.request(command, params, options);
  }

  /** Opens the connection now, when there is none; rejects with UpstreamUnavailable when no endpoint answers. */
  async connect(): Promise<void> {
    await this.connection();
  }

  /** Closes the connection for good: later requests fail, and a connection still opening is closed once open. */
  close(): void {
    this.closed = true;
    this.current?.terminate('closed by its client');
    this.current = undefined;
  }

  /** The open connection, or a new one. */
  private connection(): Promise<UpstreamConnection> {
    if (this.closed) return Promise.reject(new UpstreamUnavailable('the upstream client is closed'));
    if (this.current?.isOpen) return Promise.resolve(this.current);
    this.opening ??= this.open().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async open(): Promise<UpstreamConnection> {
    const { endpoints, events } = this.options;
    const requestTimeoutMs = this.options.requestTimeoutMs ?? 10_000;
    const connectTimeoutMs = this.options.connectTimeoutMs ?? requestTimeoutMs;
    const opened = await firstAnswering(
      endpoints.urls,
      (url) => UpstreamConnection.open({ url, connectUrl: endpoints.connectUrl(url), events, connectTimeoutMs, requestTimeoutMs }),
      { first: this.position },
    );
    this.position = opened.position;
    if (this.closed) {
      opened.value.terminate('closed by its client');
      throw new UpstreamUnavailable('the upstream client is closed');
    }
    this.current = opened.value;
    return opened.value;
  }
}
