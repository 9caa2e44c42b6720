/**
 * The devnet chain: a genesis ledger, an open ledger that takes transactions as they are
 * submitted, and closed ledgers (each validated at once) kept with a snapshot of their state.
 * Like rippled in standalone mode, transactions apply to the open ledger in arrival order and a
 * close seals exactly that ledger; transactions with a future sequence are held and retried.
 */
import {
  hashLedgerHeader,
  hashTransaction,
  isFlagLedger,
  keylet,
  StateTree,
  transactionTreeRoot,
  unixMsToRippleTime,
  ZERO_HASH,
  type ChainProfile,
  type LedgerHeader,
} from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { TransactionProcessor, type ApplyOutcome, type Candidate } from './apply';
import { dirEntries, u64Hex } from './directory';
import { LedgerKeys } from './keys';
import { MetadataWriter } from './metadata';
import { applyUnlModify, negativeUnlState, supportsNegativeUnl, unlModifyTransaction, updateNegativeUnl, type NegativeUnlVoter } from './negative-unl';
import { definitionsOf, TrustLineFlag } from './protocol';
import { ResultCatalog, type EngineResult } from './results';
import { multiSigningDataOf, signingDataOf } from './signing';
import type { ChainSettings } from './rules/context';
import { chainSnapshot, type ChainSnapshot, type RestoredChain } from './snapshot';
import { cloneEntry, OpenLedgerState, Sandbox, type LedgerEntry } from './state';
import { flagsOf, lineSide } from './trustLines';
import type {
  ClosedLedger,
  ClosedTransaction,
  DevnetChain,
  FeeSettings,
  JsonObject,
  SimulateRefusal,
  SimulateResult,
  StateEntry,
  SubmitResult,
  TrustLineView,
} from './types';

export interface DevnetChainOptions {
  fees?: Partial<FeeSettings>;
  /**
   * Most transactions an open ledger takes (0: no limit); past it, a transaction is queued with
   * terQUEUED and applied in a coming ledger, as rippled's TxQ does once the open ledger is full.
   */
  openLedgerLimit?: number;
  /** Current time in seconds since the ripple epoch. */
  now?: () => number;
  /**
   * The network's negative-UNL vote, asked at each flag ledger (unset: the chain keeps no negative
   * UNL). Ignored on a chain whose format lacks the negative UNL's fields.
   */
  negativeUnlVoter?: NegativeUnlVoter;
  /** A chain saved by an earlier run (snapshot.ts), continued from its last ledger instead of a new genesis. */
  restore?: RestoredChain;
}

/** rippled `ledgerDefaultTimeResolution` for a single-node chain. */
const CLOSE_TIME_RESOLUTION = 10;
/** rippled LocalTxs `holdLedgers`: a held transaction is retried for this many ledgers. */
const HOLD_LEDGERS = 5;
/** rippled keeps the hashes of the last 256 ledgers in the skip list. */
const SKIP_LIST_LENGTH = 256;
/** FeeSettings `ReferenceFeeUnits` of a ledger without the XRPFees amendment. */
const REFERENCE_FEE_UNITS = 10;

const HEX_HASH = /^[0-9A-Fa-f]{64}$/;
/** rippled `STTx::maxMultiSigners` with ExpandedSignerList. */
const MAX_MULTI_SIGNERS = 32;

interface OpenTransaction {
  candidate: Candidate;
  txBlob: string;
  meta: JsonObject;
}

interface HeldTransaction {
  candidate: Candidate;
  txBlob: string;
  account: string;
  sequence: number;
  /** Open ledger index when it was first held. */
  heldAt: number;
  /** Queued because the open ledger was full (terQUEUED), not for a retry result. */
  queued?: boolean;
}

interface LedgerRecord {
  ledger: ClosedLedger;
  /** Absent for the ledgers of a restored chain before its last: their state was not kept. */
  state?: StateTree;
}

/** rippled `effCloseTime`: round to the resolution, and stay after the parent's close time. */
export function effectiveCloseTime(closeTime: number, parentCloseTime: number): number {
  const shifted = closeTime + CLOSE_TIME_RESOLUTION / 2;
  const rounded = shifted - (shifted % CLOSE_TIME_RESOLUTION);
  return Math.max(rounded, parentCloseTime + 1);
}

export function createDevnetChain(profile: ChainProfile, options: DevnetChainOptions = {}): DevnetChain {
  return new Devnet(profile, options);
}

