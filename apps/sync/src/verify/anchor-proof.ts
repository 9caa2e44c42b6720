/**
 * Proof that an announced ledger hash is the network's, asked for every ledger the live follower
 * stores: an anchor (the first ledger, or one above a gap) has no stored parent to chain to, and
 * even the next ledger above the tip could be a self-consistent fork naming the tip as its parent.
 * Verification shows a ledger hashes to the hash it was announced with; only this shows that hash
 * is the network's.
 *
 * - The network's way (rippled LedgerMaster::checkAccept): full validations of that hash from at
 *   least the quorum of the validators trusted (the published lists, and -validators keys), each
 *   counted for a validator only when signed by its current signing key (manifests, learnt from the
 *   lists and from the upstream's `manifest` command), validators on the ledger's negative UNL not
 *   counted and the quorum lowered for them. The validations come from the upstream's `validations`
 *   stream and each signature is checked: an upstream can withhold validations, never forge them.
 * - Only where nothing is trusted at all: at least two endpoints, counted as servers, name that
 *   hash for the ledger and none names another. This trusts that they are not all lying together.
 */
import { encodeNodePublicKey, listDocumentParts, nodePublicKeyHex, verifyValidation, type ChainProfile } from '@ledger-node/chain';
import type { LedgerEvidence } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import { WakeablePause } from '@ledger-node/upstream';
import type { ValidatorLists } from '../trust/validator-lists';

/** The negative UNL a ledger is proven with: the master keys its parent's NegativeUNL object disables. */
export interface NegativeUnlReading {
  keys: ReadonlySet<string>;
  /** `state`: read from the proven state; `upstream`: as the upstream states it (bounded by the quorum's 60% floor). */
  source: 'state' | 'upstream' | 'unknown';
}

export interface AnchorProofOptions {
  profile: ChainProfile;
  logger: Logger;
  lists: ValidatorLists;
  endpoints: readonly string[];
  /** The hash one endpoint gives the validated ledger at an index, and the server (its identity) that gave it. */
  ledgerHashFrom(url: string, ledgerIndex: number): Promise<{ hash: string; server: string }>;
  /** The upstream's newest manifest for a key (`manifest` command, base64), or undefined when it knows none. */
  fetchManifest(nodePublicKey: string): Promise<string | undefined>;
  /** The negative UNL in force for the ledger with this index and parent. */
  negativeUnl(ledgerIndex: number, parentHash: string): Promise<NegativeUnlReading>;
  /** Counts a refused validation or manifest, by reason. */
  onRefused(reason: string): void;
  /** How long to wait for a quorum of validations of one ledger. */
  validationWaitMs?: number;
}

/** How a ledger was proven the network's. */
export interface LedgerProof {
  /** The proof in words, e.g. `validated by 4 of 5 trusted validators (quorum 4)`. */
  text: string;
  /**
   * What proved it, stored with the ledger: the validations counted with the lists and manifests
   * they were checked against; absent when agreeing endpoints proved it.
   */
  evidence?: LedgerEvidence;
}

/** A validation as received: decoded, its signature checked only when it would count. */
interface ReceivedValidation {
  ledgerIndex: number;
  full: boolean;
  blobHex: string;
  verified: boolean;
}

/** Ledgers whose validations are kept (the newest ones seen). */
const KEPT_LEDGERS = 256;
/** Validations kept per ledger: more than any network's validators (mainnet has about 200). */
const MAX_VALIDATIONS_PER_LEDGER = 512;
const DEFAULT_VALIDATION_WAIT_MS = 15_000;
/** How long a ledger's validations are awaited once a later ledger has as many. */
const MOVED_ON_GRACE_MS = 2_000;
/** A key's manifest is asked for at most this often. */
const MANIFEST_RETRY_MS = 30_000;

export class AnchorProof {
  /** Ledger hash → its validations by signing key, for the newest ledger indexes seen. */
  private readonly validations = new Map<string, { ledgerIndex: number; bySigningKey: Map<string, ReceivedValidation> }>();
  private readonly manifestAskedAt = new Map<string, number>();
  /** Woken as a validation is kept: a proof waiting for its quorum looks again. */
  private readonly arrival = new WakeablePause();
  /** The newest ledger index a validation was checked at on arrival, by signing key. */
  private readonly checkedOnArrival = new Map<string, number>();
  private saidUntrusted = false;
  /** How the newest anchor was proven, or why none could be: for the status. */
  state = '';

