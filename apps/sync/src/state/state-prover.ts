/**
 * The state prover: every state object the store serves is proven by the state tree of a verified
 * ledger. Once the state download is complete (its root verified), two proven trees are held:
 *
 * - forwards, the state after the highest ledger whose state is stored: each next ledger's
 *   changes are built on it and stored only when the new tree's root is that ledger's
 *   account_hash. The live follower writes the ledger and its proven changes in one batch when it
 *   is the next one (`provenWrite`); any other stored ledger (during the download, backfilled
 *   gaps, a failed proof) is proven here afterwards and its changes added (PutStateChanges).
 * - downwards, the state after the lowest such ledger: each ledger below has its before-images
 *   built on it and proven by its parent's account_hash, so account state reaches down as far as
 *   the stored history.
 *
 * A proof that fails is counted (`state_root_mismatch`), nothing of it is stored, and the ledger
 * is tried again after a pause with its images read from another endpoint where there is one.
 *
 * The forward tree of the newest ledgers is kept (proof-window.ts) for state proofs.
 */
import { encodeLedgerHeader, flatProofPath, type ChainProfile, type LedgerHeader, type StateTree, type VerifiedLedger } from '@ledger-node/chain';
import type { GetStateProofResponse, StateDownload, StateObjectChange } from '@ledger-node/contracts';
import { InvalidParams, NotFound, OutOfRange } from '@ledger-node/errors';
import { RetryLog, type Logger } from '@ledger-node/telemetry';
import type { LedgerRange } from '../backfill/ranges';
import type { Refusals } from '../refusals';
import { observeStage, secondsSince } from '../stage-timing';
import type { StoredChain } from '../store/stored-chain';
import { backoffDelayMs, sleep, WakeablePause } from '@ledger-node/upstream';
import { storedStateTree } from './download';
import { ProofWindow } from './proof-window';
import { provenStateChanges, StateNotProven, type ProvenSide, type StateObjectReader } from './state-changes';

export interface StateProverStore {
  stateDownload(): Promise<StateDownload>;
  /** Ledgers whose state the store answers (GetStatusResponse.state_range). */
  stateRange(): Promise<LedgerRange | undefined>;
  listStateObjects(ledgerIndex: number, afterKey: Buffer, limit: number): Promise<{ objects: { key: Buffer; blob: Buffer }[]; nextAfterKey: Buffer }>;
  header(ledgerIndex: number): Promise<{ ledgerHash: Buffer; header: LedgerHeader } | undefined>;
  storedLedger(ledgerIndex: number): Promise<VerifiedLedger | undefined>;
  /** Stored ledgers from `first` up to `last` (at most 256 of them), ascending and consecutive, ending before one not stored. */
  storedLedgers(first: number, last: number): Promise<VerifiedLedger[]>;
  putStateChanges(ledgerIndex: number, ledgerHash: Buffer, changes: StateObjectChange[]): Promise<LedgerRange | undefined>;
}

export interface StateProverOptions {
  store: StateProverStore;
  reader: StateObjectReader;
  chain: Pick<StoredChain, 'ranges'>;
  profile: ChainProfile;
  logger: Logger;
  refusals: Pick<Refusals, 'count'>;
  /** Ledgers below the newest proven one whose state tree is kept for state proofs (-proof_window). */
  proofWindow: number;
}

/** A proven state: the tree after `ledgerIndex`. */
interface ProvenState {
  tree: StateTree;
  ledgerIndex: number;
}

/** How often the prover looks for work when nothing woke it. */
const IDLE_MS = 1_000;
/** Failures in a row after which the state is said to have stopped (one is an upstream's hiccup). */
const STALLED_AFTER = 3;
/** Ledgers read at once below the downward tree (GetLedgerRange): one read for this many steps down instead of two each. */
const READ_AHEAD = 32;
/** Most entries one state proof names: each path is up to 64 inner nodes of 512 bytes, 6 or 7 on mainnet. */
const MAX_PROOF_KEYS = 256;

export class StateProver {
  private forward: ProvenState | undefined;
  private downward: ProvenState | undefined;
  /** Below this ledger there is nothing to prove (the first ledger is done). */
  private downwardDone = false;
  /** Stored ledgers read ahead for the downward steps, by index (dropped when a step fails or the state is set aside). */
  private below = new Map<number, VerifiedLedger>();
  /** Failures in a row of each loop, for its pause and where it reads next, and the latest one. */
  private readonly failuresOf = new Map<string, { count: number; last?: string }>();
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private readonly pause = new WakeablePause();
  /** One proof at a time: the trees move only forward together with what is stored. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Raised when the store sets its state aside: a proof begun before then moves no tree. */
  private generation = 0;
  private readonly window: ProofWindow;

