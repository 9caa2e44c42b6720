import { randomUUID } from 'node:crypto';
import type { ChainProfile } from '@ledger-node/chain';
import type { KeystoreServiceService, LedgerStoreServiceService } from '@ledger-node/contracts';
import { hashTransaction, submitOutcome } from '@ledger-node/chain';
import { InvalidParams, NoLocalAccount, NotFound, UpstreamUnavailable } from '@ledger-node/errors';
import { currentCallScope, throwIfCancelled, type Client } from '@ledger-node/grpc';
import type { Logger } from '@ledger-node/telemetry';
import { UpstreamRequestError, type SubmitResult as SubmitAnswer, type UpstreamClient } from '@ledger-node/upstream';
import type { SubmissionBook, SubmissionRecord } from './tracking/book';

/** rippled: LastLedgerSequence a few ledgers ahead bounds how long a transaction can stay in doubt. */
export const lastLedgerOffset = 20;
/** Highest native amount (all drops there are: 10^17). */
const maxDrops = 10n ** 17n;
/** A fee above this is refused as a typo (1 native unit). */
const maxFeeDrops = 1_000_000n;

export interface PaymentRequest {
  /** Local account address or nickname. */
  from: string;
  to: string;
  valueDrops: bigint;
  feeDrops?: bigint;
  sequence?: number;
}

export interface SignedPayment {
  blob: string;
  hash: string;
  account: string;
  sequence: number;
  feeDrops: bigint;
  lastLedgerSequence: number;
  openLedgerIndex: number;
}

/** A submission's record, and whether the transaction is or will be in a ledger (its hash is the answer). */
export interface SubmitResult {
  record: SubmissionRecord;
  accepted: boolean;
}

/**
 * Builds, autofills, signs (through the keystore), submits and records payments. Sends from one
 * account run one at a time, so each takes the next sequence after every pending one.
 */
