import { describe, expect, it } from 'vitest';
import type { LedgerWrite, PutLedgersStreamRequest, PutLedgersStreamResponse } from '@ledger-node/contracts';
import { Conflict, Unavailable } from '@ledger-node/errors';
import type { DuplexCall } from '@ledger-node/grpc';
import { LedgerBatchStream } from './batch-stream';

const write = (ledgerIndex: number) => ({ ledgerIndex }) as LedgerWrite;

/** A PutLedgersStream call the test answers by hand: what was sent on it, and its answers. */
class FakeCall implements DuplexCall<PutLedgersStreamRequest, PutLedgersStreamResponse> {
  readonly sent: number[] = [];
  ended = false;
  cancelled = false;
  private readonly queued: (PutLedgersStreamResponse | Error | 'end')[] = [];
  private wake: (() => void) | undefined;

  send(request: PutLedgersStreamRequest): void {
    this.sent.push(request.ledgers[0]!.ledgerIndex);
  }
  end(): void {
    this.ended = true;
    this.push('end');
  }
  cancel(): void {
    this.cancelled = true;
    this.push(new Error('cancelled'));
  }
  answer(): void {
    this.push({ storedCount: 1, completeRanges: [] });
  }
  push(item: PutLedgersStreamResponse | Error | 'end'): void {
    this.queued.push(item);
    this.wake?.();
  }
  get responses(): AsyncIterable<PutLedgersStreamResponse> {
    const call = this;
    return (async function* () {
      for (;;) {
        const item = call.queued.shift();
        if (item === undefined) await new Promise<void>((resolve) => (call.wake = resolve));
        else if (item === 'end') return;
        else if (item instanceof Error) throw item;
        else yield item;
      }
    })();
  }
}

function setup(answerTimeoutMs?: number) {
  const calls: FakeCall[] = [];
  const failures: string[] = [];
  const stop = new AbortController();
  const stream = new LedgerBatchStream({
    open: () => {
      const call = new FakeCall();
      calls.push(call);
      return call;
    },
    retryable: (error) => error instanceof Unavailable,
    onFailure: (error) => failures.push((error as Error).message),
    onAnswer: () => undefined,
    signal: stop.signal,
    ...(answerTimeoutMs !== undefined ? { answerTimeoutMs } : {}),
  });
  return { calls, failures, stop, stream };
}

const settled = (promise: Promise<void>) => promise.then(() => 'stored', (error: Error) => error.message);
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('LedgerBatchStream', () => {
  it('sends batches on one stream without waiting, and resolves each with its answer, in order', async () => {
    const { calls, stream } = setup();
    const first = settled(stream.put([write(10)]));
    const second = settled(stream.put([write(9)]));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.sent).toEqual([10, 9]);
    calls[0]!.answer();
    await expect(first).resolves.toBe('stored');
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await tick();
    expect(secondDone).toBe(false);
    calls[0]!.answer();
    await expect(second).resolves.toBe('stored');
  });

  it('opens a new stream when the store is unreachable and sends every unanswered batch again, in order', async () => {
    const { calls, failures, stream } = setup();
    const retried: unknown[] = [];
    const first = settled(stream.put([write(10)], (error) => retried.push(error)));
    const second = settled(stream.put([write(9)]));
    calls[0]!.push(new Unavailable('ledger-store unavailable: cannot connect'));
    await tick();
    // Put while the broken stream waits to be opened again: queued behind the others, not sent on its own.
    const third = settled(stream.put([write(8)]));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(failures).toEqual(['ledger-store unavailable: cannot connect']);
    expect(retried).toHaveLength(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.sent).toEqual([10, 9, 8]);
    for (let answered = 0; answered < 3; answered++) calls[1]!.answer();
    await expect(Promise.all([first, second, third])).resolves.toEqual(['stored', 'stored', 'stored']);
  });

  it('fails the batch a refusal answers and every batch after it, and keeps working', async () => {
    const { calls, stream } = setup();
    const first = settled(stream.put([write(10)]));
    const second = settled(stream.put([write(9)]));
    const third = settled(stream.put([write(8)]));
    calls[0]!.answer();
    calls[0]!.push(new Conflict('ledger 9 is stored with another hash'));
    await expect(Promise.all([first, second, third])).resolves.toEqual(['stored', 'ledger 9 is stored with another hash', 'ledger 9 is stored with another hash']);
    const next = settled(stream.put([write(7)]));
    expect(calls).toHaveLength(2);
    calls[1]!.answer();
    await expect(next).resolves.toBe('stored');
  });

  it('sends a batch the store leaves unanswered again on a new stream', async () => {
    const { calls, failures, stream } = setup(50);
    const put = settled(stream.put([write(10)]));
    while (calls.length < 2) await tick();
    calls[1]!.answer();
    expect(calls[0]!.cancelled).toBe(true);
    expect(failures).toEqual(['ledger-store unavailable: no answer before the deadline']);
    expect(calls[1]!.sent).toEqual([10]);
    await expect(put).resolves.toBe('stored');
  });

  it('ends its stream and fails what is unanswered when sync stops', async () => {
    const { calls, stop, stream } = setup();
    const put = settled(stream.put([write(10)]));
    stop.abort();
    await expect(put).resolves.toBe('sync is stopping');
    expect(calls[0]!.ended).toBe(true);
    await expect(settled(stream.put([write(9)]))).resolves.toBe('sync is stopping');
  });
});