  constructor(private readonly options: AnchorProofOptions) {
    this.state = this.trustText();
  }

  private get trust() {
    return this.options.lists.trust;
  }

  /** What proves an anchor, as configured. */
  trustText(): string {
    if (this.trust.configured) return 'validations from the trusted validators (waiting for the first ledger)';
    if (this.options.endpoints.length >= 2) return `agreement of at least two of ${this.options.endpoints.length} endpoints (no validator list is configured)`;
    return 'nothing: no validator list, no -validators key, and a single -endpoint';
  }

  /**
   * A validation from the stream: kept when a trusted validator may have made it (its signing key
   * is one, or its master key is and the manifest naming this key is asked for). Its signature is
   * checked as it comes when it is a trusted validator's first of a newer ledger, else when it is counted.
   */
  onValidation(message: { data: string; master_key?: string }): void {
    if (!this.trust.configured) return;
    let fields;
    try {
      fields = this.options.profile.codec.decode(message.data);
    } catch {
      this.options.onRefused('validation_malformed');
      return;
    }
    const { LedgerSequence: ledgerIndex, LedgerHash: ledgerHash, SigningPubKey: signingKey, Flags: flags } = fields;
    if (typeof ledgerIndex !== 'number' || typeof ledgerHash !== 'string' || typeof signingKey !== 'string') {
      this.options.onRefused('validation_malformed');
      return;
    }
    const key = signingKey.toUpperCase();
    // Before a list is in force nothing tells whose validations count: they are kept, and judged when counted.
    if (this.trust.trustedMasterOf(key) === undefined && this.trust.blockedReason() === undefined) {
      const master = this.masterKeyNamed(message.master_key);
      if (master === undefined || !this.trust.trusted().has(master)) {
        // Every validator of the network validates; only the trusted ones count (counted, said once).
        this.options.onRefused('validation_untrusted');
        if (!this.saidUntrusted) {
          this.saidUntrusted = true;
          this.options.logger.info({ signingKey: key }, `validations of validators no trusted list names (${key} first) are not counted`);
        }
        return;
      }
      // A trusted validator signing with a key its known manifest does not name: a rotation to learn.
      this.askManifest(key);
    }
    const hash = ledgerHash.toUpperCase();
    const entry = this.validations.get(hash) ?? { ledgerIndex, bySigningKey: new Map() };
    this.validations.set(hash, entry);
    if (!entry.bySigningKey.has(key) && entry.bySigningKey.size < MAX_VALIDATIONS_PER_LEDGER) {
      const validation: ReceivedValidation = { ledgerIndex, full: typeof flags === 'number' && (flags & 1) !== 0, blobHex: message.data, verified: false };
      entry.bySigningKey.set(key, validation);
      // A trusted validator's first validation of a newer ledger is checked as it comes, while the
      // ledger itself is still being fetched, rather than when the ledger waits on its proof.
      // Any other (a second hash at one index: a fork or a forgery) waits until it would count.
      if (validation.full && ledgerIndex > (this.checkedOnArrival.get(key) ?? 0) && this.trust.trustedMasterOf(key) !== undefined) {
        this.checkedOnArrival.set(key, ledgerIndex);
        this.checkSignature(entry, key, validation, hash);
      }
      this.arrival.wake();
    }
    if (this.validations.size > KEPT_LEDGERS) {
      const oldest = [...this.validations].sort(([, a], [, b]) => a.ledgerIndex - b.ledgerIndex)[0]![0];
      this.validations.delete(oldest);
    }
  }

  private masterKeyNamed(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    try {
      return nodePublicKeyHex(text, this.options.profile);
    } catch {
      return undefined;
    }
  }

