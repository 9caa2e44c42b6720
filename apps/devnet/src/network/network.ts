/**
 * The network a devnet plays (DESIGN §8): a validator-list publisher and its validators, each a
 * master key speaking through the signing key its newest manifest names.
 *
 * - Every online, unrevoked validator validates each ledger the devnet closes (or replays) with
 *   the signing key it holds at that moment; the validations are signed only when someone reads
 *   them (the validations stream), once per ledger.
 * - The publisher signs the list its site serves; a list keeps the manifests it was published
 *   with, so a rotation is learnt from the `manifest` command until the next list carries it.
 * - The devnet's own view of this network (a ValidatorTrust fed the lists it publishes and the
 *   manifests it makes) gives the UNL it votes over and the quorum `server_info` states.
 */
import {
  encodeNodePublicKey,
  REVOKED_SEQUENCE,
  signManifest,
  signPublishedList,
  signValidation,
  unixMsToRippleTime,
  ValidatorTrust,
  type BlobToSign,
  type ChainProfile,
  type DevnetNetworkKeys,
  type KeyPair,
} from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';
import type { NegativeUnlState, NegativeUnlVote, NegativeUnlVoteInput, NegativeUnlVoter } from '../engine/negative-unl';
import type { JsonObject } from '../engine/types';
import { negativeUnlVote } from './negative-unl-vote';

/** A list the devnet publishes is good for a year unless told otherwise. */
export const DEFAULT_LIST_LIFETIME_SECONDS = 365 * 24 * 60 * 60;
/** rippled reads a list's sequence, effective and expiration as JSON integers. */
const MAX_LIST_NUMBER = 2_147_483_647;
/** rippled FLAG_LEDGER_INTERVAL: the vote scores this many ledgers. */
const SCORED_LEDGERS = 256;
/** Ledgers whose validators are remembered: the vote's window and some. */
const KEPT_RECORDS = 2 * SCORED_LEDGERS;
/** Ledgers whose signed validations are kept for late subscribers. */
const KEPT_SIGNED = 16;
/** rippled's quorum when no list is in force (size_t max, printed as a 32-bit unsigned). */
const UNREACHABLE_QUORUM = 0xffffffff;

export interface NetworkValidator {
  /** Position in the network, from 0. */
  readonly index: number;
  readonly master: KeyPair;
  /** The key its newest manifest names; undefined once revoked. */
  signing: KeyPair | undefined;
  manifestSequence: number;
  /** Its newest manifest, uppercase hex. */
  manifest: string;
  online: boolean;
  revoked: boolean;
}

/** A blob's dates and sequence as published (seconds since the XRP Ledger epoch). */
export interface ListTerms {
  sequence: number;
  effective?: number;
  expiration: number;
}

export interface PublishedListInfo extends ListTerms {
  version: 1 | 2;
  /** The blob published beside the current one, taking effect later (version 2). */
  pending?: ListTerms & { effective: number };
}

/** `devnet_publish`: times are seconds relative to now. */
export interface PublishRequest {
  sequence?: number;
  version?: 1 | 2;
  expiration?: number;
  effective?: number;
  /** Indexes of the validators to list (default: every one not revoked). */
  validators?: number[];
  pending?: { sequence?: number; effective: number; expiration?: number };
}

/** One validator's validation of one ledger. */
interface Signer {
  masterKey: string;
  signing: KeyPair;
}

export interface NetworkOptions {
  /** Seconds since the XRP Ledger epoch. */
  now?: () => number;
}

export class DevnetNetwork implements NegativeUnlVoter {
  readonly publisherKey: string;
  readonly validators: readonly NetworkValidator[];
  private readonly publisher: { signing: KeyPair; manifest: string };
  private readonly now: () => number;
  private readonly trust: ValidatorTrust;
  private siteUrl: string | undefined;
  private published!: { document: JsonObject; info: PublishedListInfo };
  /** Who validated each recent ledger, by ledger index (with its hash). */
  private readonly signers = new Map<number, { hash: string; signers: Signer[] }>();
  private readonly signed = new Map<string, JsonObject[]>();