class Devnet implements DevnetChain {
  readonly profile: ChainProfile;
  readonly fees: FeeSettings;

  private readonly now: () => number;
  private readonly definitions: XrplDefinitionsBase;
  private readonly keys: LedgerKeys;
  private readonly settings: ChainSettings;
  private readonly results: ResultCatalog;
  private readonly processor: TransactionProcessor;
  private readonly metadata: MetadataWriter;
  private readonly negativeUnlVoter: NegativeUnlVoter | undefined;
  private readonly state: OpenLedgerState;
  private readonly ledgers: LedgerRecord[] = [];
  private readonly ledgerIndexByHash = new Map<string, number>();
  private readonly transactionsByHash = new Map<string, { ledgerIndex: number; position: number }>();
  private readonly listeners = new Set<(ledger: ClosedLedger) => void>();
  private openTransactions: OpenTransaction[] = [];
  private openTransactionHashes = new Set<string>();
  private held = new Map<string, HeldTransaction>();
  private feesBurned = 0n;
  private readonly openLedgerLimit: number;

  constructor(profile: ChainProfile, options: DevnetChainOptions) {
    this.profile = profile;
    this.openLedgerLimit = options.openLedgerLimit ?? 0;
    this.fees = {
      baseFee: options.fees?.baseFee ?? profile.baseFee,
      reserveBase: options.fees?.reserveBase ?? profile.reserveBase,
      reserveIncrement: options.fees?.reserveIncrement ?? profile.reserveIncrement,
    };
    this.now = options.now ?? (() => unixMsToRippleTime(Date.now()));
    this.keys = new LedgerKeys(profile);
    const definitions = definitionsOf(profile);
    this.definitions = definitions;
    const accountOne = new Uint8Array(20);
    accountOne[19] = 1;
    this.settings = {
      profile,
      keys: this.keys,
      fees: this.fees,
      trustLineType: profile.trustLineEntryType,
      noAccount: profile.codec.encodeAccountId(accountOne),
      zeroAccount: profile.codec.encodeAccountId(new Uint8Array(20)),
    };
    this.results = new ResultCatalog(definitions, profile.nativeCurrency);
    this.metadata = new MetadataWriter(profile.codec, definitions, new Set(['AccountRoot', 'Offer', profile.trustLineEntryType, 'SignerList']), profile.trustLineEntryType);
    this.processor = new TransactionProcessor(this.settings, this.results, this.metadata);
    this.negativeUnlVoter = supportsNegativeUnl(definitions) ? options.negativeUnlVoter : undefined;
    this.state = new OpenLedgerState(profile.codec, new StateTree());
    if (options.restore) this.restore(options.restore);
    else this.createGenesis();
  }

  /** Continues a saved chain: its ledgers as they closed, the open ledger on its last one's state. */
  private restore(restored: RestoredChain): void {
    for (const { index, blob } of restored.state.entries()) {
      const blobHex = blob.toString('hex').toUpperCase();
      this.state.put(index, this.profile.codec.decode(blobHex), blobHex);
    }
    restored.ledgers.forEach(({ header, hash, transactions }, position) => {
      const closed = transactions.map((tx, index): ClosedTransaction => {
        const txJson: JsonObject = this.profile.codec.decode(tx.txBlob);
        return { ...tx, txJson, metaJson: this.metaJsonOf(txJson, tx.metaBlob), index };
      });
      const last = position === restored.ledgers.length - 1;
      this.store({ header, hash, transactions: closed }, last ? this.state.tree.snapshot() : undefined);
    });
  }

  /** The chain to save (snapshot.ts): every closed ledger and the last one's state. */
  snapshot(): ChainSnapshot {
    return chainSnapshot(
      this.profile,
      this.ledgers.map((record) => record.ledger),
      this.lastClosed().state!,
    );
  }

  // ---------------------------------------------------------------- genesis and closing

