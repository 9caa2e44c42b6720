import { counter, observedGauge } from '@ledger-node/telemetry';

/** Map and string overhead of one entry beyond its characters, roughly, in bytes (V8, 64-bit). */
const ENTRY_OVERHEAD_BYTES = 96;

const lookups = counter('ledger_node_facade_answer_cache_lookups_total', 'Lookups in the cache of answers that never change, by result (hit or miss)', ['result']);
const hits = lookups.labels('hit');
const misses = lookups.labels('miss');

/**
 * Answers that never change, kept as rendered JSON: a validated transaction by hash, an account's
 * balances at a validated ledger. The store holds validated ledgers only, so what it answers about
 * a stored ledger is final; "not found" is never kept (the ledger may be stored later), nor is
 * anything named by a tag rather than by its index (the tag moves). Bounded by bytes (the answers
 * are ASCII: one byte per character), least recently used first out; 0 keeps nothing.
 */
export class AnswerCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {
    observedGauge('ledger_node_facade_answer_cache_bytes', 'Bytes held by the cache of answers that never change', () => this.bytes);
  }

  get(key: string): string | undefined {
    const json = this.entries.get(key);
    (json === undefined ? misses : hits).inc();
    if (json !== undefined) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, json);
    }
    return json;
  }

  set(key: string, json: string): void {
    const size = entrySize(key, json);
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= entrySize(key, previous);
    }
    this.entries.set(key, json);
    this.bytes += size;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= entrySize(oldestKey, oldest);
    }
  }

  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

function entrySize(key: string, json: string): number {
  return key.length + json.length + ENTRY_OVERHEAD_BYTES;
}
