/**
 * The published validator lists sync proves ledgers with (rippled ValidatorSite): each site is
 * fetched with a deadline and a size cap, verified (libs/chain ValidatorTrust), and fetched again on
 * the list's own schedule (`refresh_interval`, and at once when the list in force expires or one
 * waiting takes effect). The last verified document of each publisher is kept under -data_dir and
 * offered again at start, so a restart without network keeps proving; an older list than the one
 * kept is refused as stale. A list that cannot be had or verified leaves sync running and says so
 * (status, a metric, one log line per change), never proving anything by it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unixMsToRippleTime, ValidatorTrust, type ListOutcome, type PublisherStatus } from '@ledger-node/chain';
import { counter, DependencyLog, type Logger } from '@ledger-node/telemetry';
import { backoffDelayMs, sleep } from '@ledger-node/upstream';
import type { TrustConfig } from '../config';

const refusalsTotal = counter('ledger_node_sync_validator_list_refusals_total', 'Validator list documents (or fetches of them) refused, by reason: rippled dispositions (invalid, untrusted, stale, unsupported_version, expired) and fetch failures', ['reason']);

/** rippled ValidatorSite: 5 minutes between fetches unless the list says otherwise, 30 s after a failure. */
const DEFAULT_REFRESH_MS = 5 * 60_000;
const ERROR_RETRY_MS = 30_000;
/** rippled clamps a list's `refresh_interval` (minutes) to this range. */
const MIN_REFRESH_MINUTES = 1;
const MAX_REFRESH_MINUTES = 24 * 60;
/** A list document of every mainnet validator is ~50 KB; a larger answer is refused unread. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 20_000;

/** `sync.validator_list` of the status: the trust as a whole, and each publisher's list. */
export interface ValidatorListState {
  publisher: string;
  sequence?: number;
  expiration?: number;
  effective?: number;
  validators: number;
  /** Undefined while out of reach (a list not in force). */
  quorum?: number;
  /** rippled's outcome words for the last list offered (accepted, expired, pending, invalid, untrusted, stale, same_sequence), or `unavailable` before any. */
  state: string;
  reason?: string;
  origin: string;
  publishers: PublisherStatus[];
}

export interface ValidatorListsOptions {
  config: TrustConfig;
  logger: Logger;
  fetchImpl?: typeof fetch;
}

export class ValidatorLists {
  readonly trust: ValidatorTrust;
  private readonly abort = new AbortController();
  private running: Promise<unknown> | undefined;
  /** The last outcome logged per source, so that a refetch with the same outcome is not said again. */
  private readonly said = new Map<string, string>();

  constructor(private readonly options: ValidatorListsOptions) {
    const { config } = options;
    this.trust = new ValidatorTrust({
      publisherKeys: config.publisherKeys,
      staticKeys: config.validators?.keys,
      staticQuorum: config.validators?.quorum,
    });
  }

  /** Seconds since the XRP Ledger epoch. */
  now(): number {
    return unixMsToRippleTime(Date.now());
  }

  /** Lets time act on the lists (an expired one out, a pending one in); call before reading the quorum. */
  update(): void {
    this.trust.update(this.now());
  }

  /** Offers the kept documents and the -validator_list_file documents, then fetches each site on its schedule. */
  start(): void {
    if (this.running) return;
    this.loadKept();
    for (const file of this.options.config.listFiles) this.offerFile(file, `file ${file}`);
    this.running = Promise.all(this.options.config.sites.map((site) => this.follow(site)));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private loadKept(): void {
    const dir = this.options.config.keptListsDir;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const publisherKey of this.trust.publisherKeys) {
      if (names.includes(`${publisherKey}.json`)) this.offerFile(path.join(dir, `${publisherKey}.json`), 'the kept copy');
    }
  }

  private offerFile(file: string, source: string): void {
    let document: unknown;
    try {
      document = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      this.refused(source, 'unreadable', `${source} cannot be read: ${(error as Error).message}`);
      return;
    }
    this.offer(document, source);
  }

  /** Fetches one site again and again, on the list's schedule. */
  private async follow(site: string): Promise<void> {
    let failures = 0;
    // A site that does not answer while the node starts (the devnet's may listen after sync) is said at debug, then once at warn.
    const availability = new DependencyLog(this.options.logger, `validator list site ${site}`);
    while (!this.abort.signal.aborted) {
      let delayMs: number;
      try {
        const document = site.startsWith('file:') ? JSON.parse(readFileSync(fileURLToPath(site), 'utf8')) : await this.fetchDocument(site);
        availability.answered();
        this.offer(document, site);
        delayMs = this.nextRefreshMs(document);
        failures = 0;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        refusalsTotal.inc({ reason: 'fetch_failed' });
        availability.failed(`validator list ${site} could not be had: ${(error as Error).message}`, { reason: 'fetch_failed' });
        // From a second after the first failure (a site starting beside the node) up to rippled's 30 s.
        delayMs = Math.min(backoffDelayMs(failures++, 1_000, ERROR_RETRY_MS), this.options.config.refreshMs ?? ERROR_RETRY_MS);
      }
      await sleep(delayMs, this.abort.signal).catch(() => undefined);
    }
  }