  constructor(private readonly options: StateProverOptions) {
    this.window = new ProofWindow(options.proofWindow);
  }

  /** The ledgers whose state is proven and stored, as this prover holds them. */
  get provenRange(): LedgerRange | undefined {
    return this.forward && this.downward ? { first: this.downward.ledgerIndex, last: this.forward.ledgerIndex } : undefined;
  }

  /**
   * Why the state stops short of the stored ledgers: the latest failure of loading the stored state
   * or proving the next ledger, once it failed STALLED_AFTER times in a row.
   */
  get stalled(): string | undefined {
    for (const what of ['loading', 'proving upwards']) {
      const failures = this.failuresOf.get(what);
      if (failures?.last !== undefined && failures.count >= STALLED_AFTER) return failures.last;
    }
    return undefined;
  }

  /** The proven state after `ledgerIndex`, when the forward tree is there now. */
  stateAfter(ledgerIndex: number): StateTree | undefined {
    return this.forward?.ledgerIndex === ledgerIndex ? this.forward.tree : undefined;
  }

  /**
   * State entries at a ledger of the proof window (the newest when undefined), each with its path in
   * the ledger's proven tree, and the ledger's header; OutOfRange naming the window for another ledger.
   */
  async stateProof(ledgerIndex: number | undefined, keys: readonly Buffer[]): Promise<GetStateProofResponse> {
    if (keys.length === 0 || keys.length > MAX_PROOF_KEYS) throw new InvalidParams(`name from 1 to ${MAX_PROOF_KEYS} keys`, 'keys');
    const badKey = keys.findIndex((key) => key.length !== 32);
    if (badKey >= 0) throw new InvalidParams(`keys[${badKey}] is not a 32-byte ledger entry index`, 'keys');
    const held = this.window.tree(ledgerIndex);
    // Bounded history may have removed the ledger since its tree was kept.
    const stored = await this.options.store.header(held.ledgerIndex);
    if (!stored) throw new OutOfRange(`ledger ${held.ledgerIndex} is no longer stored`);
    return {
      ledgerIndex: held.ledgerIndex,
      headerBlob: encodeLedgerHeader(stored.header),
      entries: keys.map((key) => {
        const index = key.toString('hex');
        const path = held.tree.proof(index);
        return { key, blob: held.tree.get(index), innerNodes: path ? flatProofPath(path, key) : [] };
      }),
    };
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.options.logger.error({ err: error }, `state proofs stopped: ${(error as Error).message}`);
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.pause.wake();
    await this.running;
  }

  /** New ledgers were stored, or the state download completed. */
  wake(): void {
    this.pause.wake();
  }

  /** The store set its state aside: both trees go, and proofs start again from the next complete download. */
  setAside(): void {
    this.generation++;
    this.forward = undefined;
    this.downward = undefined;
    this.downwardDone = false;
    this.below.clear();
    this.window.clear();
    this.pause.wake();
  }

  /**
   * Writes a verified ledger with its proven state changes when it is the next ledger above the
   * proven state, else (or when its proof fails) without them: `write` gets the changes or
   * undefined. The forward tree moves once the write succeeded.
   */
  async provenWrite(ledger: VerifiedLedger, write: (changes: StateObjectChange[] | undefined) => Promise<void>): Promise<void> {
    await this.exclusive(async () => {
      const forward = this.forward;
      if (!forward || forward.ledgerIndex !== ledger.ledgerIndex - 1) return write(undefined);
      const generation = this.generation;
      const proof = await this.prove(ledger, forward, 'before', ledger.header.accountHash).catch((error: unknown) => {
        if (!(error instanceof StateNotProven)) throw error;
        return undefined;
      });
      await write(generation === this.generation ? proof?.changes : undefined);
      if (proof && generation === this.generation) this.moveForward({ tree: proof.tree, ledgerIndex: ledger.ledgerIndex });
    });
    this.wake();
  }