  /** Asks the upstream for the manifest naming `signingKey` (at most once per interval per key). */
  private askManifest(signingKey: string): void {
    const now = Date.now();
    if (now - (this.manifestAskedAt.get(signingKey) ?? Number.NEGATIVE_INFINITY) < MANIFEST_RETRY_MS) return;
    this.manifestAskedAt.set(signingKey, now);
    const nodePublicKey = encodeNodePublicKey(signingKey, this.options.profile);
    void this.options
      .fetchManifest(nodePublicKey)
      .then((manifest) => {
        if (manifest === undefined) return;
        const outcome = this.trust.applyManifest(manifest);
        if (outcome.disposition === 'accepted') {
          this.options.logger.info({ masterKey: outcome.masterKey, signingKey }, `validator ${outcome.masterKey} now signs with ${signingKey} (its manifest from the upstream)`);
        } else if (outcome.disposition !== 'stale') {
          this.options.onRefused(`manifest_${outcome.disposition}`);
          this.options.logger.warn({ signingKey, disposition: outcome.disposition, reason: outcome.reason }, `manifest for ${signingKey} refused (${outcome.disposition})${outcome.reason ? `: ${outcome.reason}` : ''}`);
        }
      })
      .catch((error: unknown) => this.options.logger.debug({ err: error, signingKey }, `manifest for ${signingKey} not had: ${(error as Error).message}`));
  }

  /**
   * The distinct trusted validators (master keys) whose full validation of this ledger checks out,
   * negative UNL left out, each with its validation as received (hex).
   */
  private validators(ledgerIndex: number, ledgerHash: string, disabled: ReadonlySet<string>): Map<string, string> {
    const masters = new Map<string, string>();
    const entry = this.validations.get(ledgerHash);
    if (!entry) return masters;
    for (const [signingKey, validation] of entry.bySigningKey) {
      const master = this.trust.trustedMasterOf(signingKey);
      if (master === undefined || disabled.has(master) || !validation.full || validation.ledgerIndex !== ledgerIndex || masters.has(master)) continue;
      if (!validation.verified && !this.checkSignature(entry, signingKey, validation, ledgerHash)) continue;
      masters.set(master, validation.blobHex);
    }
    return masters;
  }

  /** Whether a validation's signature is its signing key's over this ledger hash; one that is not is dropped and counted. */
  private checkSignature(entry: { bySigningKey: Map<string, ReceivedValidation> }, signingKey: string, validation: ReceivedValidation, ledgerHash: string): boolean {
    try {
      const checked = verifyValidation(this.options.profile, validation.blobHex);
      validation.verified = checked.ledgerHash === ledgerHash && checked.publicKey === signingKey;
    } catch {
      validation.verified = false;
    }
    if (!validation.verified) {
      entry.bySigningKey.delete(signingKey);
      this.options.onRefused('validation_bad_signature');
    }
    return validation.verified;
  }

  /** The most trusted validators that validated any one later ledger (signatures unchecked: a reason to stop waiting, never a proof). */
  private laterValidations(ledgerIndex: number): number {
    let most = 0;
    for (const entry of this.validations.values()) {
      if (entry.ledgerIndex <= ledgerIndex) continue;
      const masters = new Set([...entry.bySigningKey.keys()].map((key) => this.trust.trustedMasterOf(key)).filter((key) => key !== undefined));
      most = Math.max(most, masters.size);
    }
    return most;
  }

  /**
   * Whether `ledgerHash` is the network's ledger at `ledgerIndex`: the proof, or undefined when none
   * came (validations awaited up to the configured wait).
   */
  async prove(ledgerIndex: number, ledgerHash: string, parentHash: string, signal: AbortSignal): Promise<LedgerProof | undefined> {
    const hash = ledgerHash.toUpperCase();
    const proof = this.trust.configured ? await this.proveByValidations(ledgerIndex, hash, parentHash, signal) : await this.proveByEndpoints(ledgerIndex, hash);
    if (proof === undefined) return undefined;
    this.state = `ledger ${ledgerIndex} ${proof.text}`;
    this.lastFailure = undefined;
    return proof;
  }

