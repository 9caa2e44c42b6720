/**
 * The upstream: one subscribed connection at a time to the first endpoint that answers, in the
 * order given; reconnects with exponential backoff and jitter; a stalled upstream (no new validated
 * ledger for 3× the close interval, or three requests in a row without any answer) is treated as
 * down and the next endpoint tried. Ledger fetches go over the subscribed
 * connection, or over a second connection to another endpoint when the caller prefers it
 * (a refetch after a failed verification).
 */
import { UpstreamUnavailable } from '@ledger-node/errors';
import { DependencyLog, type Logger } from '@ledger-node/telemetry';
import {
  backoffDelayMs,
  firstAnswering,
  ledgerClosedMessage,
  MalformedUpstreamMessage,
  sleep,
  UpstreamConnection,
  UpstreamRequestError,
  validationReceivedMessage,
  type AnswerTiming,
  type BinaryLedgerDataResult,
  type BinaryLedgerEntryResult,
  type BinaryLedgerResult,
  type Command,
  type ConnectionEvents,
  type ParamsOf,
  type ResultOf,
  type ServerInfoResult,
  type StreamMessage,
} from '@ledger-node/upstream';
import { observeStage } from '../stage-timing';

export interface ValidatedLedgerAnnouncement {
  ledgerIndex: number;
  ledgerHash: string;
  /**
   * The subscription that announced it: its endpoint's URL and a number (`ws://host:port#3`), so a
   * judgement of an earlier subscription never falls on a later one to the same endpoint.
   */
  source: string;
  /** rippled `validated_ledgers` of the message, when given. */
  validatedLedgers?: string;
}

export interface UpstreamOptions {
  /** URLs as shown: in logs, errors and the status (see libs/config endpoints.ts). */
  endpoints: readonly string[];
  /** The URL to open for a shown one, credentials included (default: the URL itself). */
  connectUrl?: (url: string) => string;
  logger: Logger;
  /** A newly validated ledger (from the subscribe answer or the `ledger` stream). */
  onValidatedLedger(announcement: ValidatedLedgerAnnouncement): void;
  /** A new subscription is up (the first, or one after a reconnection or failover). */
  onSubscribed?(source: string): void;
  /** A validation from the `validations` stream (`data`: the serialized validation), not yet checked. */
  onValidation?(validation: { data: string; master_key?: string }): void;
  /** A message that is not what the rippled API sends (counted; logged at most once per interval). */
  onMalformed?(reason: string): void;
  /** Deadline of one request. */
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** Fixed stall timeout; by default 3× the observed close interval. */
  stallTimeoutMs?: number;
  /** -network_id: an endpoint whose subscribe answer names another network is not used. */
  networkId?: number;
}

/** A `ledger` answer's wait and decoding, as sync's `fetch` and `parse` stages. */
function observeLedgerAnswer(timing: AnswerTiming): void {
  observeStage('fetch', timing.waitedSeconds);
  observeStage('parse', timing.parsedSeconds);
}

/** How long a `ledger` answer is awaited when another endpoint could answer instead (a mainnet ledger comes in well under a second). */
const LEDGER_DEADLINE_WITH_ALTERNATIVE_MS = 4_000;
/** Close interval assumed before two ledgers were seen (the XRP Ledger closes every 3-4 s). */
const ASSUMED_CLOSE_INTERVAL_MS = 4_000;
/** Requests in a row without any answer after which a connection that still streams counts as stalled. */
const UNANSWERED_REQUESTS_STALL = 3;
/** At most one log line per this interval about malformed upstream messages. */
const MALFORMED_LOG_INTERVAL_MS = 10_000;
/**
 * A network that closes ledgers fast under load and slowly when idle is not "stalled" between the
 * two: an idle devnet closes every 5 s (-idle_close_ms), so its next ledger, a loaded machine's
 * moment late, must not count as a stall after a run of one-second closes.
 */
const MIN_STALL_TIMEOUT_MS = 10_000;

