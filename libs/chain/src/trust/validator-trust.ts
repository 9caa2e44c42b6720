/**
 * Which validators this node trusts and how many of them must validate a ledger, as rippled's
 * ValidatorList decides it:
 *
 * - each trusted publisher's current list (sequence only rising; a list whose `effective` time is
 *   still to come waits beside it and takes over when due; an expired list leaves its publisher
 *   `expired`), the validators listed by at least `threshold` publishers trusted;
 * - manifests (manifest.ts): a validation counts for a trusted master key only when signed by its
 *   current signing key; a revoked master key is trusted no more;
 * - the quorum: 80% of the trusted validators left after the negative UNL, never below 60% of all
 *   of them (rippled calculateQuorum), and out of reach while any publisher's list is not in force
 *   (not fetched, expired or revoked): then nothing is proven.
 *
 * A `-validators` file's keys (master or signing keys) are trusted beside the lists, with its own
 * quorum when it states one. Times are seconds since the XRP Ledger epoch.
 */
import { ManifestCache, readManifest, type ManifestDisposition } from './manifest';
import { InvalidList, readPublishedList, type ListBlob, type ListedValidator } from './validator-list';

/** rippled ListDisposition, as the status shows it. */
export type ListDisposition = 'accepted' | 'expired' | 'pending' | 'same_sequence' | 'known_sequence' | 'stale' | 'untrusted' | 'invalid' | 'unsupported_version';

/** A publisher's state: `unavailable` until a list of it was accepted. */
export type PublisherState = 'unavailable' | 'available' | 'expired' | 'revoked';

interface HeldList {
  sequence: number;
  effective: number;
  expiration: number;
  validators: ListedValidator[];
  /** The document that carried the list, as received. */
  document: unknown;
}

interface Publisher {
  key: string;
  state: PublisherState;
  current?: HeldList;
  /** Lists accepted ahead of their `effective` time, by sequence. */
  pending: Map<number, HeldList>;
  /** The newest document accepted, kept so that a restart proves with it (see `keptDocuments`). */
  document?: unknown;
  site?: string;
  lastDisposition?: ListDisposition;
  reason?: string;
}

export interface ListOutcome {
  disposition: ListDisposition;
  publisherKey?: string;
  sequence?: number;
  /** Why the document (or one of its blobs) was refused. */
  reason?: string;
}

export interface PublisherStatus {
  publisher: string;
  site?: string;
  sequence?: number;
  effective?: number;
  expiration?: number;
  validators: number;
  state: PublisherState;
  /** The outcome of the last document offered (rippled's words). */
  lastOutcome?: ListDisposition;
  reason?: string;
}

export interface ValidatorTrustOptions {
  /** -validator_list_keys: publisher master keys, uppercase hex. */
  publisherKeys: readonly string[];
  /** -validators: keys trusted beside the lists (master keys, or signing keys of validators without manifests). */
  staticKeys?: readonly string[];
  /** -validators' `quorum N`, when it states one. */
  staticQuorum?: number;
  /** How many publishers must list a validator (default: 1 with one or two publishers, else a majority). */
  threshold?: number;
}

/** rippled: the negative UNL never holds more than a quarter of the UNL (negativeUNLMaxListed). */
const NEGATIVE_UNL_MAX_SHARE = 0.25;

/** C++ `std::ceil(n * 0.8f)`: the product in single precision, as rippled computes it. */
function ceilFloatProduct(count: number, factor: number): number {
  return Math.ceil(Math.fround(Math.fround(count) * Math.fround(factor)));
}

export class ValidatorTrust {
  readonly manifests = new ManifestCache();
  private readonly publishers = new Map<string, Publisher>();
  private readonly staticKeys: ReadonlySet<string>;
  private readonly threshold: number;
  private trustedCache: Set<string> | undefined;

  constructor(private readonly options: ValidatorTrustOptions) {
    for (const key of options.publisherKeys) this.publishers.set(key.toUpperCase(), { key: key.toUpperCase(), state: 'unavailable', pending: new Map() });
    this.staticKeys = new Set((options.staticKeys ?? []).map((key) => key.toUpperCase()));
    const count = this.publishers.size;
    this.threshold = options.threshold ?? (count < 3 ? 1 : Math.floor(count / 2) + 1);
  }