  constructor(
    readonly profile: ChainProfile,
    private readonly keys: DevnetNetworkKeys,
    options: NetworkOptions = {},
  ) {
    this.now = options.now ?? (() => unixMsToRippleTime(Date.now()));
    this.publisherKey = keys.publisher.master.publicKey.toUpperCase();
    this.publisher = { signing: keys.publisher.signing, manifest: signManifest({ master: keys.publisher.master, signing: keys.publisher.signing, sequence: 1 }) };
    this.validators = keys.validators.map((holder, index) => ({
      index,
      master: holder.master,
      signing: holder.signing,
      manifestSequence: 1,
      manifest: signManifest({ master: holder.master, signing: holder.signing, sequence: 1 }),
      online: true,
      revoked: false,
    }));
    this.trust = new ValidatorTrust({ publisherKeys: [this.publisherKey] });
    this.publish({ sequence: 1 });
  }

  /** The URL the list is served at, once the server listens. */
  get site(): string | undefined {
    return this.siteUrl;
  }

  set site(url: string | undefined) {
    this.siteUrl = url;
  }

  /** The signed document the publisher site serves now. */
  get document(): JsonObject {
    return this.published.document;
  }

  get list(): PublishedListInfo {
    return this.published.info;
  }

  validator(index: unknown): NetworkValidator {
    const validator = typeof index === 'number' && Number.isInteger(index) ? this.validators[index] : undefined;
    if (validator === undefined) {
      throw new InvalidParams(`validator must be an index from 0 to ${this.validators.length - 1}, got ${JSON.stringify(index)}`, 'validator');
    }
    return validator;
  }

  // ---------------------------------------------------------------- the controls

  /** A new signing key under the next manifest; validations use it from the next ledger on. Lists keep the old manifest until republished. */
  rotate(index: number): NetworkValidator {
    const validator = this.unrevoked(index, 'rotate');
    const signing = this.keys.nextSigningKey(`validator ${index + 1}`);
    validator.signing = signing;
    validator.manifestSequence += 1;
    validator.manifest = signManifest({ master: validator.master, signing, sequence: validator.manifestSequence });
    this.trust.applyManifest(validator.manifest);
    return validator;
  }

  /** The master key revoked for good: a revocation manifest, and no more validations. */
  revoke(index: number): NetworkValidator {
    const validator = this.unrevoked(index, 'revoke');
    validator.signing = undefined;
    validator.manifestSequence = REVOKED_SEQUENCE;
    validator.manifest = signManifest({ master: validator.master, sequence: REVOKED_SEQUENCE });
    validator.revoked = true;
    this.trust.applyManifest(validator.manifest);
    return validator;
  }

  setOnline(index: number, online: boolean): NetworkValidator {
    const validator = online ? this.unrevoked(index, 'bring online') : this.validator(index);
    validator.online = online;
    return validator;
  }

  private unrevoked(index: number, action: string): NetworkValidator {
    const validator = this.validator(index);
    if (validator.revoked) throw new InvalidParams(`validator ${index} revoked its key: there is nothing to ${action}`, 'validator');
    return validator;
  }

  /** Publishes a new list (see PublishRequest); the devnet's own view takes it as rippled would. */
  publish(request: PublishRequest): PublishedListInfo {
    const now = this.now();
    const version = request.version ?? 1;
    if (request.pending !== undefined && version !== 2) throw new InvalidParams('pending needs version 2: a version 1 list holds one blob', 'pending');
    const sequence = request.sequence ?? (this.published ? this.published.info.sequence + 1 : 1);
    const terms = listTerms(now, sequence, request.effective, request.expiration ?? DEFAULT_LIST_LIFETIME_SECONDS, 'current');
    const listed = this.listedValidators(request.validators);
    const blobs: BlobToSign[] = [{ ...terms, validators: listed }];
    const info: PublishedListInfo = { ...terms, version };
    if (request.pending !== undefined) {
      const pendingSequence = request.pending.sequence ?? sequence + 1;
      const pendingEffective = request.pending.effective;
      const pending = listTerms(now, pendingSequence, pendingEffective, request.pending.expiration ?? pendingEffective + DEFAULT_LIST_LIFETIME_SECONDS, 'pending');
      blobs.push({ ...pending, validators: listed });
      info.pending = { ...pending, effective: pending.effective ?? now };
    }
    const document = signPublishedList({ manifest: this.publisher.manifest, signing: this.publisher.signing, publisherKey: this.publisherKey, blobs, version });
    this.published = { document, info };
    this.trust.applyList(document, { site: this.siteUrl ?? 'devnet', now });
    return info;
  }

