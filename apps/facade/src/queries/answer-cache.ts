import { counter, observedGauge } from '@ledger-node/telemetry';
import { LRUCache } from 'lru-cache';

/** Cache, key string and Buffer object overhead of one entry beyond its bytes, roughly (V8, 64-bit). */
const ENTRY_OVERHEAD_BYTES = 160;

/** The metrics of one cache: its lookups by result, and its bytes; `what` says which cache in their help. */
export interface AnswerCacheMetrics {
  lookups: string;
  bytes: string;
  what: string;
}

const ANSWERS: AnswerCacheMetrics = {
  lookups: 'ledger_node_facade_answer_cache_lookups_total',
  bytes: 'ledger_node_facade_answer_cache_bytes',
  what: 'the cache of answers that never change',
};

/**
 * Answers that never change, kept as rendered JSON: a validated transaction by hash, an account's
 * balances at a validated ledger. The store holds validated ledgers only, so what it answers about
 * a stored ledger is final; "not found" is never kept (the ledger may be stored later), nor is
 * anything named by a tag rather than by its index (the tag moves). Bounded by bytes, least
 * recently used first out (lru-cache's maxSize); 0 keeps nothing. The JSON is kept outside the
 * JS heap, one exact-size UTF-8 buffer each: a full cache then neither counts towards the live
 * heap the garbage collector sizes the heap by (up to several times the live size) nor pins
 * pooled slabs.
 */
export class AnswerCache {
  /** Absent with a bound of 0: lru-cache wants a positive maxSize. */
  private readonly entries: LRUCache<string, Buffer> | undefined;
  private readonly hits: { inc(): void };
  private readonly misses: { inc(): void };

  constructor(maxBytes: number, metrics: AnswerCacheMetrics = ANSWERS) {
    this.entries = maxBytes > 0 ? new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (kept, key) => entrySize(key, kept.length) }) : undefined;
    const lookups = counter(metrics.lookups, `Lookups in ${metrics.what}, by result (hit or miss)`, ['result']);
    this.hits = lookups.labels('hit');
    this.misses = lookups.labels('miss');
    observedGauge(metrics.bytes, `Bytes held by ${metrics.what}`, () => this.entries?.calculatedSize ?? 0);
  }

  get(key: string): string | undefined {
    const kept = this.entries?.get(key);
    if (kept === undefined) {
      this.misses.inc();
      return undefined;
    }
    this.hits.inc();
    return kept.toString('utf8');
  }

  set(key: string, json: string): void {
    if (this.entries === undefined) return;
    const jsonBytes = Buffer.byteLength(json, 'utf8');
    // An answer larger than the whole bound is not kept (lru-cache would refuse it too).
    if (entrySize(key, jsonBytes) > this.entries.maxSize) return;
    const kept = Buffer.allocUnsafeSlow(jsonBytes);
    kept.write(json, 'utf8');
    this.entries.set(key, kept);
  }

  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries?.size ?? 0, bytes: this.entries?.calculatedSize ?? 0 };
  }
}

function entrySize(key: string, jsonBytes: number): number {
  return key.length + jsonBytes + ENTRY_OVERHEAD_BYTES;
}