  /** rippled `Ledger(create_genesis_t)`: the genesis account holds every native unit; fees in FeeSettings. */
  private createGenesis(): void {
    const genesis = this.profile.genesis;
    this.state.put(this.keys.account(genesis.address), {
      LedgerEntryType: 'AccountRoot',
      Flags: 0,
      Account: genesis.address,
      Balance: genesis.balanceDrops.toString(),
      OwnerCount: 0,
      Sequence: 1,
      PreviousTxnID: ZERO_HASH,
      PreviousTxnLgrSeq: 0,
    });
    this.state.put(this.keys.feeSettings(), {
      LedgerEntryType: 'FeeSettings',
      Flags: 0,
      BaseFee: u64Hex(this.fees.baseFee),
      ReferenceFeeUnits: REFERENCE_FEE_UNITS,
      ReserveBase: Number(this.fees.reserveBase),
      ReserveIncrement: Number(this.fees.reserveIncrement),
    });
    const header: LedgerHeader = {
      ledgerIndex: 1,
      totalCoins: genesis.balanceDrops,
      parentHash: ZERO_HASH,
      transactionHash: ZERO_HASH,
      accountHash: this.state.tree.root(),
      parentCloseTime: 0,
      closeTime: 0,
      closeTimeResolution: CLOSE_TIME_RESOLUTION,
      closeFlags: 0,
    };
    this.store({ header, hash: hashLedgerHeader(header), transactions: [] }, this.state.tree.snapshot());
  }

  close(closeTime?: number): ClosedLedger {
    const parent = this.lastClosed().ledger;
    const ledgerIndex = parent.header.ledgerIndex + 1;
    const requested = closeTime ?? this.now();
    if (!Number.isSafeInteger(requested) || requested < 0 || requested > 0xffffffff) {
      throw new InvalidParams(`close time must be seconds since the ripple epoch (u32), got ${requested}`, 'closeTime');
    }
    // rippled buildLedger: the negative UNL first, then the ledger's transactions, then the skip list.
    if (this.negativeUnlVoter && isFlagLedger(ledgerIndex)) this.buildFlagLedger(this.negativeUnlVoter, ledgerIndex, parent.hash);
    this.updateSkipList(ledgerIndex, parent.hash);

    const transactions = this.openTransactions.map((open, position) => this.sealTransaction(open, position));
    const header: LedgerHeader = {
      ledgerIndex,
      totalCoins: parent.header.totalCoins - this.feesBurned,
      parentHash: parent.hash,
      transactionHash: transactions.length === 0 ? ZERO_HASH : transactionTreeRoot(transactions),
      accountHash: this.state.tree.root(),
      parentCloseTime: parent.header.closeTime,
      closeTime: effectiveCloseTime(requested, parent.header.closeTime),
      closeTimeResolution: CLOSE_TIME_RESOLUTION,
      closeFlags: 0,
    };
    const ledger: ClosedLedger = { header, hash: hashLedgerHeader(header), transactions };
    this.store(ledger, this.state.tree.snapshot());
    this.openTransactions = [];
    this.openTransactionHashes = new Set();
    this.feesBurned = 0n;

    this.retryHeld();
    this.notify(ledger);
    return ledger;
  }

  /** Keeps a closed ledger, with its state (none for the earlier ledgers of a restored chain). */
  private store(ledger: ClosedLedger, state: StateTree | undefined): void {
    this.ledgers.push({ ledger, state });
    this.ledgerIndexByHash.set(ledger.hash, ledger.header.ledgerIndex);
    ledger.transactions.forEach((tx, position) => this.transactionsByHash.set(tx.hash, { ledgerIndex: ledger.header.ledgerIndex, position }));
  }

  private sealTransaction(open: OpenTransaction, position: number): ClosedTransaction {
    const { metaBlob, metaJson } = this.renderedMeta(open.candidate.txJson, open.meta);
    return { hash: open.candidate.txHash, txBlob: open.txBlob, metaBlob, txJson: open.candidate.txJson, metaJson, index: position };
  }

  /** Metadata serialized and read back, as rippled prints it. */
  private renderedMeta(txJson: JsonObject, meta: JsonObject): { metaBlob: string; metaJson: JsonObject } {
    const metaBlob = this.profile.codec.encode(meta);
    return { metaBlob, metaJson: this.metaJsonOf(txJson, metaBlob) };
  }

  /** Serialized metadata read back as rippled prints it. */
  private metaJsonOf(txJson: JsonObject, metaBlob: string): JsonObject {
    const metaJson: JsonObject = this.profile.codec.decode(metaBlob);
    // rippled adds `delivered_amount` to a successful payment's metadata JSON (not to the binary).
    if (txJson.TransactionType === 'Payment' && metaJson.TransactionResult === this.results.get('tesSUCCESS').token) {
      metaJson.delivered_amount = cloneEntry(metaJson.DeliveredAmount ?? txJson.Amount);
    }
    return metaJson;
  }