  private listedValidators(indexes: number[] | undefined): BlobToSign['validators'] {
    const chosen = indexes === undefined ? this.validators.filter((validator) => !validator.revoked) : [...new Set(indexes)].map((index) => this.validator(index));
    return chosen.map((validator) => ({ masterKey: validator.master.publicKey.toUpperCase(), manifest: Buffer.from(validator.manifest, 'hex').toString('base64') }));
  }

  // ---------------------------------------------------------------- validations

  /** The validators that validate this ledger: those online and not revoked when it is first asked (at its close on a live chain). */
  private signersOf(ledger: { ledgerIndex: number; hash: string }): Signer[] {
    const known = this.signers.get(ledger.ledgerIndex);
    if (known && known.hash === ledger.hash) return known.signers;
    const signers = this.validators
      .filter((validator) => validator.online && !validator.revoked && validator.signing !== undefined)
      .map((validator) => ({ masterKey: validator.master.publicKey.toUpperCase(), signing: validator.signing! }));
    this.signers.delete(ledger.ledgerIndex);
    this.signers.set(ledger.ledgerIndex, { hash: ledger.hash, signers });
    if (this.signers.size > KEPT_RECORDS) this.signers.delete(this.signers.keys().next().value!);
    return signers;
  }

  /** Records who validates a ledger the devnet just closed (the vote scores these records). */
  ledgerClosed(ledger: { ledgerIndex: number; hash: string }): void {
    this.signersOf(ledger);
  }

  /**
   * rippled NetworkOPs::pubValidation's message for each validation of the ledger, signed at its
   * close time; `ledger_index` is a number (API v2 and later), see `validationForApi`.
   */
  validations(ledger: { ledgerIndex: number; hash: string; closeTime: number }): readonly JsonObject[] {
    const cached = this.signed.get(ledger.hash);
    if (cached) return cached;
    const messages = this.signersOf(ledger).map((signer) => {
      const data = signValidation(this.profile, signer.signing, { ledgerIndex: ledger.ledgerIndex, ledgerHash: ledger.hash, signingTime: ledger.closeTime });
      const fields = this.profile.codec.decode(data);
      const signingKey = signer.signing.publicKey.toUpperCase();
      const message: JsonObject = {
        type: 'validationReceived',
        validation_public_key: encodeNodePublicKey(signingKey, this.profile),
        ledger_hash: ledger.hash,
        signature: String(fields.Signature),
        full: true,
        flags: Number(fields.Flags),
        signing_time: ledger.closeTime,
        data,
        ledger_index: ledger.ledgerIndex,
      };
      // rippled: master_key only when the validation is signed by another key than the master.
      if (signer.masterKey !== signingKey) message.master_key = encodeNodePublicKey(signer.masterKey, this.profile);
      return message;
    });
    this.signed.set(ledger.hash, messages);
    if (this.signed.size > KEPT_SIGNED) this.signed.delete(this.signed.keys().next().value!);
    return messages;
  }

  // ---------------------------------------------------------------- trust, as the devnet's node sees it

  /** The master keys trusted now (listed by the list in force, not revoked). */
  trusted(): ReadonlySet<string> {
    this.trust.update(this.now());
    return this.trust.trusted();
  }

  /** rippled ValidatorList::quorum over a ledger's negative UNL; 4294967295 while no list is in force, as rippled prints it. */
  quorum(negativeUnl: ReadonlySet<string>): number {
    this.trust.update(this.now());
    const quorum = this.trust.quorum(negativeUnl);
    return Number.isFinite(quorum) ? quorum : UNREACHABLE_QUORUM;
  }