  /** Whether any list or key is configured at all (else nothing can prove a ledger this way). */
  get configured(): boolean {
    return this.publishers.size > 0 || this.staticKeys.size > 0;
  }

  get publisherKeys(): string[] {
    return [...this.publishers.keys()];
  }

  /**
   * Offers a published document (from a site or a kept file) at time `now`: its verified blobs
   * are taken as rippled takes them, and the outcome of the best one is returned.
   */
  applyList(document: unknown, options: { site: string; now: number }): ListOutcome {
    let list;
    try {
      list = readPublishedList(document, new Set(this.publishers.keys()));
    } catch (error) {
      if (!(error instanceof InvalidList)) throw error;
      // A revoked publisher manifest (the publisher's own word) ends its lists for good.
      const publisherKey = this.revokedPublisher(document);
      if (publisherKey !== undefined) this.revokePublisher(publisherKey);
      const publisher = publisherKey === undefined ? this.publisherNamedBy(document) : this.publishers.get(publisherKey);
      if (publisher) [publisher.lastDisposition, publisher.reason] = [error.disposition, error.message];
      return { disposition: error.disposition, ...(publisher ? { publisherKey: publisher.key } : {}), reason: error.message };
    }
    const publisher = this.publishers.get(list.publisherKey)!;
    if (publisher.state === 'revoked') return this.told(publisher, { disposition: 'untrusted', reason: `publisher ${publisher.key} revoked its key` });
    const manifestOutcome = this.manifests.apply(list.publisherManifest);
    if (manifestOutcome !== 'accepted' && manifestOutcome !== 'stale') {
      return this.told(publisher, { disposition: 'untrusted', reason: `the publisher manifest was refused (${manifestOutcome})` });
    }
    let best: ListOutcome | undefined;
    for (const blob of list.blobs) {
      const outcome = this.applyBlob(publisher, blob, document, options.now);
      if (best === undefined || rank(outcome.disposition) < rank(best.disposition) || (outcome.disposition === best.disposition && (outcome.sequence ?? 0) > (best.sequence ?? 0))) best = outcome;
      if (outcome.disposition === 'accepted' || outcome.disposition === 'expired' || outcome.disposition === 'pending') {
        publisher.document = document;
        publisher.site = options.site;
      }
    }
    this.update(options.now);
    const reason = [best!.reason, ...list.refused.map((entry) => entry.reason)].filter((text) => text !== undefined).join('; ');
    return this.told(publisher, { ...best!, ...(reason === '' ? {} : { reason }) });
  }

  private told(publisher: Publisher, outcome: Omit<ListOutcome, 'publisherKey'>): ListOutcome {
    publisher.lastDisposition = outcome.disposition;
    publisher.reason = outcome.reason;
    return { ...outcome, publisherKey: publisher.key };
  }

  /** rippled ValidatorList::verify's checks of one verified blob against what the publisher has. */
  private applyBlob(publisher: Publisher, blob: ListBlob, document: unknown, now: number): ListOutcome {
    const { sequence } = blob;
    const currentSequence = publisher.current?.sequence ?? 0;
    const held: HeldList = { sequence, effective: blob.effective, expiration: blob.expiration, validators: blob.validators, document };
    if (sequence < currentSequence) return { disposition: 'stale', sequence, reason: `sequence ${sequence} is older than the list held (${currentSequence})` };
    if (sequence === currentSequence) return { disposition: 'same_sequence', sequence };
    if (blob.expiration <= now) {
      // rippled takes an expired list as the publisher's current one, which leaves it unusable.
      this.makeCurrent(publisher, held);
      publisher.state = 'expired';
      return { disposition: 'expired', sequence, reason: `list ${sequence} expired at ${blob.expiration}` };
    }
    if (blob.effective > now) {
      if (publisher.pending.has(sequence)) return { disposition: 'known_sequence', sequence };
      publisher.pending.set(sequence, held);
      this.applyManifestsOf(held);
      return { disposition: 'pending', sequence };
    }
    this.makeCurrent(publisher, held);
    publisher.state = 'available';
    return { disposition: 'accepted', sequence };
  }