export class Upstream {
  private primary: UpstreamConnection | undefined;
  private alternate: { connection: UpstreamConnection } | undefined;
  private subscribed = false;
  private readonly abort = new AbortController();
  private connectedWaiters = new Set<() => void>();
  private loop: Promise<void> | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  private lastAdvanceAtMs = 0;
  private closeIntervalsMs: number[] = [];
  private lastAnnounced = 0;
  /** Why the subscribed endpoint is no longer trusted to lead (see `distrust`), until it is left. */
  private distrusted: string | undefined;
  /** The current subscription's name (see ValidatedLedgerAnnouncement.source), and how many there were. */
  private subscription = '';
  private subscriptions = 0;
  /** Counts for status and logs. */
  malformedMessageCount = 0n;
  private malformedLoggedAtMs = Number.NEGATIVE_INFINITY;
  reconnectCount = 0n;
  /** Endpoints refusing while the node starts (the devnet may listen after sync) are said at debug. */
  private readonly availability: DependencyLog;

  constructor(private readonly options: UpstreamOptions) {
    if (options.endpoints.length === 0) throw new Error('at least one upstream endpoint is needed');
    this.availability = new DependencyLog(options.logger, 'the upstream');
  }

  get connected(): boolean {
    return this.subscribed && this.primary?.isOpen === true;
  }

  /** URL of the subscribed endpoint, or the first one while none is. */
  get url(): string {
    return this.primary?.url ?? this.options.endpoints[0]!;
  }

