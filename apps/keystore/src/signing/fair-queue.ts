import { Unavailable } from '@ledger-node/errors';
import { throwIfCancelled } from '@ledger-node/grpc';

interface Waiting {
  readonly work: () => Promise<unknown>;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

/**
 * Signatures wait here for their turn at the key derivation (a scrypt derivation each, one at a
 * time: keyFile.ts). Each caller (call-scope.ts: the facade names its HTTP client) has its own
 * queue and the queues are served in turn, so thirty signatures asked at once by one client delay
 * another client's by one derivation, not thirty. A caller may have `perCaller` waiting, and all
 * callers together `total`; beyond, a request is refused at once. A request whose caller went
 * away or ran out of time leaves its queue before its derivation starts.
 */
export class FairQueue {
  /** Callers with requests waiting, in the order they are served next. */
  private readonly queues = new Map<string, Waiting[]>();
  private waiting = 0;
  private running = false;

  constructor(
    private readonly perCaller: number,
    private readonly total: number,
  ) {}

  async run<T>(caller: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    throwIfCancelled(signal);
    const queue = this.queues.get(caller) ?? [];
    if (queue.length >= this.perCaller) throw new Unavailable(`signing is busy: ${queue.length} signatures of this caller are already waiting; try again shortly`);
    if (this.waiting >= this.total) throw new Unavailable(`signing is busy: ${this.waiting} signatures are waiting; try again shortly`);
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        work,
        signal,
        resolve: resolve as (value: unknown) => void,
        reject,
        onAbort: () => {
          const own = this.queues.get(caller);
          const position = own?.indexOf(entry) ?? -1;
          if (position < 0) return;
          own!.splice(position, 1);
          if (own!.length === 0) this.queues.delete(caller);
          this.waiting--;
          reject(new Unavailable('cancelled: the caller went away or its deadline passed'));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      queue.push(entry);
      this.queues.set(caller, queue);
      this.waiting++;
      this.next();
    });
  }

  /** Requests waiting now (all callers). */
  get size(): number {
    return this.waiting;
  }

  private next(): void {
    if (this.running) return;
    const served = this.queues.entries().next();
    if (served.done) return;
    const [caller, queue] = served.value;
    const entry = queue.shift()!;
    this.waiting--;
    // The caller goes to the back of the line; the others are served before its next request.
    this.queues.delete(caller);
    if (queue.length > 0) this.queues.set(caller, queue);
    entry.signal?.removeEventListener('abort', entry.onAbort);
    this.running = true;
    void entry
      .work()
      .then(entry.resolve, entry.reject)
      .finally(() => {
        this.running = false;
        this.next();
      });
  }
}