  private makeCurrent(publisher: Publisher, list: HeldList): void {
    publisher.current = list;
    for (const sequence of publisher.pending.keys()) if (sequence <= list.sequence) publisher.pending.delete(sequence);
    this.applyManifestsOf(list);
    this.trustedCache = undefined;
  }

  /** The manifests a list carries for its validators (rippled updatePublisherList): a manifest of another key is ignored. */
  private applyManifestsOf(list: HeldList): void {
    for (const validator of list.validators) {
      if (validator.manifest === undefined) continue;
      let manifest;
      try {
        manifest = readManifest(validator.manifest);
      } catch {
        continue;
      }
      if (manifest.masterKey === validator.masterKey) this.manifests.apply(manifest);
    }
    this.trustedCache = undefined;
  }

  /**
   * Moves time to `now` (rippled updateTrusted): a pending list whose effective time came takes
   * over, and a current list past its expiration leaves its publisher `expired`.
   */
  update(now: number): void {
    for (const publisher of this.publishers.values()) {
      if (publisher.state === 'revoked') continue;
      const due = [...publisher.pending.values()].filter((list) => list.effective <= now).sort((a, b) => b.sequence - a.sequence)[0];
      if (due) {
        this.makeCurrent(publisher, due);
        publisher.state = 'available';
      }
      if (publisher.state === 'available' && publisher.current && publisher.current.expiration <= now) {
        publisher.state = 'expired';
        this.trustedCache = undefined;
      }
    }
  }

  /** The next time after `now` at which a list in force expires or a waiting one takes effect. */
  nextChange(now: number): number | undefined {
    const times = [...this.publishers.values()].flatMap((publisher) => [
      ...(publisher.current ? [publisher.current.expiration] : []),
      ...[...publisher.pending.values()].map((list) => list.effective),
    ]);
    const future = times.filter((time) => time > now);
    return future.length === 0 ? undefined : Math.min(...future);
  }

  /** Applies a manifest from the upstream or a list: a newer one replaces the older (rotation), a revocation ends the key. */
  applyManifest(serialized: string | Uint8Array): { disposition: ManifestDisposition; masterKey?: string; reason?: string } {
    const outcome = this.manifests.applySerialized(serialized);
    if (outcome.disposition === 'accepted') this.trustedCache = undefined;
    return { disposition: outcome.disposition, ...(outcome.manifest ? { masterKey: outcome.manifest.masterKey } : {}), ...(outcome.reason ? { reason: outcome.reason } : {}) };
  }

  /** The master keys trusted now: listed by enough publishers whose list is in force, or in -validators, and not revoked. */
  trusted(): ReadonlySet<string> {
    if (this.trustedCache) return this.trustedCache;
    const listings = new Map<string, number>();
    for (const publisher of this.publishers.values()) {
      if (publisher.state !== 'available' || !publisher.current) continue;
      for (const { masterKey } of publisher.current.validators) listings.set(masterKey, (listings.get(masterKey) ?? 0) + 1);
    }
    const trusted = new Set<string>();
    for (const [key, count] of listings) if (count >= this.threshold && !this.manifests.revoked(key)) trusted.add(key);
    for (const key of this.staticKeys) if (!this.manifests.revoked(key)) trusted.add(key);
    this.trustedCache = trusted;
    return trusted;
  }

  /** The trusted master key a validation signed by `signingKey` counts for, or undefined. */
  trustedMasterOf(signingKey: string): string | undefined {
    const master = this.manifests.masterKeyOf(signingKey.toUpperCase());
    return this.trusted().has(master) ? master : undefined;
  }

  /**
   * The validations of distinct trusted validators that prove a ledger, given the negative UNL of
   * that ledger (master keys): Infinity while a publisher's list is not in force.
   */
  quorum(negativeUnl: ReadonlySet<string> = new Set()): number {
    for (const publisher of this.publishers.values()) if (publisher.state !== 'available') return Number.POSITIVE_INFINITY;
    const trusted = this.trusted();
    if (trusted.size === 0) return Number.POSITIVE_INFINITY;
    if (this.options.staticQuorum !== undefined && this.publishers.size === 0) return this.options.staticQuorum;
    const disabled = this.effectiveNegativeUnl(negativeUnl);
    return Math.max(ceilFloatProduct(trusted.size - disabled.size, 0.8), ceilFloatProduct(trusted.size, 0.6));
  }