  /**
   * A flag ledger's negative UNL: the vote (over the parent's NegativeUNL object), then the object
   * updated (no metadata), then the UNLModify pseudo-transactions the vote named, after the
   * transactions already in the open ledger. A UNLModify rippled would refuse (tef) is left out.
   */
  private buildFlagLedger(voter: NegativeUnlVoter, ledgerIndex: number, parentHash: string): void {
    const index = keylet.negativeUnl();
    const vote = voter.vote({ ledgerIndex, parentHash, negativeUnl: negativeUnlState(this.state.get(index)) });
    updateNegativeUnl(this.state, index, ledgerIndex);
    const changes: [boolean, string | undefined][] = [
      [true, vote.disable],
      [false, vote.reEnable],
    ];
    for (const [disabling, masterKey] of changes) {
      if (masterKey === undefined) continue;
      const txJson = unlModifyTransaction(ledgerIndex, disabling, masterKey);
      const txBlob = this.profile.codec.encode(txJson);
      const txHash = hashTransaction(txBlob);
      const sandbox = new Sandbox(this.state);
      if (applyUnlModify(sandbox, index, txJson, ledgerIndex) !== 'tesSUCCESS') continue;
      const { meta } = this.metadata.commit(
        sandbox,
        { txHash, ledgerIndex, transactionIndex: this.openTransactions.length, resultToken: this.results.get('tesSUCCESS').token },
        (address) => this.keys.account(address),
      );
      this.openTransactions.push({ candidate: { txJson, txHash }, txBlob, meta });
      this.openTransactionHashes.add(txHash);
    }
  }

  /** rippled `Ledger::updateSkipList`: the parent's hash joins the recent list (and every 256th, the long list). */
  private updateSkipList(ledgerIndex: number, parentHash: string): void {
    const previousIndex = ledgerIndex - 1;
    if ((previousIndex & 0xff) === 0) {
      this.appendLedgerHash(this.keys.historicLedgerHashes(previousIndex), parentHash, previousIndex, Number.POSITIVE_INFINITY);
    }
    this.appendLedgerHash(this.keys.recentLedgerHashes(), parentHash, previousIndex, SKIP_LIST_LENGTH);
  }

  private appendLedgerHash(index: string, hash: string, lastLedgerSequence: number, keep: number): void {
    const existing = this.state.get(index);
    const hashes = existing === undefined ? [] : [...(existing.Hashes as string[])];
    if (hashes.length >= keep) hashes.shift();
    hashes.push(hash);
    this.state.put(index, { LedgerEntryType: 'LedgerHashes', Flags: 0, Hashes: hashes, LastLedgerSequence: lastLedgerSequence });
  }

