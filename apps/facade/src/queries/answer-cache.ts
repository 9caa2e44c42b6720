import { counter, observedGauge } from '@ledger-node/telemetry';

/** Map, key string and Buffer object overhead of one entry beyond its bytes, roughly (V8, 64-bit). */
const ENTRY_OVERHEAD_BYTES = 160;

const lookups = counter('ledger_node_facade_answer_cache_lookups_total', 'Lookups in the cache of answers that never change, by result (hit or miss)', ['result']);
const hits = lookups.labels('hit');
const misses = lookups.labels('miss');

/**
 * Answers that never change, kept as rendered JSON: a validated transaction by hash, an account's
 * balances at a validated ledger. The store holds validated ledgers only, so what it answers about
 * a stored ledger is final; "not found" is never kept (the ledger may be stored later), nor is
 * anything named by a tag rather than by its index (the tag moves). Bounded by bytes, least
 * recently used first out; 0 keeps nothing. The JSON is kept outside the JS heap, one exact-size
 * UTF-8 buffer each: a full cache then neither counts towards the live heap the
 * garbage collector sizes the heap by (up to several times the live size) nor pins pooled slabs.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {
    observedGauge('ledger_node_facade_answer_cache_bytes', 'Bytes held by the cache of answers that never change', () => this.bytes);
  }

  get(key: string): string | undefined {
    const kept = this.entries.get(key);
    if (kept === undefined) {
      misses.inc();
      return undefined;
    }
    hits.inc();
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, kept);
    return kept.toString('utf8');
  }

  set(key: string, json: string): void {
    const jsonBytes = Buffer.byteLength(json, 'utf8');
    if (entrySize(key, jsonBytes) > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= entrySize(key, previous.length);
    }
    const kept = Buffer.allocUnsafeSlow(jsonBytes);
    kept.write(json, 'utf8');
    this.entries.set(key, kept);
    this.bytes += entrySize(key, jsonBytes);
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= entrySize(oldestKey, oldest.length);
    }
  }

  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

function entrySize(key: string, jsonBytes: number): number {
  return key.length + jsonBytes + ENTRY_OVERHEAD_BYTES;
}