  /** The trusted keys of a negative UNL, or none when it names more than rippled ever lets it hold (it is then not the network's). */
  effectiveNegativeUnl(negativeUnl: ReadonlySet<string>): ReadonlySet<string> {
    const trusted = this.trusted();
    const disabled = new Set([...negativeUnl].filter((key) => trusted.has(key)));
    return disabled.size > Math.ceil(trusted.size * NEGATIVE_UNL_MAX_SHARE) ? new Set() : disabled;
  }

  /** Why no quorum can be reached now, or undefined when one can. */
  blockedReason(): string | undefined {
    if (!this.configured) return 'no validator list or -validators key is configured';
    for (const publisher of this.publishers.values()) {
      if (publisher.state === 'unavailable') return `no list of publisher ${publisher.key} verified yet${publisher.reason ? ` (${publisher.reason})` : ''}`;
      if (publisher.state === 'expired') return `the list of publisher ${publisher.key} expired${publisher.current ? ` at ${publisher.current.expiration}` : ''} and no newer one is in force`;
      if (publisher.state === 'revoked') return `publisher ${publisher.key} revoked its key`;
    }
    if (this.trusted().size === 0) return 'the lists trust no validator';
    return undefined;
  }

  status(): PublisherStatus[] {
    return [...this.publishers.values()].map((publisher) => ({
      publisher: publisher.key,
      ...(publisher.site === undefined ? {} : { site: publisher.site }),
      ...(publisher.current ? { sequence: publisher.current.sequence, effective: publisher.current.effective, expiration: publisher.current.expiration } : {}),
      validators: publisher.state === 'available' ? (publisher.current?.validators.length ?? 0) : 0,
      state: publisher.state,
      ...(publisher.lastDisposition === undefined ? {} : { lastOutcome: publisher.lastDisposition }),
      ...(publisher.reason === undefined ? {} : { reason: publisher.reason }),
    }));
  }

  /** The list in force of each publisher, with the document that carried it (what a ledger's validations are counted against now). */
  listsInForce(): { publisherKey: string; sequence: number; document: unknown }[] {
    return [...this.publishers.values()].flatMap((publisher) =>
      publisher.state === 'available' && publisher.current ? [{ publisherKey: publisher.key, sequence: publisher.current.sequence, document: publisher.current.document }] : [],
    );
  }

  /** The newest accepted document of each publisher, to keep on disk and offer again after a restart. */
  keptDocuments(): { publisherKey: string; document: unknown }[] {
    return [...this.publishers.values()].filter((publisher) => publisher.document !== undefined).map((publisher) => ({ publisherKey: publisher.key, document: publisher.document }));
  }

  private revokePublisher(key: string): void {
    const publisher = this.publishers.get(key);
    if (!publisher) return;
    publisher.state = 'revoked';
    publisher.current = undefined;
    publisher.pending.clear();
    this.trustedCache = undefined;
  }

  /** The trusted publisher whose revocation a document carries, if it does (checked by its master signature). */
  private revokedPublisher(document: unknown): string | undefined {
    const manifest = typeof document === 'object' && document !== null ? (document as Record<string, unknown>).manifest : undefined;
    if (typeof manifest !== 'string') return undefined;
    const outcome = this.manifests.applySerialized(manifest);
    const revoked = outcome.manifest?.revoked === true && this.publishers.has(outcome.manifest.masterKey);
    return revoked ? outcome.manifest!.masterKey : undefined;
  }

  /** The publisher a refused document says it is from (its public_key), to record the refusal against. */
  private publisherNamedBy(document: unknown): Publisher | undefined {
    const key = typeof document === 'object' && document !== null ? (document as Record<string, unknown>).public_key : undefined;
    return typeof key === 'string' ? this.publishers.get(key.toUpperCase()) : undefined;
  }
}

/** rippled orders dispositions best first: accepted, expired, same_sequence, pending, known_sequence, ... */
const ORDER: ListDisposition[] = ['accepted', 'expired', 'same_sequence', 'pending', 'known_sequence', 'unsupported_version', 'untrusted', 'stale', 'invalid'];

function rank(disposition: ListDisposition): number {
  return ORDER.indexOf(disposition);
}