  start(): void {
    this.loop ??= this.connectLoop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.stallTimer);
    this.primary?.terminate('stopping');
    this.alternate?.connection.terminate('stopping');
    for (const wake of this.connectedWaiters) wake();
    await this.loop;
  }

  /**
   * The subscribed endpoint announces ledgers that cannot be proven the network's (forged, or their
   * validations withheld): it is left like a stalled one and the next `-endpoint` is tried. Said of
   * an endpoint already left (its announcements judged late), it changes nothing.
   */
  distrust(source: string, reason: string): void {
    if (this.options.endpoints.length > 1 && this.subscription === source) this.distrusted = reason;
  }

  async serverInfo(timeoutMs?: number): Promise<ServerInfoResult> {
    return this.request('server_info', {}, { timeoutMs });
  }

  /**
   * A ledger in binary form with its transactions and metadata (not yet verified). With another
   * endpoint to ask, an answer is awaited LEDGER_DEADLINE_WITH_ALTERNATIVE_MS only: a silent
   * upstream costs seconds before the next attempt goes to the other one, not three request timeouts.
   */
  async fetchLedger(ledgerIndex: number, options: { preferOtherEndpoint?: boolean } = {}): Promise<BinaryLedgerResult> {
    return this.request(
      'ledger',
      { ledger_index: ledgerIndex, transactions: true, expand: true, binary: true, api_version: 1 },
      { ...options, onAnswered: observeLedgerAnswer, ...(this.options.endpoints.length > 1 ? { timeoutMs: Math.min(this.requestTimeoutMs, LEDGER_DEADLINE_WITH_ALTERNATIVE_MS) } : {}) },
    );
  }

  /**
   * The hash one endpoint gives the validated ledger at `ledgerIndex`, over a connection of its own,
   * and the server that gave it: its node identity (server_info `pubkey_node`), else the address
   * reached. Two URLs of one server (a second spelling, a proxy in front of it) are one server.
   */
  async ledgerHashFrom(url: string, ledgerIndex: number): Promise<{ hash: string; server: string }> {
    const connection = await this.open(url, this.connectionEvents());
    try {
      const [answer, info] = await Promise.all([connection.request('ledger', { ledger_index: ledgerIndex }), connection.request('server_info', {}).catch(() => undefined)]);
      // Only a validated ledger's hash is an endpoint's word on the network's ledger.
      if (answer.validated !== true) {
        const reason = `ledger ${ledgerIndex} answered by ${url} is not validated`;
        this.malformed(reason);
        throw new MalformedUpstreamMessage(reason);
      }
      const nodeKey = info?.info.pubkey_node;
      return { hash: answer.ledger_hash.toUpperCase(), server: nodeKey ? `node ${nodeKey}` : `address ${connection.remoteEndpoint}` };
    } finally {
      connection.terminate('done');
    }
  }

  /** The subscribed endpoint's validated hash at `ledgerIndex`, or undefined when it does not hold that ledger. */
  async validatedHash(ledgerIndex: number): Promise<string | undefined> {
    try {
      const answer = await this.request('ledger', { ledger_index: ledgerIndex }, {});
      return answer.validated === true ? answer.ledger_hash.toUpperCase() : undefined;
    } catch (error) {
      if (error instanceof UpstreamRequestError && error.errorCode === 'lgrNotFound') return undefined;
      throw error;
    }
  }

  /** One state object in binary form at the ledger with `ledgerHash` (rippled `ledger_entry`). */
  async ledgerEntry(objectKey: string, ledgerHash: string, options: { preferOtherEndpoint?: boolean } = {}): Promise<BinaryLedgerEntryResult> {
    return this.request('ledger_entry', { index: objectKey, ledger_hash: ledgerHash, binary: true }, options);
  }

  /** The upstream's newest manifest for a validator key (`n…`), base64, or undefined when it knows none (rippled `manifest`). */
  async manifest(nodePublicKey: string): Promise<string | undefined> {
    return (await this.request('manifest', { public_key: nodePublicKey }, {})).manifest;
  }

  /** One page of a ledger's state objects in binary form (rippled `ledger_data`), from `marker` on. */
  async ledgerData(ledgerHash: string, marker: string | number | undefined, limit: number): Promise<BinaryLedgerDataResult> {
    return this.request('ledger_data', { ledger_hash: ledgerHash, binary: true, limit, marker }, {});
  }

  /** A request over the subscribed connection, waiting for one while reconnecting (up to the timeout). */
  private async request<C extends Command, const P extends ParamsOf<C>>(
    command: C,
    params: P,
    options: { timeoutMs?: number; preferOtherEndpoint?: boolean; onAnswered?: (timing: AnswerTiming) => void },
  ): Promise<ResultOf<C, P>> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    if (options.preferOtherEndpoint && this.options.endpoints.length > 1) {
      const other = await this.alternateConnection().catch((error: unknown) => {
        this.options.logger.debug({ err: error }, 'no other endpoint for a refetch');
        return undefined;
      });
      if (other) return other.request(command, params, { timeoutMs, onAnswered: options.onAnswered });
    }
    const connection = await this.waitForConnection(timeoutMs);
    return connection.request(command, params, { timeoutMs, onAnswered: options.onAnswered });
  }

  private get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs ?? 20_000;
  }

  /** A connection of its own to `url`, known by that (shown) URL. */
  private open(url: string, events: ConnectionEvents): Promise<UpstreamConnection> {
    const { connectUrl, connectTimeoutMs = 5_000 } = this.options;
    return UpstreamConnection.open({ url, connectUrl: connectUrl?.(url), events, connectTimeoutMs, requestTimeoutMs: this.requestTimeoutMs });
  }

  private async waitForConnection(timeoutMs: number): Promise<UpstreamConnection> {
    const deadline = Date.now() + timeoutMs;
    while (!this.abort.signal.aborted) {
      if (this.connected && this.primary) return this.primary;
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, remaining);
        const waiters = this.connectedWaiters;
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      });
    }
    throw new UpstreamUnavailable(`no upstream connection (tried ${this.options.endpoints.join(', ')})`);
  }

  /** A connection to an endpoint other than the subscribed one, opened on first use. */
  private async alternateConnection(): Promise<UpstreamConnection> {
    const current = this.alternate?.connection;
    if (current?.isOpen && current.url !== this.primary?.url) return current;
    current?.terminate('replaced');
    const candidates = this.options.endpoints.filter((url) => url !== this.primary?.url);
    const { value: connection } = await firstAnswering(candidates, (url) => this.open(url, this.connectionEvents()), {
      onFailure: (url, error) => this.options.logger.debug({ err: error, url }, 'alternate endpoint unavailable'),
    });
    this.alternate = { connection };
    return connection;
  }

  /** Events of one connection; only the subscribed one (`subscribedTo`: its subscription's name) has a stream. */
  private connectionEvents(subscribedTo?: string): ConnectionEvents {
    return {
      onStreamMessage: (message) => {
        if (subscribedTo !== undefined) this.onStreamMessage(message, subscribedTo);
      },
      onMalformed: (reason) => this.malformed(reason),
      onClose: (reason) => {
        if (subscribedTo === undefined) return;
        this.subscribed = false;
        if (!this.abort.signal.aborted) this.options.logger.warn({ reason }, `upstream connection lost: ${reason}`);
      },
    };
  }

  private async connectLoop(): Promise<void> {
    const { endpoints, logger } = this.options;
    let failedRounds = 0;
    let startAt = 0;
    while (!this.abort.signal.aborted) {
      const connected = await firstAnswering(endpoints, (url) => this.connectAndSubscribe(url), {
        first: startAt,
        signal: this.abort.signal,
        onFailure: (url, error) => this.availability.failed(`upstream ${url} unavailable: ${error.message}`, { url, reason: error.message }),
      }).catch(() => undefined);
      if (connected === undefined) {
        const delayMs = backoffDelayMs(failedRounds++, this.options.reconnectBaseMs ?? 250, this.options.reconnectMaxMs ?? 10_000);
        logger.info({ delayMs }, `no upstream endpoint answers; retrying in ${delayMs} ms`);
        await sleep(delayMs, this.abort.signal);
        continue;
      }
      const progressed = await this.untilDown();
      if (this.abort.signal.aborted) break;
      this.reconnectCount++;
      // A connection that delivered new ledgers resets the backoff; one that stalled moves on to the next endpoint.
      if (progressed.advanced) failedRounds = 0;
      startAt = progressed.stalled ? (connected.position + 1) % endpoints.length : 0;
      const delayMs = backoffDelayMs(failedRounds++, this.options.reconnectBaseMs ?? 250, this.options.reconnectMaxMs ?? 10_000);
      await sleep(delayMs, this.abort.signal);
    }
  }

  private async connectAndSubscribe(url: string): Promise<void> {
    const source = `${url}#${++this.subscriptions}`;
    const connection = await this.open(url, this.connectionEvents(source));
    this.primary = connection;
    this.subscription = source;
    try {
      const answer = await connection.request('subscribe', { streams: ['ledger', 'validations'] }, { timeoutMs: this.options.connectTimeoutMs ?? 5_000 });
      // As Clio refuses an ETL source of another network: its ledgers would fail validation against this node's validators anyway.
      const { networkId } = this.options;
      if (networkId !== undefined && answer.network_id !== undefined && answer.network_id !== networkId) {
        throw new Error(`it is on network ${answer.network_id}, not this node's -network_id ${networkId}`);
      }
      this.subscribed = true;
      this.availability.answered();
      this.lastAdvanceAtMs = Date.now();
      this.options.logger.info({ url, ledgerIndex: answer.ledger_index }, `subscribed to ${url}`);
      for (const wake of this.connectedWaiters) wake();
      this.options.onSubscribed?.(source);
      if (answer.ledger_index !== undefined && answer.ledger_hash !== undefined) {
        this.announce({ ledgerIndex: answer.ledger_index, ledgerHash: answer.ledger_hash.toUpperCase(), source, validatedLedgers: answer.validated_ledgers });
      }
    } catch (error) {
      connection.terminate('subscribe failed');
      throw error;
    }
  }

  /** Resolves when the subscribed connection closes or stalls. */
  private untilDown(): Promise<{ advanced: boolean; stalled: boolean }> {
    const connection = this.primary!;
    const connectedAtMs = Date.now();
    return new Promise((resolve) => {
      const check = () => {
        if (this.abort.signal.aborted || !connection.isOpen) {
          clearTimeout(this.stallTimer);
          return resolve({ advanced: this.lastAdvanceAtMs > connectedAtMs, stalled: false });
        }
        if (this.distrusted !== undefined) {
          this.options.logger.warn({ url: connection.url, reason: this.distrusted }, `upstream ${connection.url} left: ${this.distrusted}; trying the next endpoint`);
          this.distrusted = undefined;
          connection.terminate('distrusted');
          clearTimeout(this.stallTimer);
          return resolve({ advanced: this.lastAdvanceAtMs > connectedAtMs, stalled: true });
        }
        const sinceAdvanceMs = Date.now() - this.lastAdvanceAtMs;
        const stallMs = this.stallTimeoutMs();
        if (connection.unansweredInARow >= UNANSWERED_REQUESTS_STALL) {
          this.options.logger.warn({ url: connection.url }, `upstream ${connection.url} stalled: its last ${connection.unansweredInARow} requests got no answer; trying the next endpoint`);
          connection.terminate('stalled');
          clearTimeout(this.stallTimer);
          return resolve({ advanced: this.lastAdvanceAtMs > connectedAtMs, stalled: true });
        }
        if (sinceAdvanceMs >= stallMs) {
          this.options.logger.warn({ url: connection.url, sinceAdvanceMs }, `upstream ${connection.url} stalled: no new validated ledger for ${sinceAdvanceMs} ms`);
          connection.terminate('stalled');
          clearTimeout(this.stallTimer);
          return resolve({ advanced: this.lastAdvanceAtMs > connectedAtMs, stalled: true });
        }
        this.stallTimer = setTimeout(check, Math.min(250, stallMs - sinceAdvanceMs));
      };
      // stop() clears the timer: the abort itself must end the wait.
      this.abort.signal.addEventListener('abort', check, { once: true });
      check();
    });
  }

  /**
   * 3× the close interval, taken as the longest of the recent intervals between validated ledgers:
   * an idle network closes less often than a busy one, and that is not a stall.
   */
  stallTimeoutMs(): number {
    if (this.options.stallTimeoutMs !== undefined) return this.options.stallTimeoutMs;
    const interval = this.closeIntervalsMs.length > 0 ? Math.max(...this.closeIntervalsMs) : ASSUMED_CLOSE_INTERVAL_MS;
    return Math.max(MIN_STALL_TIMEOUT_MS, 3 * interval);
  }

  private onStreamMessage(message: StreamMessage, source: string): void {
    if (message.type === 'validationReceived') {
      const validation = validationReceivedMessage.safeParse(message);
      if (validation.success) this.options.onValidation?.(validation.data);
      return;
    }
    if (message.type !== 'ledgerClosed') return;
    const parsed = ledgerClosedMessage.safeParse(message);
    if (!parsed.success) {
      this.malformed(`a ledgerClosed message ${parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      return;
    }
    this.announce({ ledgerIndex: parsed.data.ledger_index, ledgerHash: parsed.data.ledger_hash.toUpperCase(), source, validatedLedgers: parsed.data.validated_ledgers });
  }

  /** Counts a malformed message; logs the first, then at most one line per interval with the count since. */
  private malformed(reason: string): void {
    this.malformedMessageCount++;
    this.options.onMalformed?.(reason);
    const nowMs = Date.now();
    if (nowMs - this.malformedLoggedAtMs < MALFORMED_LOG_INTERVAL_MS) return;
    this.malformedLoggedAtMs = nowMs;
    this.options.logger.warn({ reason, malformedMessageCount: this.malformedMessageCount.toString() }, `malformed upstream message ignored: ${reason} (${this.malformedMessageCount} so far)`);
  }

  private announce(announcement: ValidatedLedgerAnnouncement): void {
    // Any newer ledger than the last one announced is progress: measuring against the highest ever
    // announced would let one announcement of ledger 4 000 000 000 make every later one a stall.
    if (announcement.ledgerIndex > this.lastAnnounced) {
      const nowMs = Date.now();
      // Only consecutive ledgers measure the close interval; a jump after a reconnect does not.
      if (announcement.ledgerIndex === this.lastAnnounced + 1 && this.lastAdvanceAtMs > 0) {
        this.closeIntervalsMs = [...this.closeIntervalsMs.slice(-9), nowMs - this.lastAdvanceAtMs];
      }
      this.lastAdvanceAtMs = nowMs;
    }
    this.lastAnnounced = announcement.ledgerIndex;
    this.options.onValidatedLedger(announcement);
  }
}
