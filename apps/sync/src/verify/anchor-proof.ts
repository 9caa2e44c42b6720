/**
 * Proof that an announced ledger hash is the network's, asked for every ledger the live follower
 * stores: an anchor (the first ledger, or one above a gap) has no stored parent to chain to, and
 * even the next ledger above the tip could be a self-consistent fork naming the tip as its parent.
 * Verification shows a ledger hashes to the hash it was announced with; only this shows that hash
 * is the network's. Two ways, as configured:
 *
 * - `-validators`: full validations of that hash, signed by at least `quorum` of the listed keys,
 *   taken from the upstream's `validations` stream (each signature checked; the upstream cannot
 *   forge them, only withhold them);
 * - otherwise: at least two `-endpoint`s name that hash for the ledger and none names another.
 *   This trusts that the endpoints are not all lying together.
 *
 * With neither (no list, one endpoint) nothing proves an anchor, and sync says so.
 */
import { verifyValidation, type ChainProfile, type ValidatorList } from '@ledger-node/chain';
import type { Logger } from '@ledger-node/telemetry';
import { sleep } from '@ledger-node/upstream';

export interface AnchorProofOptions {
  profile: ChainProfile;
  logger: Logger;
  validators: ValidatorList | undefined;
  endpoints: readonly string[];
  /** The hash one endpoint gives the validated ledger at an index. */
  ledgerHashFrom(url: string, ledgerIndex: number): Promise<string>;
  /** How long to wait for a quorum of validations of one ledger. */
  validationWaitMs?: number;
}

/** Ledgers whose validations are kept (the newest ones seen). */
const KEPT_LEDGERS = 256;
const DEFAULT_VALIDATION_WAIT_MS = 15_000;

export class AnchorProof {
  /** Ledger hash → the trusted keys that validated it, for the newest ledger indexes seen. */
  private readonly validatedBy = new Map<string, { ledgerIndex: number; keys: Set<string> }>();
  private readonly trusted: Set<string>;
  /** The highest ledger index whose validations reached the quorum. */
  private newestValidated = 0;
  /** How the newest anchor was proven, or why none could be: for the status. */
  state = '';
  rejectedValidations = 0n;

  constructor(private readonly options: AnchorProofOptions) {
    this.trusted = new Set(options.validators?.keys ?? []);
    this.state = this.trustText();
  }

  /** What proves an anchor, as configured. */
  trustText(): string {
    const { validators, endpoints } = this.options;
    if (validators) return `validations from ${validators.quorum} of ${validators.keys.length} trusted validators`;
    if (endpoints.length >= 2) return `agreement of at least two of ${endpoints.length} endpoints`;
    return 'nothing: no -validators list and a single -endpoint';
  }

  /** A validation from the stream: kept when its signature checks out and a trusted key made it. */
  onValidation(validationHex: string): void {
    if (!this.options.validators) return;
    let validation;
    try {
      validation = verifyValidation(this.options.profile, validationHex);
    } catch (error) {
      this.rejectedValidations++;
      this.options.logger.debug({ reason: (error as Error).message }, 'validation refused');
      return;
    }
    if (!validation.full || !this.trusted.has(validation.publicKey)) return;
    const entry = this.validatedBy.get(validation.ledgerHash) ?? { ledgerIndex: validation.ledgerIndex, keys: new Set<string>() };
    entry.keys.add(validation.publicKey);
    this.validatedBy.set(validation.ledgerHash, entry);
    if (entry.keys.size >= this.options.validators.quorum) this.newestValidated = Math.max(this.newestValidated, entry.ledgerIndex);
    if (this.validatedBy.size > KEPT_LEDGERS) {
      const oldest = [...this.validatedBy].sort(([, a], [, b]) => a.ledgerIndex - b.ledgerIndex)[0]![0];
      this.validatedBy.delete(oldest);
    }
  }

  /**
   * Whether `ledgerHash` is the network's ledger at `ledgerIndex`: the proof as text, or
   * undefined when none came (validations awaited up to the configured wait).
   */
  async prove(ledgerIndex: number, ledgerHash: string, signal: AbortSignal): Promise<string | undefined> {
    const hash = ledgerHash.toUpperCase();
    const { validators, endpoints } = this.options;
    let proof: string | undefined;
    if (validators) {
      const deadline = Date.now() + (this.options.validationWaitMs ?? DEFAULT_VALIDATION_WAIT_MS);
      while (!signal.aborted) {
        const count = this.validatedBy.get(hash)?.keys.size ?? 0;
        if (count >= validators.quorum) {
          proof = `validated by ${count} of ${validators.keys.length} trusted validators`;
          break;
        }
        // The network validated a later ledger already: validations of this hash (withheld, or never
        // made, for a fork) will not come now, and waiting would hold back every ledger behind it.
        if (this.newestValidated > ledgerIndex) {
          this.told(`ledger ${ledgerIndex} ${hash} not proven: ${count} of the ${validators.quorum} trusted validations needed came, and ledger ${this.newestValidated} is validated already`, 'validations');
          return undefined;
        }
        if (Date.now() >= deadline) {
          this.told(`ledger ${ledgerIndex} ${hash} not proven: ${count} of the ${validators.quorum} trusted validations needed came`, 'validations');
          return undefined;
        }
        await sleep(100, signal);
      }
    } else if (endpoints.length >= 2) {
      const answers = await Promise.all(endpoints.map((url) => this.options.ledgerHashFrom(url, ledgerIndex).catch(() => undefined)));
      const agreeing = answers.filter((answer) => answer === hash).length;
      const disagreeing = answers.filter((answer) => answer !== undefined && answer !== hash).length;
      if (agreeing < 2 || disagreeing > 0) {
        this.told(`ledger ${ledgerIndex} ${hash} not proven: ${agreeing} endpoints name it, ${disagreeing} name another hash`, 'endpoints');
        return undefined;
      }
      proof = `named by ${agreeing} of ${endpoints.length} endpoints`;
    } else {
      this.told(`ledger ${ledgerIndex} not proven: nothing proves an anchor with no -validators list and a single -endpoint`, 'nothing');
      return undefined;
    }
    if (proof === undefined) return undefined;
    this.state = `ledger ${ledgerIndex} ${proof}`;
    this.lastFailure = undefined;
    return proof;
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
