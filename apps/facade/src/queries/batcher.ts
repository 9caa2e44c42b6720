import { outsideCallScope } from '@ledger-node/grpc';
import { currentTraceContext, inBatchSpan, type TraceContext } from '@ledger-node/telemetry';

interface Waiter<K, V> {
  key: K;
  trace: TraceContext;
  resolve(value: V): void;
  reject(error: unknown): void;
}

/**
 * Gathers the lookups made during one turn of the event loop (the calls of a JSON-RPC batch, and
 * the single calls that arrived together) into one call of `loadMany`, at most `maxKeys` keys per
 * call: one gRPC hop serves them all. `loadMany` answers every key, in order, with its value or
 * with the Error that key alone fails with; a failed call fails every lookup it carried.
 */
export class Batcher<K, V> {
  private pending: Waiter<K, V>[] = [];

  constructor(
    /** Name of the span each call of `loadMany` runs in. */
    private readonly spanName: string,
    private readonly maxKeys: number,
    private readonly loadMany: (keys: K[]) => Promise<(V | Error)[]>,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      // setImmediate runs after the I/O callbacks of this turn: every request read in it has asked by then.
      // The call serves every caller of the turn: one of them going away must not cancel it for the others.
      if (this.pending.length === 0) setImmediate(() => outsideCallScope(() => this.flush()));
      this.pending.push({ key, trace: currentTraceContext(), resolve, reject });
    });
  }

  private flush(): void {
    const waiters = this.pending;
    this.pending = [];
    for (let first = 0; first < waiters.length; first += this.maxKeys) void this.run(waiters.slice(first, first + this.maxKeys));
  }

  private async run(waiters: Waiter<K, V>[]): Promise<void> {
    try {
      const keys = waiters.map((waiter) => waiter.key);
      const answers = await inBatchSpan(this.spanName, {}, waiters.map((waiter) => waiter.trace), () => this.loadMany(keys));
      waiters.forEach((waiter, position) => {
        const answer = answers[position] as V | Error;
        if (answer instanceof Error) waiter.reject(answer);
        else waiter.resolve(answer);
      });
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }
}