  private moveForward(state: ProvenState): void {
    this.forward = state;
    this.window.add(state.ledgerIndex, state.tree);
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Waits for the download, then proves upwards and downwards at once: the two trees are
   * independent. When the store sets its state aside, it waits for the next download.
   */
  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      const generation = this.generation;
      const current = () => generation === this.generation;
      const loaded = await this.repeat('loading', async () => {
        await this.load(generation);
        return this.forward !== undefined;
      }, { once: true });
      if (!loaded) return;
      await Promise.all([
        // Upwards under the lock the live follower takes too: one of them moves the forward tree at a time.
        this.repeat('proving upwards', () => this.exclusive(() => (current() ? this.stepUp(generation) : Promise.resolve(false))), { while: current }),
        this.repeat('proving downwards', () => (current() ? this.stepDown(generation) : Promise.resolve(false)), { while: current }),
      ]);
    }
  }

  /**
   * Runs `step` until it has nothing to do (then waits to be woken), with `once` until it
   * succeeds, and only `while` it holds; a failure pauses with backoff, and the next proof reads
   * its images from another endpoint. False when stopped.
   */
  private async repeat(what: string, step: () => Promise<boolean>, until: { once?: boolean; while?: () => boolean } = {}): Promise<boolean> {
    const { logger } = this.options;
    const once = until.once ?? false;
    const failures: { count: number; last?: string } = { count: 0 };
    this.failuresOf.set(what, failures);
    const retries = new RetryLog(logger, `state proofs (${what})`);
    while (!this.abort.signal.aborted && (until.while?.() ?? true)) {
      let progressed = false;
      try {
        progressed = await step();
        retries.succeeded();
        failures.count = 0;
        failures.last = undefined;
        if (once && progressed) return true;
      } catch (error) {
        if (this.abort.signal.aborted) break;
        const delayMs = backoffDelayMs(failures.count++, 500, 15_000);
        failures.last = (error as Error).message;
        retries.failed(error, delayMs, error instanceof StateNotProven ? { ledgerIndex: error.ledgerIndex, reason: error.reason } : {});
        await sleep(delayMs, this.abort.signal);
        continue;
      }
      if (!progressed) await this.pause.wait(IDLE_MS);
    }
    return false;
  }

  /** Once the download is complete: both trees from the store's state range, each checked against its ledger's account_hash. */
  private async load(generation: number): Promise<void> {
    const { store, logger } = this.options;
    const download = await store.stateDownload();
    const range = download.complete ? await store.stateRange() : undefined;
    if (!range) return;
    const forward = await this.storedState(range.last);
    const downward = range.first === range.last ? { tree: forward.tree.snapshot(), ledgerIndex: range.first } : await this.storedState(range.first);
    if (generation !== this.generation) return;
    this.moveForward(forward);
    this.downward = downward;
    logger.info({ stateRange: range, objectCount: forward.tree.size }, `account state proven at ledgers ${range.first}-${range.last}; proving the ledgers around them`);
  }

  private async storedState(ledgerIndex: number): Promise<ProvenState> {
    const { store } = this.options;
    const stored = await store.header(ledgerIndex);
    if (!stored) throw new Error(`ledger ${ledgerIndex} of the state range is not stored`);
    const tree = await storedStateTree(store, ledgerIndex);
    const expected = stored.header.accountHash.toUpperCase();
    if (tree.root() !== expected) {
      this.options.refusals.count('state_root_mismatch');
      throw new Error(`the stored state at ledger ${ledgerIndex} has root ${tree.root()}, not its account_hash ${expected}: it is not proven (ledger-node verify-state tells the same)`);
    }
    return { tree, ledgerIndex };
  }

  /** Proves and stores the state of the stored ledger above the forward tree; false when there is none. */
  private async stepUp(generation: number): Promise<boolean> {
    const { chain, store } = this.options;
    const forward = this.forward!;
    const up = forward.ledgerIndex + 1;
    if (!chain.ranges.has(up)) return false;
    const readStartedAtNs = process.hrtime.bigint();
    const ledger = await store.storedLedger(up);
    if (!ledger) {
      // The store announces what it removes: one still counted here is a store that lost it.
      if (chain.ranges.has(up)) throw new Error(`ledger ${up} is in the complete ranges but not stored`);
      return false;
    }
    const readSeconds = secondsSince(readStartedAtNs);
    const proof = await this.prove(ledger, forward, 'before', ledger.header.accountHash, this.failuresOf.get('proving upwards')!.count > 0);
    if (generation !== this.generation) return false;
    const writeStartedAtNs = process.hrtime.bigint();
    if (!(await this.putProvenChanges(up, ledger, proof.changes))) return false;
    observeStage('state_grpc', readSeconds + secondsSince(writeStartedAtNs));
    if (generation !== this.generation) return false;
    this.moveForward({ tree: proof.tree, ledgerIndex: up });
    return true;
  }

  /**
   * Proves and stores the state changes of the ledger at the bottom of the downward tree, with the
   * before-images its parent's root proves; false when there is nothing below to prove.
   */
  private async stepDown(generation: number): Promise<boolean> {
    try {
      return await this.proveBelow(generation);
    } catch (error) {
      // What the failed step read is read again.
      this.forgetBelow();
      throw error;
    }
  }

  private async proveBelow(generation: number): Promise<boolean> {
    const { chain } = this.options;
    const downward = this.downward!;
    const down = downward.ledgerIndex;
    // Below the ledgers the store holds (what bounded history removed left the ranges) there is nothing to prove.
    if (this.downwardDone || !chain.ranges.has(down) || (down > 1 && !chain.ranges.has(down - 1))) return false;
    const readStartedAtNs = process.hrtime.bigint();
    const { ledger, parent } = await this.ledgerAndParent(down);
    // Bounded history removes the lowest ledgers: one may go between the look at the ranges and the read.
    if (!ledger || (down > 1 && !parent)) return this.forgetBelow();
    const readSeconds = secondsSince(readStartedAtNs);
    const proof = await this.prove(ledger, downward, 'after', parent?.header.accountHash, this.failuresOf.get('proving downwards')!.count > 0);
    if (generation !== this.generation) return false;
    const writeStartedAtNs = process.hrtime.bigint();
    if (!(await this.putProvenChanges(down, ledger, proof.changes))) return this.forgetBelow();
    observeStage('state_grpc', readSeconds + secondsSince(writeStartedAtNs));
    if (generation !== this.generation) return false;
    if (down > 1) this.downward = { tree: proof.tree, ledgerIndex: down - 1 };
    else this.downwardDone = true;
    this.below.delete(down);
    return true;
  }

  /** Drops the ledgers read ahead (the next step reads the store again); false: no step made. */
  private forgetBelow(): false {
    this.below.clear();
    return false;
  }

  /**
   * The stored ledger `down` and its parent (none for ledger 1), from the ledgers read ahead, or read
   * with up to READ_AHEAD below them in one call when either is not there yet (from as low as the
   * complete range holding `down` goes). A step that fails, or finds a ledger gone, forgets them
   * (forgetBelow): the next reads the store again.
   */
  private async ledgerAndParent(down: number): Promise<{ ledger?: VerifiedLedger; parent?: VerifiedLedger }> {
    if (!this.below.has(down) || (down > 1 && !this.below.has(down - 1))) {
      const lowest = Math.max(1, down - READ_AHEAD, this.options.chain.ranges.rangeOf(down)?.first ?? down);
      this.below = new Map((await this.options.store.storedLedgers(lowest, down)).map((ledger) => [ledger.ledgerIndex, ledger]));
    }
    return { ledger: this.below.get(down), parent: down > 1 ? this.below.get(down - 1) : undefined };
  }

  /**
   * Stores the proven changes of a ledger read from the store; false when the store removed the
   * ledger after it was read (bounded history, or DeleteLedger): its announcement takes it out of
   * the ranges, and nothing of the proof is kept.
   */
  private async putProvenChanges(ledgerIndex: number, ledger: VerifiedLedger, changes: StateObjectChange[]): Promise<boolean> {
    try {
      await this.options.store.putStateChanges(ledgerIndex, ledger.ledgerHash, changes);
      return true;
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      this.options.logger.debug({ ledgerIndex }, `ledger ${ledgerIndex} was removed by the ledger-store while its state was proven: its changes are not stored`);
      return false;
    }
  }

  private async prove(ledger: VerifiedLedger, proven: ProvenState, side: ProvenSide, expectedRoot: string | undefined, preferOtherEndpoint = false) {
    const { profile, reader, logger, refusals } = this.options;
    const startedAtNs = process.hrtime.bigint();
    try {
      return await provenStateChanges(ledger, profile, reader, { side, tree: proven.tree }, expectedRoot, {
        signal: this.abort.signal,
        logger,
        preferOtherEndpoint,
      });
    } catch (error) {
      if (error instanceof StateNotProven && error.reason === 'state_root_mismatch') refusals.count('state_root_mismatch');
      throw error;
    } finally {
      observeStage('state', secondsSince(startedAtNs));
    }
  }
}