  private async proveByValidations(ledgerIndex: number, hash: string, parentHash: string, signal: AbortSignal): Promise<LedgerProof | undefined> {
    const { lists } = this.options;
    const negativeUnl = await this.options.negativeUnl(ledgerIndex, parentHash).catch((): NegativeUnlReading => ({ keys: new Set(), source: 'unknown' }));
    const startedAt = Date.now();
    const deadline = startedAt + (this.options.validationWaitMs ?? DEFAULT_VALIDATION_WAIT_MS);
    let count = 0;
    let quorum = Number.POSITIVE_INFINITY;
    while (!signal.aborted) {
      lists.update();
      const disabled = this.trust.effectiveNegativeUnl(negativeUnl.keys);
      quorum = this.trust.quorum(negativeUnl.keys);
      if (Number.isFinite(quorum)) {
        const counted = this.validators(ledgerIndex, hash, disabled);
        count = counted.size;
        if (count >= quorum) {
          const trusted = this.trust.trusted().size;
          const negative = disabled.size === 0 ? '' : `, ${disabled.size} on the negative UNL${negativeUnl.source === 'upstream' ? ' the upstream states' : ''}`;
          return { text: `validated by ${count} of ${trusted} trusted validators (quorum ${quorum}${negative})`, evidence: this.evidenceOf(counted, quorum) };
        }
        // The network validated a later ledger already (or, after a grace, validates later ledgers as
        // well as this one): validations of this hash (withheld, or never made, for a fork) will not
        // come now, and waiting would hold back every ledger behind it.
        const later = this.laterValidations(ledgerIndex);
        if (later >= quorum || (later > 0 && later >= count && Date.now() >= startedAt + MOVED_ON_GRACE_MS)) {
          const what = later >= quorum ? 'a later ledger is validated already' : `a later ledger has as many trusted validations (${later})`;
          this.told(`ledger ${ledgerIndex} ${hash} not proven: ${count} of the ${quorum} trusted validations needed came, and ${what}`, 'validations');
          return undefined;
        }
      }
      if (Date.now() >= deadline) {
        const why = Number.isFinite(quorum) ? `${count} of the ${quorum} trusted validations needed came` : `no quorum can be reached: ${this.trust.blockedReason() ?? 'the lists trust no validator'}`;
        this.told(`ledger ${ledgerIndex} ${hash} not proven: ${why}`, Number.isFinite(quorum) ? 'validations' : 'lists');
        return undefined;
      }
      // Looked at again as each validation comes (and every 100 ms, for the lists and the deadline).
      await this.arrival.wait(100);
    }
    return undefined;
  }

  /**
   * The validations counted (by master key), with the lists in force and the manifests naming their
   * signing keys: what they were checked against.
   */
  private evidenceOf(counted: ReadonlyMap<string, string>, quorum: number): LedgerEvidence {
    return {
      validations: [...counted.values()].map((blobHex) => Buffer.from(blobHex, 'hex')),
      quorum,
      validatorLists: this.trust.listsInForce().map((list) => listDocumentParts(list.document, list.publisherKey, list.sequence)),
      manifests: [...counted.keys()].flatMap((masterKey) => {
        const manifest = this.trust.manifests.get(masterKey);
        return manifest ? [Buffer.from(manifest.serialized, 'hex')] : [];
      }),
    };
  }

  private async proveByEndpoints(ledgerIndex: number, hash: string): Promise<LedgerProof | undefined> {
    const { endpoints } = this.options;
    if (endpoints.length < 2) {
      this.told(`ledger ${ledgerIndex} not proven: nothing proves a ledger with no validator list, no -validators key and a single -endpoint`, 'nothing');
      return undefined;
    }
    const answers = await Promise.all(endpoints.map((url) => this.options.ledgerHashFrom(url, ledgerIndex).catch(() => undefined)));
    // Agreement counts servers, not URLs: one server named twice (or behind a proxy) proves nothing.
    const agreeing = new Set(answers.filter((answer) => answer?.hash === hash).map((answer) => answer!.server)).size;
    const disagreeing = answers.filter((answer) => answer !== undefined && answer.hash !== hash).length;
    const urlsAgreeing = answers.filter((answer) => answer?.hash === hash).length;
    if (agreeing < 2 || disagreeing > 0) {
      const fewerServers = urlsAgreeing > agreeing ? `; ${urlsAgreeing} endpoints named it, but they are ${agreeing === 1 ? 'one server' : `${agreeing} servers`}` : '';
      this.told(`ledger ${ledgerIndex} ${hash} not proven: named by ${agreeing} of the 2 servers needed, another hash by ${disagreeing} endpoint(s)${fewerServers}`, 'endpoints');
      return undefined;
    }
    return { text: `named by ${agreeing} servers of ${endpoints.length} endpoints (no validator list is configured)` };
  }

  private lastFailure: string | undefined;

  /** Sets the state; logs it when the kind of failure changed (not once per ledger). */
  private told(state: string, kind: string): void {
    this.state = state;
    if (kind === this.lastFailure) return;
    this.lastFailure = kind;
    this.options.logger.warn({}, state);
  }
}
