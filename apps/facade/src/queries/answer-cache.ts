import { counter, observedGauge } from '@ledger-node/telemetry';
import { LRUCache } from 'lru-cache';

/** Cache, key string and Buffer object overhead of one entry beyond its bytes, roughly (V8, 64-bit). */
const ENTRY_OVERHEAD_BYTES = 160;

const lookups = counter('ledger_node_facade_answer_cache_lookups_total', 'Lookups in the cache of answers that never change, by result (hit or miss)', ['result']);
const hits = lookups.labels('hit');
const misses = lookups.labels('miss');

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

  constructor(maxBytes: number) {
    this.entries = maxBytes > 0 ? new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (kept, key) => entrySize(key, kept.length) }) : undefined;
    observedGauge('ledger_node_facade_answer_cache_bytes', 'Bytes held by the cache of answers that never change', () => this.entries?.calculatedSize ?? 0);
  }

  get(key: string): string | undefined {
    const kept = this.entries?.get(key);
    if (kept === undefined) {
      misses.inc();
      return undefined;
    }
    hits.inc();
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
