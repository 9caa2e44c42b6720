/**
 * The one queue of a store's writes: within a process every write runs after those queued before it,
 * so that the complete ranges and counters, kept in memory and written with each ledger, never race.
 */
import { Conflict, InvalidParams, NotFound } from '@ledger-node/errors';
import type { LedgerBackend } from '../backend/backend';
import type { Holdings } from './holdings';

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** A write failed in a way that leaves unknown whether the database took it. */
  private bookkeepingUncertain = false;

  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    /** Throws Unavailable, with the reason, unless this store is the writer. */
    private readonly requireWriter: () => void,
  ) {}

  /**
   * Runs a write after every write queued before it, if this store is still the writer then (each
   * caller checks it before validating too, so that a standby refuses as one). A write that failed
   * other than by the contract's refusals may have reached the database all the same (a PostgreSQL
   * COMMIT whose answer was lost): the next write reloads the bookkeeping first.
   */
  write<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      this.requireWriter();
      if (this.bookkeepingUncertain) {
        this.holdings.load(await this.backend.bookkeeping());
        this.bookkeepingUncertain = false;
      }
      try {
        return await task();
      } catch (error) {
        if (!(error instanceof InvalidParams || error instanceof Conflict || error instanceof NotFound)) this.bookkeepingUncertain = true;
        throw error;
      }
    });
  }

  /** Runs `task` after every write queued before it and before any queued after it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