  private async fetchDocument(site: string): Promise<unknown> {
    const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
    const response = await (this.options.fetchImpl ?? fetch)(site, { signal, redirect: 'follow', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > MAX_LIST_BYTES) throw new Error(`its answer of ${declared} bytes is over the ${MAX_LIST_BYTES}-byte cap`);
    const reader = response.body?.getReader();
    if (!reader) throw new Error('the answer has no body');
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_LIST_BYTES) {
        await reader.cancel();
        throw new Error(`its answer is over the ${MAX_LIST_BYTES}-byte cap`);
      }
      chunks.push(value);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new Error('its answer is not JSON');
    }
  }

  /** The list's own refresh interval, brought forward to when the list in force expires or a pending one takes effect. */
  private nextRefreshMs(document: unknown): number {
    const minutes = typeof document === 'object' && document !== null ? (document as Record<string, unknown>).refresh_interval : undefined;
    let delayMs = typeof minutes === 'number' && Number.isFinite(minutes) ? Math.min(MAX_REFRESH_MINUTES, Math.max(MIN_REFRESH_MINUTES, minutes)) * 60_000 : DEFAULT_REFRESH_MS;
    if (this.options.config.refreshMs !== undefined) delayMs = this.options.config.refreshMs;
    const now = this.now();
    const due = this.trust.nextChange(now);
    if (due !== undefined) delayMs = Math.min(delayMs, (due - now) * 1000 + 1000);
    // While no quorum can be reached (a list expired, or not had), ask as often as after a failure.
    if (this.trust.blockedReason() !== undefined) delayMs = Math.min(delayMs, ERROR_RETRY_MS);
    return Math.max(1000, delayMs);
  }

  private offer(document: unknown, source: string): ListOutcome {
    const outcome = this.trust.applyList(document, { site: source, now: this.now() });
    const { disposition, publisherKey, sequence, reason } = outcome;
    if (disposition === 'accepted' || disposition === 'pending') this.keep();
    const text = `validator list from ${source}: ${disposition}${sequence === undefined ? '' : ` (sequence ${sequence})`}${reason ? `: ${reason}` : ''}`;
    if (['accepted', 'pending', 'same_sequence', 'known_sequence'].includes(disposition)) {
      if (this.said.get(source) !== `${disposition}:${sequence}` && disposition !== 'same_sequence' && disposition !== 'known_sequence') {
        this.options.logger.info({ source, publisherKey, sequence, disposition, validators: this.trust.trusted().size, quorum: this.quorumText() }, text);
      }
      this.said.set(source, `${disposition}:${sequence}`);
    } else {
      this.refused(source, disposition, text);
    }
    return outcome;
  }

  /** Counts a refusal; logs it when it differs from the last word on that source. */
  private refused(source: string, reason: string, text: string): void {
    refusalsTotal.inc({ reason });
    if (this.said.get(source) === text) return;
    this.said.set(source, text);
    this.options.logger.warn({ source, reason }, text);
  }

  /** Writes each publisher's newest accepted document where a restart reads it (write, then rename: never half a file). */
  private keep(): void {
    const dir = this.options.config.keptListsDir;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (const { publisherKey, document } of this.trust.keptDocuments()) {
        const file = path.join(dir, `${publisherKey}.json`);
        writeFileSync(`${file}.tmp`, `${JSON.stringify(document)}\n`);
        renameSync(`${file}.tmp`, file);
      }
    } catch (error) {
      this.options.logger.warn({ dir, reason: (error as Error).message }, `the verified validator list could not be kept in ${dir}: ${(error as Error).message}`);
    }
  }

  private quorumText(): string {
    const quorum = this.trust.quorum();
    return Number.isFinite(quorum) ? String(quorum) : 'out of reach';
  }

  /** The status object: the publishers' lists, the trusted validators and the quorum (without a negative UNL). */
  state(): ValidatorListState {
    this.update();
    const publishers = this.trust.status();
    const quorum = this.trust.quorum();
    const worst = publishers.find((publisher) => publisher.state !== 'available') ?? publishers[0];
    const stateOf = (publisher: PublisherStatus | undefined): string => {
      if (!publisher) return this.trust.configured ? 'accepted' : 'unavailable';
      if (publisher.state === 'expired') return 'expired';
      if (publisher.state === 'revoked') return 'untrusted';
      if (publisher.state === 'unavailable') return publisher.lastOutcome ?? 'unavailable';
      return publisher.lastOutcome === 'same_sequence' || publisher.lastOutcome === 'known_sequence' ? 'accepted' : (publisher.lastOutcome ?? 'accepted');
    };
    const reason = this.trust.blockedReason() ?? worst?.reason;
    return {
      publisher: publishers.map((publisher) => publisher.publisher).join(', '),
      ...(worst?.sequence === undefined ? {} : { sequence: worst.sequence }),
      ...(worst?.expiration === undefined ? {} : { expiration: worst.expiration }),
      ...(worst?.effective === undefined ? {} : { effective: worst.effective }),
      validators: this.trust.trusted().size,
      ...(Number.isFinite(quorum) ? { quorum } : {}),
      state: stateOf(worst),
      ...(reason === undefined ? {} : { reason }),
      origin: this.options.config.origin,
      publishers,
    };
  }
}
