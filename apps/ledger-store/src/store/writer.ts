/**
 * The writes of the LedgerStore contract: ledgers stored and removed, state changes added, the state
 * download staged and promoted. Each is validated before it is queued, runs in the one write queue,
 * and is one atomic write of the backend with the bookkeeping after it.
 */
import type { LedgerWrite, PutStateChangesRequest, PutStateObjectsRequest, StateDownload } from '@ledger-node/contracts';
import { Conflict, InvalidParams, NotFound } from '@ledger-node/errors';
import type { LedgerBackend } from '../backend/backend';
import { closeTimeOf, NO_DOWNLOAD, STATE_SET_ASIDE, type StateDownloadRecord } from '../backend/records';
import type { LedgerEvents } from '../ledgers/events';
import { addToRanges, rangesContain, removeFromRanges, type LedgerRange } from '../ledgers/ranges';
import { validateLedgerWrite, validateStateChanges } from '../ledgers/validate';
import { validateStateObjectsPage } from '../state/validate';
import type { Holdings } from './holdings';
import type { StoreIdentity } from './identity';
import type { UnprovenLedgers } from './unproven';
import type { WriteQueue } from './write-queue';

export class LedgerWriter {
  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    private readonly queue: WriteQueue,
    private readonly events: LedgerEvents,
    private readonly identity: StoreIdentity,
    private readonly unproven: UnprovenLedgers,
    /** Throws Unavailable, with the reason, unless this store is the writer. */
    private readonly requireWriter: () => void,
  ) {}

  /**
   * Stores one ledger in one atomic batch. Returns false when the identical ledger was already
   * stored; throws InvalidParams for a malformed write and Conflict when another hash is stored at
   * its index (nothing is written then).
   */
  async putLedger(write: LedgerWrite | undefined, path = 'ledger'): Promise<boolean> {
    return (await this.putLedgers([write], () => path)) === 1;
  }

  /**
   * Stores ledgers in the order given, those not stored before in one atomic batch (a crash keeps
   * all of them or none, so the complete ranges stay whole). A malformed write or a conflict ends
   * the call with its error after the ledgers before it are stored. Answers how many were stored
   * (identical ones already stored are not). `pathOf` names a write in errors.
   */
  async putLedgers(writes: readonly (LedgerWrite | undefined)[], pathOf = (position: number) => `ledgers[${position}]`, options: { unproven?: boolean } = {}): Promise<number> {
    return this.checkLedgers(writes, pathOf, options)();
  }

  /**
   * putLedgers in two steps: the writes are checked now, and stored by the function answered, when
   * it is called (a stream checks its next batch while the one before is written).
   */
  checkLedgers(writes: readonly (LedgerWrite | undefined)[], pathOf = (position: number) => `ledgers[${position}]`, options: { unproven?: boolean } = {}): () => Promise<number> {
    this.requireWriter();
    const valid: LedgerWrite[] = [];
    let refusal: unknown;
    for (const [position, write] of writes.entries()) {
      try {
        validateLedgerWrite(write, pathOf(position));
        valid.push(write);
      } catch (error) {
        refusal = error;
        break;
      }
    }
    return async () => {
      const { stored, conflict } =
        valid.length === 0 ? { stored: 0, conflict: undefined } : await this.queue.write(() => (options.unproven ? this.writeUnproven(valid) : this.writeValidated(valid)));
      const failure = conflict ?? refusal;
      if (failure) throw failure;
      return stored;
    };
  }

  /**
   * Writes an import's ledgers that nothing proves yet (unproven.ts), up to the first that
   * conflicts with a stored one: kept in the unproven ranges, announced to nobody, recording no
   * chain identity.
   */
  private async writeUnproven(writes: readonly LedgerWrite[]): Promise<{ stored: number; conflict?: Conflict }> {
    const { holdings } = this;
    const stored = new Map((await this.backend.headers(writes.map((write) => write.ledgerIndex))).map((header) => [header.ledgerIndex, header.ledgerHash]));
    const added: LedgerWrite[] = [];
    let conflict: Conflict | undefined;
    let unprovenRanges = holdings.unprovenRanges;
    for (const write of writes) {
      const existing = stored.get(write.ledgerIndex);
      if (existing && !existing.equals(write.ledgerHash)) {
        conflict = storedOtherwise(write, existing);
        break;
      }
      if (existing) continue;
      stored.set(write.ledgerIndex, write.ledgerHash);
      unprovenRanges = addToRanges(unprovenRanges, write.ledgerIndex);
      added.push(write);
    }
    if (added.length > 0) {
      holdings.counters = await this.backend.addLedgers(added, { completeRanges: holdings.completeRanges, unprovenRanges }, holdings.counters);
      holdings.unprovenRanges = unprovenRanges;
    }
    return { stored: added.length, conflict };
  }

  /** Writes the ledgers up to the first that conflicts with a stored one (or one earlier in the list), and answers that conflict. */
  private async writeValidated(writes: readonly LedgerWrite[]): Promise<{ stored: number; conflict?: Conflict }> {
    const { holdings } = this;
    // Unproven ledgers these contradict go first; those they prove are promoted once they are stored.
    const proves = await this.unproven.settle(writes);
    const stored = new Map((await this.backend.headers(writes.map((write) => write.ledgerIndex))).map((header) => [header.ledgerIndex, header.ledgerHash]));
    /** Each ledger to add, with the complete ranges once it is stored. */
    const added: { write: LedgerWrite; completeRanges: LedgerRange[] }[] = [];
    let conflict: Conflict | undefined;
    let ranges = holdings.completeRanges;
    let stateRanges = holdings.stateRanges;
    /** The unproven ledgers proven by the writes taken (stored, or stored identically). */
    const proven: { ledgerIndex: number; by: number }[] = [];
    for (const [position, write] of writes.entries()) {
      const { ledgerIndex } = write;
      if (holdings.stateSetAside && write.stateChanges.length > 0) {
        conflict = stateSetAsideFor(ledgerIndex);
        break;
      }
      const existing = stored.get(ledgerIndex);
      if (existing && !existing.equals(write.ledgerHash)) {
        conflict = storedOtherwise(write, existing);
        break;
      }
      const provenHere = proves[position];
      if (provenHere !== undefined) proven.push({ ledgerIndex: provenHere, by: ledgerIndex });
      if (existing) continue;
      stored.set(ledgerIndex, write.ledgerHash);
      ranges = addToRanges(ranges, ledgerIndex);
      if (write.stateChangesComplete) stateRanges = addToRanges(stateRanges, ledgerIndex);
      added.push({ write, completeRanges: ranges });
    }
    if (added.length === 0) {
      await this.unproven.promote(proven);
      return { stored: 0, conflict };
    }
    // A store's first ledger names the chain it holds (sync writes its first anchor alone).
    if (this.identity.unrecorded) await this.identity.record(added[0]!.write.ledgerIndex, added[0]!.write.ledgerHash);
    const stateChanged = stateRanges !== holdings.stateRanges;
    holdings.counters = await this.backend.addLedgers(
      added.map(({ write }) => write),
      { completeRanges: ranges, stateRanges: stateChanged ? stateRanges : undefined },
      holdings.counters,
    );
    let belowTip = false;
    for (const { write, completeRanges } of added) {
      const highestBefore = holdings.highest();
      holdings.completeRanges = completeRanges;
      const extendsTip = highestBefore === undefined || write.ledgerIndex > highestBefore;
      belowTip ||= !extendsTip;
      this.events.publish({
        ledgerIndex: write.ledgerIndex,
        ledgerHash: write.ledgerHash,
        closeTime: closeTimeOf(write.headerBlob),
        transactions: write.transactions
          .map((tx) => ({ hash: tx.hash, engineResult: tx.engineResult, txIndex: tx.txIndex }))
          .sort((a, b) => a.txIndex - b.txIndex),
        extendsTip,
      });
    }
    holdings.stateRanges = stateRanges;
    // A ledger stored above the highest is told by the ledger stream; any other changes the ranges a watcher keeps.
    if (belowTip) holdings.announce('stored_below_tip');
    await this.unproven.promote(proven);
    return { stored: added.length, conflict };
  }

  /**
   * Removes a stored ledger that is not the network's with every entry its write made, in one
   * batch (see DeleteLedger); `write` is the ledger as its writer derives it from the stored bytes.
   * A ledger with account state stored at it takes the whole state with it: state proves a
   * ledger's account_hash, never the rest of its header, so the state built on a ledger the
   * network contradicts is not trusted either. True when the state was set aside.
   */
  async deleteLedger(write: LedgerWrite | undefined): Promise<boolean> {
    this.requireWriter();
    validateLedgerWrite(write, 'ledger');
    if (write.stateChanges.length > 0) throw new InvalidParams('ledger.state_changes must be empty: a ledger is removed without state', 'ledger.state_changes');
    if (write.evidence) throw new InvalidParams('ledger.evidence must be absent: a ledger is removed with the evidence stored with it', 'ledger.evidence');
    return this.queue.write(async () => {
      const { holdings } = this;
      const { ledgerIndex } = write;
      const stored = await this.backend.header(ledgerIndex);
      if (!stored) throw new NotFound(`ledger ${ledgerIndex} is not stored`);
      if (!stored.ledgerHash.equals(write.ledgerHash)) {
        throw new Conflict(`ledger ${ledgerIndex} is stored with hash ${stored.ledgerHash.toString('hex').toUpperCase()}, not ${write.ledgerHash.toString('hex').toUpperCase()}`, {
          ledger_index: ledgerIndex,
        });
      }
      const stateSetAside = rangesContain(holdings.stateRanges, ledgerIndex) || (holdings.download.ledgerIndex === ledgerIndex && ledgerIndex !== 0);
      const ranges = removeFromRanges(holdings.completeRanges, ledgerIndex);
      holdings.counters = await this.backend.removeLedger(write, stored, { completeRanges: ranges, stateSetAside }, holdings.counters);
      holdings.completeRanges = ranges;
      if (stateSetAside) {
        holdings.stateRanges = [];
        holdings.download = STATE_SET_ASIDE;
      }
      holdings.announce(stateSetAside ? 'state_set_aside' : 'ledger_deleted', [{ first: ledgerIndex, last: ledgerIndex }]);
      return stateSetAside;
    });
  }

  /**
   * Stores the proven state changes of a stored ledger written without them (see PutStateChanges)
   * in one batch; the ledger then counts towards the state. Throws FailedPrecondition when the
   * ledger is not stored, Conflict when another hash is stored at its index.
   */
  async putStateChanges(request: PutStateChangesRequest): Promise<LedgerRange | undefined> {
    this.requireWriter();
    if (request.ledgerHash.length !== 32) throw new InvalidParams(`ledger_hash must be 32 bytes, got ${request.ledgerHash.length}`, 'ledger_hash');
    validateStateChanges(request.stateChanges, 'state_changes');
    return this.queue.write(async () => {
      const { holdings } = this;
      const { ledgerIndex } = request;
      const stored = await this.backend.header(ledgerIndex);
      if (!stored) throw new NotFound(`ledger ${ledgerIndex} is not stored; its state changes are not taken`);
      if (!stored.ledgerHash.equals(request.ledgerHash)) {
        throw new Conflict(
          `ledger ${ledgerIndex} is stored with hash ${stored.ledgerHash.toString('hex').toUpperCase()}, not ${Buffer.from(request.ledgerHash).toString('hex').toUpperCase()}`,
          { ledger_index: ledgerIndex },
        );
      }
      if (holdings.stateSetAside) throw stateSetAsideFor(ledgerIndex);
      const stateRanges = addToRanges(holdings.stateRanges, ledgerIndex);
      holdings.counters = await this.backend.addStateChanges(ledgerIndex, request.stateChanges, { stateRanges }, holdings.counters);
      holdings.stateRanges = stateRanges;
      holdings.announce('state_changes_added');
      return holdings.stateRangeAnswered();
    });
  }

  /**
   * Stores one page of the state download, staged (no read sees it), with the marker reached, in
   * one batch. A page for another ledger than an unfinished download restarts it there, and
   * `abandon` ends it: either way the staged pages are removed whole. `complete` (the writer
   * verified the staged state's root against the header's account_hash) promotes the staged
   * objects to versions at the download's ledger, batch by batch, and marks the download done in
   * the last batch; a crash before that leaves it unfinished and invisible. A complete download
   * is never restarted.
   */
  async putStateObjects(request: PutStateObjectsRequest): Promise<StateDownload> {
    this.requireWriter();
    validateStateObjectsPage(request);
    return this.queue.write(async () => {
      const { holdings } = this;
      const current = holdings.download;
      if (current.complete) {
        if (current.ledgerIndex === request.ledgerIndex && request.objects.length === 0 && request.complete) return holdings.stateDownload;
        throw new Conflict(`the state download at ledger ${current.ledgerIndex} is complete; it is not restarted`, {
          state_ledger_index: current.ledgerIndex,
        });
      }
      if (request.abandon || current.ledgerIndex !== request.ledgerIndex) {
        await this.backend.clearStagedState();
        if (request.abandon) {
          const none = { ...NO_DOWNLOAD, staleVersions: current.staleVersions };
          await this.backend.recordDownload(none);
          holdings.download = none;
          return holdings.stateDownload;
        }
      }
      const base: StateDownloadRecord = current.ledgerIndex !== request.ledgerIndex ? { ...NO_DOWNLOAD, ledgerIndex: request.ledgerIndex } : current;
      const record: StateDownloadRecord = {
        ledgerIndex: request.ledgerIndex,
        marker: request.complete ? Buffer.alloc(0) : Buffer.from(request.marker),
        complete: false,
        objectCount: base.objectCount + BigInt(request.objects.length),
        staleVersions: current.staleVersions,
      };
      await this.backend.stageStateObjects(request.objects, record);
      holdings.download = record;
      if (request.complete) {
        holdings.counters = await this.backend.promoteStagedState(record, holdings.counters);
        holdings.download = { ...record, complete: true, staleVersions: false };
        holdings.announce('state_download_completed');
      }
      return holdings.stateDownload;
    });
  }
}

function storedOtherwise(write: LedgerWrite, existing: Buffer): Conflict {
  return new Conflict(`ledger ${write.ledgerIndex} is stored with hash ${existing.toString('hex').toUpperCase()}, not ${write.ledgerHash.toString('hex').toUpperCase()}`, {
    ledger_index: write.ledgerIndex,
  });
}

/** State changes built on a state the store set aside are refused until a new download replaces it. */
function stateSetAsideFor(ledgerIndex: number): Conflict {
  return new Conflict(`the state changes of ledger ${ledgerIndex} are not taken: the stored account state was set aside and no download has replaced it yet`, {
    ledger_index: ledgerIndex,
  });
}