  private notify(ledger: ClosedLedger): void {
    const failures: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        listener(ledger);
      } catch (error) {
        // Every listener hears about the ledger; a failing one is reported after the others ran.
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} ledger listeners failed`);
  }

  onLedgerClosed(listener: (ledger: ClosedLedger) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // ---------------------------------------------------------------- submitting

  submit(txBlobHex: string): SubmitResult {
    const txBlob = typeof txBlobHex === 'string' ? txBlobHex.toUpperCase() : '';
    let txJson: JsonObject;
    try {
      txJson = this.profile.codec.decode(txBlob);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      return this.rejected(txBlob, this.results.get('temMALFORMED'), error.message);
    }
    const txHash = hashTransaction(txBlob);
    const signatureProblem = this.signatureProblem(txBlob, txJson);
    if (signatureProblem !== undefined) {
      return this.rejected(txBlob, this.results.get(signatureProblem.token), `fails local checks: ${signatureProblem.reason}`, txJson, txHash);
    }

    const candidate: Candidate = { txJson, txHash };
    const alreadyHeld = this.held.get(txHash);
    if (alreadyHeld?.queued) return this.submitResult(txBlob, this.results.get('terQUEUED'), false, true, txJson, txHash);
    if (alreadyHeld === undefined && this.openLedgerFull() && !this.openTransactionHashes.has(txHash) && this.mayQueue(txJson)) {
      this.held.set(txHash, { candidate, txBlob, account: txJson.Account as string, sequence: Number(txJson.Sequence), heldAt: this.openLedgerIndex(), queued: true });
      return this.submitResult(txBlob, this.results.get('terQUEUED'), false, true, txJson, txHash);
    }
    const outcome = alreadyHeld !== undefined ? this.apply(alreadyHeld.candidate, alreadyHeld.txBlob) : this.apply(candidate, txBlob);
    if (outcome.applied) {
      this.held.delete(txHash);
      this.applyHeldFollowing(txJson.Account as string);
    } else if (isRetry(outcome.result)) {
      if (alreadyHeld === undefined) {
        this.held.set(txHash, {
          candidate,
          txBlob,
          account: txJson.Account as string,
          sequence: Number(txJson.Sequence),
          heldAt: this.openLedgerIndex(),
        });
      }
    }
    return this.submitResult(txBlob, outcome.result, outcome.applied, this.held.has(txHash), txJson, txHash);
  }

  simulate(input: JsonObject): SimulateResult | SimulateRefusal {
    const txJson = cloneEntry(input);
    // rippled simulate's autofill, in its order: Fee (the base fee, once more per signer), the
    // signature fields left empty (a signature given is refused), then the next sequence.
    const signers = txJson.Signers;
    if (txJson.Fee === undefined) txJson.Fee = (this.fees.baseFee * BigInt(1 + (Array.isArray(signers) ? signers.length : 0))).toString();
    if (txJson.SigningPubKey === undefined) txJson.SigningPubKey = '';
    if (signers !== undefined) {
      if (!Array.isArray(signers)) throw new InvalidParams("Invalid field 'tx.Signers'.", 'tx.Signers');
      signers.forEach((wrapped, position) => {
        const signer = (wrapped as JsonObject | null)?.Signer as JsonObject | undefined;
        if (signer === null || typeof signer !== 'object' || Array.isArray(signer)) throw new InvalidParams(`Invalid field 'tx.Signers[${position}]'.`, 'tx.Signers');
        signer.SigningPubKey ??= '';
        signer.TxnSignature ??= '';
      });
      if (signers.some((wrapped) => ((wrapped as JsonObject).Signer as JsonObject).TxnSignature !== '')) return { refused: 'transactionSigned' };
    }
    if (txJson.TxnSignature === undefined) txJson.TxnSignature = '';
    else if (txJson.TxnSignature !== '') return { refused: 'transactionSigned' };
    if (txJson.Sequence === undefined) {
      const account = txJson.Account;
      if (typeof account !== 'string' || !this.keys.isValidAddress(account)) return { refused: 'srcActMalformed' };
      const root = this.state.get(this.keys.account(account));
      if (txJson.TicketSequence !== undefined) txJson.Sequence = 0;
      else if (root === undefined) return { refused: 'srcActNotFound' };
      else txJson.Sequence = Number(root.Sequence);
    }
    let txBlob: string;
    let decoded: JsonObject;
    try {
      txBlob = this.profile.codec.encode(txJson);
      decoded = this.profile.codec.decode(txBlob);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      throw new InvalidParams("Invalid field 'tx_json'.", 'tx_json');
    }
    const txHash = hashTransaction(txBlob);
    const ledgerIndex = this.openLedgerIndex();
    const outcome = this.processor.apply(
      { txJson: decoded, txHash },
      {
        state: this.state.copy(),
        ledgerIndex,
        transactionIndex: this.openTransactions.length,
        parentCloseTime: this.lastClosed().ledger.header.closeTime,
        alreadyApplied: (hash) => this.openTransactionHashes.has(hash),
        dryRun: true,
      },
    );
    const result: SimulateResult = {
      engineResult: outcome.result.token,
      engineResultCode: outcome.result.code,
      // rippled simulate: the success text would say the transaction was applied; it was not.
      engineResultMessage: outcome.result.code === 0 ? 'The simulated transaction would have been applied.' : outcome.result.message,
      txJson: { ...decoded, hash: txHash },
      txBlob,
      ledgerIndex,
    };
    if (outcome.applied) Object.assign(result, this.renderedMeta(decoded, outcome.meta!));
    return result;
  }

  private apply(candidate: Candidate, txBlob: string): ApplyOutcome {
    const outcome = this.processor.apply(candidate, {
      state: this.state,
      ledgerIndex: this.openLedgerIndex(),
      parentCloseTime: this.lastClosed().ledger.header.closeTime,
      transactionIndex: this.openTransactions.length,
      alreadyApplied: (txHash) => this.openTransactionHashes.has(txHash),
    });
    if (outcome.applied) {
      this.openTransactions.push({ candidate, txBlob, meta: outcome.meta! });
      this.openTransactionHashes.add(candidate.txHash);
      this.feesBurned += outcome.feeCharged ?? 0n;
    }
    return outcome;
  }

  /** rippled `popAcctTransaction`: once a sequence is used, the held transaction with the next one goes in. */
  private applyHeldFollowing(account: string): void {
    for (;;) {
      if (this.openLedgerFull()) return;
      const root = this.state.get(this.keys.account(account));
      if (root === undefined) return;
      const next = [...this.held.values()].find((held) => held.account === account && held.sequence === Number(root.Sequence));
      if (next === undefined) return;
      const outcome = this.apply(next.candidate, next.txBlob);
      if (!outcome.applied && isRetry(outcome.result)) return;
      this.held.delete(next.candidate.txHash);
      if (!outcome.applied) return;
    }
  }

  /**
   * rippled's TxQ queues only what could apply: here, from an account that exists, at or past its
   * sequence, paying at least the base fee. Anything else goes on to be applied now, and answered
   * its ter, tef or tel result.
   */
  private mayQueue(txJson: JsonObject): boolean {
    const account = txJson.Account;
    const root = typeof account === 'string' && this.keys.isValidAddress(account) ? this.state.get(this.keys.account(account)) : undefined;
    if (root === undefined) return false;
    const fee = typeof txJson.Fee === 'string' && /^\d+$/.test(txJson.Fee) ? BigInt(txJson.Fee) : -1n;
    return Number(txJson.Sequence) >= Number(root.Sequence) && fee >= this.fees.baseFee;
  }

  private openLedgerFull(): boolean {
    return this.openLedgerLimit > 0 && this.openTransactions.length >= this.openLedgerLimit;
  }

  /**
   * At a new open ledger, held transactions are tried again and queued ones applied, while the
   * open ledger has room; expired ones are dropped.
   */
  private retryHeld(): void {
    const openIndex = this.openLedgerIndex();
    const waiting = [...this.held.values()].sort((left, right) =>
      left.account === right.account ? left.sequence - right.sequence : left.account < right.account ? -1 : 1,
    );
    for (const held of waiting) {
      if (!this.held.has(held.candidate.txHash)) continue;
      if (this.openLedgerFull()) return;
      const lastLedger = held.candidate.txJson.LastLedgerSequence;
      if ((typeof lastLedger === 'number' && openIndex > lastLedger) || (!held.queued && openIndex > held.heldAt + HOLD_LEDGERS)) {
        this.held.delete(held.candidate.txHash);
        continue;
      }
      const outcome = this.apply(held.candidate, held.txBlob);
      if (outcome.applied) {
        this.held.delete(held.candidate.txHash);
        this.applyHeldFollowing(held.account);
      } else if (!isRetry(outcome.result)) {
        this.held.delete(held.candidate.txHash);
      }
    }
  }

  /** rippled `checkValidity`: a single signature by SigningPubKey over the signing fields, or every multi-signature. */
  private signatureProblem(
    txBlob: string,
    txJson: JsonObject,
  ): { token: 'temBAD_SIGNATURE' | 'temDISABLED' | 'temMALFORMED'; reason: string } | undefined {
    if (txJson.Signers !== undefined) return this.multiSignatureProblem(txBlob, txJson);
    const publicKey = txJson.SigningPubKey;
    const signature = txJson.TxnSignature;
    if (typeof publicKey !== 'string' || typeof signature !== 'string' || publicKey === '' || signature === '') {
      return { token: 'temBAD_SIGNATURE', reason: 'Invalid signature.' };
    }
    let signingData: string;
    try {
      signingData = signingDataOf(txBlob, this.definitions);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      return { token: 'temMALFORMED', reason: error.message };
    }
    if (!this.profile.keys.verify(signingData, signature, publicKey)) return { token: 'temBAD_SIGNATURE', reason: 'Invalid signature.' };
    return undefined;
  }

  /**
   * rippled `STTx::checkMultiSign`: no single signature beside the Signers; 1 to 32 signers in
   * ascending AccountID order, none twice and none the sender; each signature over 'SMT\0', the
   * signing fields and the signer's AccountID. Whether they may sign is the ledger's (preclaim).
   */
  private multiSignatureProblem(txBlob: string, txJson: JsonObject): { token: 'temBAD_SIGNATURE' | 'temMALFORMED'; reason: string } | undefined {
    if (txJson.SigningPubKey !== '' || txJson.TxnSignature !== undefined) return { token: 'temBAD_SIGNATURE', reason: 'Cannot both single- and multi-sign.' };
    const signers = txJson.Signers;
    if (!Array.isArray(signers) || signers.length < 1 || signers.length > MAX_MULTI_SIGNERS) return { token: 'temMALFORMED', reason: 'Invalid Signers array size.' };
    let previous: Buffer | undefined;
    for (const wrapped of signers) {
      const signer = (wrapped as JsonObject)?.Signer as JsonObject | undefined;
      const account = signer?.Account;
      const publicKey = signer?.SigningPubKey;
      const signature = signer?.TxnSignature;
      if (typeof account !== 'string' || !this.keys.isValidAddress(account) || typeof publicKey !== 'string' || typeof signature !== 'string' || publicKey === '') {
        return { token: 'temBAD_SIGNATURE', reason: 'Invalid signature.' };
      }
      if (account === txJson.Account) return { token: 'temBAD_SIGNATURE', reason: 'Invalid multisigner.' };
      const accountId = this.keys.accountId(account);
      if (previous !== undefined) {
        const order = Buffer.compare(previous, accountId);
        if (order === 0) return { token: 'temBAD_SIGNATURE', reason: 'Duplicate Signers not allowed.' };
        if (order > 0) return { token: 'temBAD_SIGNATURE', reason: 'Unsorted Signers array.' };
      }
      previous = accountId;
      let signingData: string;
      try {
        signingData = multiSigningDataOf(txBlob, this.definitions, accountId.toString('hex'));
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        return { token: 'temMALFORMED', reason: error.message };
      }
      let verified = false;
      try {
        verified = this.profile.keys.verify(signingData, signature, publicKey);
      } catch {
        verified = false;
      }
      if (!verified) return { token: 'temBAD_SIGNATURE', reason: `Invalid signature on account ${account}.` };
    }
    return undefined;
  }

  private rejected(txBlob: string, result: EngineResult, reason: string, txJson?: JsonObject, txHash?: string): SubmitResult {
    return { ...this.submitResult(txBlob, result, false, false, txJson, txHash), errorException: reason };
  }

  private submitResult(
    txBlob: string,
    result: EngineResult,
    applied: boolean,
    queued: boolean,
    txJson?: JsonObject,
    txHash?: string,
  ): SubmitResult {
    const submitted: SubmitResult = {
      engineResult: result.token,
      engineResultCode: result.code,
      engineResultMessage: result.message,
      applied,
      queued,
      txBlob,
      openLedgerIndex: this.openLedgerIndex(),
      validatedLedgerIndex: this.validatedLedgerIndex(),
    };
    if (txJson !== undefined) submitted.txJson = txJson;
    if (txHash !== undefined) submitted.txHash = txHash;
    const account = txJson?.Account;
    const root = typeof account === 'string' && this.keys.isValidAddress(account) ? this.state.get(this.keys.account(account)) : undefined;
    if (root !== undefined) {
      const next = Number(root.Sequence);
      let available = next;
      const heldSequences = new Set([...this.held.values()].filter((held) => held.account === account).map((held) => held.sequence));
      while (heldSequences.has(available)) available++;
      submitted.accountSequenceNext = next;
      submitted.accountSequenceAvailable = available;
    }
    return submitted;
  }

  // ---------------------------------------------------------------- queries

  pendingCount(): number {
    return this.openTransactions.length + this.held.size;
  }

  validatedLedgerIndex(): number {
    return this.lastClosed().ledger.header.ledgerIndex;
  }

  openLedgerIndex(): number {
    return this.validatedLedgerIndex() + 1;
  }

  earliestLedgerIndex(): number {
    return this.ledgers[0]!.ledger.header.ledgerIndex;
  }

  ledger(ledgerIndex: number): ClosedLedger | undefined {
    return this.record(ledgerIndex)?.ledger;
  }

  ledgerByHash(ledgerHash: string): ClosedLedger | undefined {
    if (typeof ledgerHash !== 'string' || !HEX_HASH.test(ledgerHash)) return undefined;
    const ledgerIndex = this.ledgerIndexByHash.get(ledgerHash.toUpperCase());
    return ledgerIndex === undefined ? undefined : this.ledger(ledgerIndex);
  }

  transaction(txHash: string): { ledgerIndex: number; tx: ClosedTransaction } | undefined {
    if (typeof txHash !== 'string' || !HEX_HASH.test(txHash)) return undefined;
    const location = this.transactionsByHash.get(txHash.toUpperCase());
    if (location === undefined) return undefined;
    return { ledgerIndex: location.ledgerIndex, tx: this.ledger(location.ledgerIndex)!.transactions[location.position]! };
  }

  stateEntry(index: string, ledgerIndex: number): StateEntry | undefined {
    const key = normalizeIndex(index, 'index');
    const tree = this.treeAt(ledgerIndex);
    const blob = tree?.get(key);
    return blob === undefined ? undefined : this.entryFromBlob(key, blob);
  }

  stateEntries(ledgerIndex: number, afterIndex: string | undefined, limit: number): StateEntry[] {
    const after = afterIndex === undefined ? undefined : normalizeIndex(afterIndex, 'afterIndex');
    if (!Number.isSafeInteger(limit) || limit < 0) throw new InvalidParams(`limit must be a non-negative integer, got ${limit}`, 'limit');
    const tree = this.treeAt(ledgerIndex);
    if (tree === undefined) return [];
    const entries: StateEntry[] = [];
    if (limit === 0) return entries;
    for (const { index, blob } of tree.entries(after)) {
      entries.push(this.entryFromBlob(index, blob));
      if (entries.length >= limit) break;
    }
    return entries;
  }

  accountRoot(address: string, ledgerIndex: number): StateEntry | undefined {
    if (!this.keys.isValidAddress(address)) throw new InvalidParams(`'${String(address)}' is not a valid address`, 'account');
    return this.stateEntry(this.keys.account(address), ledgerIndex);
  }

  trustLines(address: string, ledgerIndex: number): TrustLineView[] | undefined {
    if (this.accountRoot(address, ledgerIndex) === undefined) return undefined;
    const read = (index: string): LedgerEntry | undefined => this.stateEntry(index, ledgerIndex)?.json;
    const lines: TrustLineView[] = [];
    for (const index of dirEntries(read, this.keys, this.keys.ownerDir(address))) {
      const line = read(index);
      if (line === undefined || line.LedgerEntryType !== this.settings.trustLineType) continue;
      lines.push(trustLineView(line, index, address));
    }
    return lines;
  }

  // ---------------------------------------------------------------- internals

  private lastClosed(): LedgerRecord {
    return this.ledgers[this.ledgers.length - 1]!;
  }

  private record(ledgerIndex: number): LedgerRecord | undefined {
    if (!Number.isSafeInteger(ledgerIndex)) return undefined;
    return this.ledgers[ledgerIndex - this.ledgers[0]!.ledger.header.ledgerIndex];
  }

  private treeAt(ledgerIndex: number): StateTree | undefined {
    if (ledgerIndex === this.openLedgerIndex()) return this.state.tree;
    return this.record(ledgerIndex)?.state;
  }

  private entryFromBlob(index: string, blob: Buffer): StateEntry {
    const hex = blob.toString('hex').toUpperCase();
    return { index, blob: hex, json: this.profile.codec.decode(hex) };
  }
}

function isRetry(result: EngineResult): boolean {
  return result.code >= -99 && result.code < 0;
}

function normalizeIndex(index: string, what: string): string {
  if (typeof index !== 'string' || !HEX_HASH.test(index)) throw new InvalidParams(`${what} must be 64 hex characters`, what);
  return index.toUpperCase();
}

function trustLineView(line: LedgerEntry, index: string, address: string): TrustLineView {
  const side = lineSide(line, address);
  const flags = flagsOf(line);
  const high = side.isHigh;
  const peerLimit = (high ? line.LowLimit : line.HighLimit) as { issuer: string; currency: string };
  const view: TrustLineView = {
    account: peerLimit.issuer,
    balance: side.balance.toString(),
    currency: peerLimit.currency,
    limit: side.limit.toString(),
    limit_peer: side.peerLimit.toString(),
    no_ripple: side.noRipple,
    no_ripple_peer: side.peerNoRipple,
    quality_in: Number(line[high ? 'HighQualityIn' : 'LowQualityIn'] ?? 0),
    quality_out: Number(line[high ? 'HighQualityOut' : 'LowQualityOut'] ?? 0),
    index,
  };
  // rippled prints the authorization and freeze flags only when they are set.
  if ((flags & (high ? TrustLineFlag.highAuth : TrustLineFlag.lowAuth)) !== 0) view.authorized = true;
  if ((flags & (high ? TrustLineFlag.lowAuth : TrustLineFlag.highAuth)) !== 0) view.peer_authorized = true;
  if ((flags & (high ? TrustLineFlag.highFreeze : TrustLineFlag.lowFreeze)) !== 0) view.freeze = true;
  if ((flags & (high ? TrustLineFlag.lowFreeze : TrustLineFlag.highFreeze)) !== 0) view.freeze_peer = true;
  return view;
}
