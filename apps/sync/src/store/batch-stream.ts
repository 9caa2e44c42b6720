/**
 * PutLedgersStream as sync uses it: batches of ledgers sent one after the other on one stream and
 * answered in order, so that the next batch crosses to the store while the one before is written.
 * A stream that breaks while the store is unreachable (a restart), or leaves a batch unanswered for
 * `answerTimeoutMs`, is opened again and every batch not yet answered sent again, in order (an
 * identical re-write is idempotent in the store); any other failure fails the batch it answers and
 * every batch sent after it.
 */
import type { LedgerWrite, PutLedgersStreamRequest, PutLedgersStreamResponse } from '@ledger-node/contracts';
import { Unavailable } from '@ledger-node/errors';
import type { DuplexCall } from '@ledger-node/grpc';
import { backoffDelayMs, sleep } from '@ledger-node/upstream';
import { observeStage, secondsSince } from '../stage-timing';

interface Batch {
  ledgers: LedgerWrite[];
  /** Hears each failure after which the batch is sent again. */
  onRetry?: (error: unknown) => void;
  sentAtNs: bigint;
  resolve(): void;
  reject(error: unknown): void;
}

export interface BatchStreamOptions {
  /** Opens a PutLedgersStream call. */
  open(): DuplexCall<PutLedgersStreamRequest, PutLedgersStreamResponse>;
  /** Whether a failure is the store being unreachable, after which the batches are sent again. */
  retryable(error: unknown): boolean;
  /** Told of each failure that is retried, with the wait before the next attempt. */
  onFailure(error: unknown, delayMs: number): void;
  /** Told of each answer. */
  onAnswer(): void;
  /** Sync stopping: nothing is sent any more, and the batches not answered fail. */
  signal: AbortSignal;
  answerTimeoutMs?: number;
}

export class LedgerBatchStream {
  private call: DuplexCall<PutLedgersStreamRequest, PutLedgersStreamResponse> | undefined;
  /** Sent on the current call (or waiting for the next one), oldest first. */
  private readonly unanswered: Batch[] = [];
  /** While a broken stream waits to be opened again, batches are queued, not sent. */
  private reopening = false;
  private failedAttempts = 0;
  private answerTimer: NodeJS.Timeout | undefined;
  private timedOut = false;

  constructor(private readonly options: BatchStreamOptions) {
    options.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Stores a batch after every batch put before it; resolves once the store answered it. */
  put(ledgers: LedgerWrite[], onRetry?: (error: unknown) => void): Promise<void> {
    if (this.options.signal.aborted) return Promise.reject(new Unavailable('sync is stopping'));
    return new Promise<void>((resolve, reject) => {
      const batch: Batch = { ledgers, onRetry, sentAtNs: process.hrtime.bigint(), resolve, reject };
      this.unanswered.push(batch);
      if (!this.reopening) this.send(this.current(), batch);
    });
  }

  /** Ends the stream; batches not answered fail. */
  close(): void {
    clearTimeout(this.answerTimer);
    this.call?.end();
    this.call = undefined;
    this.failAll(new Unavailable('sync is stopping'));
  }

  private current(): DuplexCall<PutLedgersStreamRequest, PutLedgersStreamResponse> {
    if (!this.call) {
      const call = this.options.open();
      this.call = call;
      void this.read(call);
    }
    return this.call;
  }

  private send(call: DuplexCall<PutLedgersStreamRequest, PutLedgersStreamResponse>, batch: Batch): void {
    batch.sentAtNs = process.hrtime.bigint();
    call.send({ ledgers: batch.ledgers });
    this.watchAnswer();
  }

  /** A batch at the head unanswered for the timeout ends the stream, which is opened again. */
  private watchAnswer(): void {
    clearTimeout(this.answerTimer);
    if (this.unanswered.length === 0) return;
    this.answerTimer = setTimeout(() => {
      this.timedOut = true;
      this.call?.cancel();
    }, this.options.answerTimeoutMs ?? 60_000);
    this.answerTimer.unref();
  }

  private async read(call: DuplexCall<PutLedgersStreamRequest, PutLedgersStreamResponse>): Promise<void> {
    let failure: unknown;
    try {
      for await (const _answer of call.responses) {
        const batch = this.unanswered.shift();
        if (!batch) throw new Error('the ledger-store answered a batch that was not sent');
        observeStage('grpc', secondsSince(batch.sentAtNs), batch.ledgers.length);
        this.failedAttempts = 0;
        this.options.onAnswer();
        batch.resolve();
        this.watchAnswer();
      }
    } catch (error) {
      failure = error;
    }
    if (this.call === call) this.call = undefined;
    if (this.timedOut) {
      this.timedOut = false;
      failure = new Unavailable('ledger-store unavailable: no answer before the deadline');
    }
    // The stream ended (the store stopping) or broke with batches unanswered: they go again on a new one.
    if (failure === undefined && this.unanswered.length > 0) failure = new Unavailable('ledger-store unavailable: the stream ended');
    if (failure === undefined || this.options.signal.aborted) return;
    if (!this.options.retryable(failure)) {
      clearTimeout(this.answerTimer);
      this.failAll(failure);
      return;
    }
    this.reopening = true;
    this.unanswered[0]?.onRetry?.(failure);
    const delayMs = backoffDelayMs(this.failedAttempts++, 200, 5_000);
    this.options.onFailure(failure, delayMs);
    await sleep(delayMs, this.options.signal);
    this.reopening = false;
    if (this.options.signal.aborted || this.unanswered.length === 0) return;
    const next = this.current();
    for (const batch of this.unanswered) this.send(next, batch);
  }

  private failAll(error: unknown): void {
    for (const batch of this.unanswered.splice(0)) batch.reject(error);
  }
}