export class Payments {
  private readonly accountLocks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly profile: ChainProfile,
    private readonly upstream: UpstreamClient,
    private readonly keystore: Client<typeof KeystoreServiceService>,
    private readonly ledgerStore: Client<typeof LedgerStoreServiceService>,
    private readonly book: SubmissionBook,
    private readonly logger: Logger,
  ) {}

  async sign(request: PaymentRequest): Promise<SignedPayment> {
    const address = await this.localAddress(request.from);
    return this.exclusive(address, () => this.build(address, request));
  }

  async send(request: PaymentRequest): Promise<SubmitResult> {
    const address = await this.localAddress(request.from);
    return this.exclusive(address, async () => {
      const signed = await this.build(address, request);
      return this.submit(signed);
    });
  }

  /** A transaction signed elsewhere: decoded and its signature checked before it goes upstream. */
  async submitSigned(blobHex: string): Promise<SubmitResult> {
    let tx: Record<string, any>;
    try {
      tx = this.profile.codec.decode(blobHex);
    } catch (error) {
      // The codec's reason, in plain words (libs/chain codec.ts), without its own "cannot decode: ".
      throw new InvalidParams(`the signed transaction does not decode: ${(error as Error).message.replace(/^cannot decode: /, '')}`, 'signedTransaction');
    }
    const { TxnSignature: signature, SigningPubKey: publicKey, ...unsigned } = tx;
    if (typeof signature !== 'string' || typeof publicKey !== 'string' || publicKey === '') {
      throw new InvalidParams('the transaction is not single-signed (TxnSignature and SigningPubKey are required)', 'signedTransaction');
    }
    let valid = false;
    try {
      valid = this.profile.keys.verify(this.profile.codec.encodeForSigning({ ...unsigned, SigningPubKey: publicKey }), signature, publicKey);
    } catch {
      valid = false;
    }
    if (!valid) throw new InvalidParams('the transaction signature does not verify', 'signedTransaction');
    if (this.profile.keys.deriveAddress(publicKey) !== tx.Account) {
      // A regular key may sign for an account; the upstream decides, the signature itself is sound.
      this.logger.debug({ account: tx.Account }, 'transaction signed by a key other than the master key');
    }
    const openLedgerIndex = await this.openLedgerIndex();
    return this.submit({
      blob: blobHex.toUpperCase(),
      hash: hashTransaction(blobHex),
      account: String(tx.Account),
      sequence: Number(tx.Sequence ?? 0),
      feeDrops: BigInt(tx.Fee ?? 0),
      lastLedgerSequence: Number(tx.LastLedgerSequence ?? 0),
      openLedgerIndex,
    });
  }

  /**
   * After a restart: hands the pending transactions to the upstream again, in case it lost them
   * while this service was down (an upstream that has them answers with a harmless duplicate result).
   */
  async resubmitPending(): Promise<void> {
    for (const record of this.book.open()) {
      if (!record.blob) continue;
      try {
        const answer = await this.upstream.request('submit', { tx_blob: record.blob });
        this.logger.info({ hash: record.hash, engineResult: answer.engine_result }, 'pending transaction handed to the upstream again');
      } catch (error) {
        this.logger.warn({ err: error, hash: record.hash }, 'could not resubmit a pending transaction; tracking continues');
      }
    }
  }

  private async build(address: string, request: PaymentRequest): Promise<SignedPayment> {
    if (!this.profile.codec.isValidAddress(request.to)) throw new InvalidParams(`"to" is not a valid ${this.profile.displayName} address: ${request.to}`, 'to');
    if (request.valueDrops <= 0n || request.valueDrops > maxDrops) throw new InvalidParams(`"value" must be from 1 to ${maxDrops} drops`, 'value');
    const feeDrops = request.feeDrops ?? this.profile.defaultFee;
    if (feeDrops < 0n || feeDrops > maxFeeDrops) throw new InvalidParams(`"fee" must be from 0 to ${maxFeeDrops} drops`, 'fee');
    const [sequence, openLedgerIndex] = await Promise.all([
      request.sequence ?? this.nextSequence(address),
      this.openLedgerIndex(),
    ]);
    const lastLedgerSequence = openLedgerIndex + lastLedgerOffset;
    const txJson = {
      TransactionType: 'Payment',
      Account: address,
      Destination: request.to,
      Amount: request.valueDrops.toString(),
      Fee: feeDrops.toString(),
      Sequence: sequence,
      LastLedgerSequence: lastLedgerSequence,
      Flags: 0,
    };
    const signed = await this.keystore.signTransaction({ account: address, txJson: JSON.stringify(txJson) });
    return {
      blob: signed.signedBlob.toString('hex').toUpperCase(),
      hash: signed.hash.toString('hex').toUpperCase(),
      account: address,
      sequence,
      feeDrops,
      lastLedgerSequence,
      openLedgerIndex,
    };
  }

  /**
   * Hands a signed transaction to the upstream and records what its answer means (libs/chain
   * outcomes.ts). A known hash answers with what is known: a validated one is not submitted
   * again, and an accepted one stays accepted whatever a later answer says (a tefPAST_SEQ to a
   * resubmission means it applied).
   */
  private async submit(signed: SignedPayment): Promise<SubmitResult> {
    // A caller gone (or out of time) before anything left gets nothing sent in its name.
    throwIfCancelled(currentCallScope()?.signal);
    const known = this.book.getByHash(signed.hash);
    if (known?.state === 'validated') return { record: known, accepted: true };
    const acceptedBefore = known?.state === 'pending';
    if (!acceptedBefore) this.book.checkRoomFor(signed.account);
    const record: SubmissionRecord = known ?? {
      id: randomUUID(),
      hash: signed.hash,
      state: 'held',
      engineResult: '',
      engineResultMessage: '',
      submittedAtUnixMs: Date.now(),
      account: signed.account,
      sequence: signed.sequence,
      lastLedgerSequence: signed.lastLedgerSequence,
      openLedgerIndex: signed.openLedgerIndex,
    };
    if (!acceptedBefore) record.state = 'held';
    record.blob = signed.blob;
    // Recorded before it leaves: a crash right after the submit still tracks it.
    this.book.save(record);
    let answer: SubmitAnswer;
    try {
      answer = await this.upstream.request('submit', { tx_blob: signed.blob });
    } catch (error) {
      if (error instanceof UpstreamRequestError) {
        // The upstream refused the request itself: nothing was applied.
        const refusal = error.errorMessage ?? error.errorCode;
        if (!acceptedBefore) Object.assign(record, { state: 'rejected', engineResult: error.errorCode, engineResultMessage: refusal });
        this.book.save(record);
        throw new InvalidParams(`the upstream refused the transaction: ${refusal}`, 'transaction');
      }
      // No answer: it may have arrived or not. It stays tracked until its LastLedgerSequence passes.
      const reason = (error as Error).message;
      record.engineResultMessage = `no answer from the upstream: ${reason}`;
      this.book.save(record);
      throw new UpstreamUnavailable(`${reason}; transaction ${record.hash} may still be applied: follow it by its hash`, { hash: record.hash });
    }
    const engineResult = answer.engine_result;
    const outcome = submitOutcome(engineResult);
    if (outcome.accepted || !acceptedBefore) {
      Object.assign(record, { state: outcome.state, engineResult, engineResultMessage: answer.engine_result_message });
      this.book.save(record);
    }
    this.logger.info({ hash: record.hash, account: record.account, sequence: record.sequence, engineResult, state: record.state }, 'transaction submitted');
    return { record, accepted: outcome.accepted || acceptedBefore };
  }

  private async nextSequence(address: string): Promise<number> {
    let accountSequence: number;
    try {
      const info = await this.upstream.request('account_info', { account: address, ledger_index: 'current' });
      accountSequence = info.account_data.Sequence;
    } catch (error) {
      if (error instanceof UpstreamRequestError && error.errorCode === 'actNotFound') {
        throw new NotFound(`account ${address} does not exist on the network yet: fund it first`);
      }
      throw error;
    }
    const open = this.book.highestOpenSequence(address);
    return open !== undefined && open >= accountSequence ? open + 1 : accountSequence;
  }

  /**
   * The ledger being built: the upstream's open ledger, but never at or below a ledger this node has
   * already stored — an upstream that lags (e.g. after failing over) would otherwise yield a
   * LastLedgerSequence the tracker sees passed at once.
   */
  private async openLedgerIndex(): Promise<number> {
    const [upstream, store] = await Promise.all([
      this.upstream.request('ledger_current', {}).catch((error: unknown) => error as Error),
      this.ledgerStore.getStatus({}).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'ledger-store unreachable; using the upstream open ledger alone');
        return undefined;
      }),
    ]);
    const stored = store?.highestLedgerIndex;
    if (upstream instanceof Error) {
      // A transaction signed elsewhere is still tracked from the ledger after the stored tip.
      if (stored === undefined) throw upstream;
      return stored + 1;
    }
    return Math.max(upstream.ledger_current_index, (stored ?? 0) + 1);
  }


  /** `from` as an address of a local account (nicknames resolved through the keystore). */
  private async localAddress(from: string): Promise<string> {
    const { accounts } = await this.keystore.listAccounts({});
    const account = accounts.find((candidate) => candidate.address === from || (candidate.nickname !== '' && candidate.nickname === from));
    if (!account) throw new NoLocalAccount(`no local account ${from}`);
    return account.address;
  }

  private exclusive<T>(account: string, task: () => Promise<T>): Promise<T> {
    const previous = this.accountLocks.get(account) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    this.accountLocks.set(account, settled);
    void settled.then(() => {
      if (this.accountLocks.get(account) === settled) this.accountLocks.delete(account);
    });
    return run;
  }
}