  /**
   * The vote on the ledger before a flag ledger. rippled scores the 256 ledgers before that one and
   * votes only once the skip list reaches back that far (the first vote at ledger 512); the devnet
   * closed every ledger since genesis itself, so it votes from the first flag ledger, counting
   * ledgers before genesis as validated by nobody.
   */
  vote(input: NegativeUnlVoteInput): NegativeUnlVote {
    const unl = this.trusted();
    if (unl.size === 0) return {};
    const scores = new Map<string, number>();
    for (let ledgerIndex = input.ledgerIndex - 1 - SCORED_LEDGERS; ledgerIndex <= input.ledgerIndex - 2; ledgerIndex++) {
      for (const signer of this.signers.get(ledgerIndex)?.signers ?? []) {
        if (unl.has(signer.masterKey)) scores.set(signer.masterKey, (scores.get(signer.masterKey) ?? 0) + 1);
      }
    }
    return negativeUnlVote({ unl, scores, negativeUnl: input.negativeUnl, parentHash: input.parentHash });
  }

  // ---------------------------------------------------------------- reading

  /** The validator whose master key or current signing key this is (uppercase hex). */
  validatorByKey(publicKey: string): NetworkValidator | undefined {
    return this.validators.find((validator) => validator.master.publicKey.toUpperCase() === publicKey || validator.signing?.publicKey.toUpperCase() === publicKey);
  }

  /** `devnet_network`: the publisher, its list, and each validator with its place in the negative UNL. */
  describe(negativeUnl: NegativeUnlState | undefined): JsonObject {
    const disabled = new Set(negativeUnl?.disabled ?? []);
    return {
      publisher: this.publisherKey,
      ...(this.siteUrl === undefined ? {} : { site: this.siteUrl }),
      list: this.published.info,
      quorum: this.quorum(disabled),
      validators: this.validators.map((validator) => {
        const masterKey = validator.master.publicKey.toUpperCase();
        return {
          index: validator.index,
          master_key: masterKey,
          master_key_n: encodeNodePublicKey(masterKey, this.profile),
          ...(validator.signing === undefined
            ? {}
            : { signing_key: validator.signing.publicKey.toUpperCase(), signing_key_n: encodeNodePublicKey(validator.signing.publicKey, this.profile) }),
          manifest_sequence: validator.manifestSequence,
          online: validator.online,
          revoked: validator.revoked,
          negative_unl: disabled.has(masterKey),
        };
      }),
      negative_unl: {
        disabled: [...disabled],
        ...(negativeUnl?.toDisable === undefined ? {} : { validator_to_disable: negativeUnl.toDisable }),
        ...(negativeUnl?.toReEnable === undefined ? {} : { validator_to_re_enable: negativeUnl.toReEnable }),
      },
    };
  }
}

/** A blob's absolute terms from times relative to now; InvalidParams when rippled would refuse them. */
function listTerms(now: number, sequence: number, effectiveIn: number | undefined, expirationIn: number, which: string): ListTerms {
  const field = which === 'current' ? '' : `${which}.`;
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > MAX_LIST_NUMBER) throw new InvalidParams(`${field}sequence must be an integer from 1 to ${MAX_LIST_NUMBER}`, `${field}sequence`);
  const effective = effectiveIn === undefined ? undefined : now + effectiveIn;
  const expiration = now + expirationIn;
  for (const [name, value] of [
    ['effective', effective],
    ['expiration', expiration],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > MAX_LIST_NUMBER)) {
      throw new InvalidParams(`${field}${name} must be whole seconds from now that land between the XRP Ledger epoch and ${MAX_LIST_NUMBER}`, `${field}${name}`);
    }
  }
  if (expiration <= (effective ?? 0)) throw new InvalidParams(`${field}expiration must come after ${field}effective`, `${field}expiration`);
  return { sequence, ...(effective === undefined ? {} : { effective }), expiration };
}
