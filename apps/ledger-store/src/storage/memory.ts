import type { KeyValue, KvOperation, KvRange } from './kv';

/**
 * A sorted in-memory KeyValue for unit tests of repositories. Keys are kept as lowercase hex,
 * whose string order is the keys' byte order; the sorted list is rebuilt after a write, once, when
 * the next range is read, and a range is found in it by binary search.
 */
export function memoryKeyValue(): KeyValue {
  const data = new Map<string, Buffer>();
  let sorted: string[] | undefined;
  const sortedKeys = () => (sorted ??= [...data.keys()].sort());
  /** The position of the first key at or above `hex` (`after`: above it). */
  const firstFrom = (keys: readonly string[], hex: string, after: boolean) => {
    let [low, high] = [0, keys.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keys[middle]! < hex || (after && keys[middle] === hex)) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const rangeOf = (range: KvRange): string[] => {
    const keys = sortedKeys();
    let start = 0;
    let end = keys.length;
    if (range.gte) start = Math.max(start, firstFrom(keys, range.gte.toString('hex'), false));
    if (range.gt) start = Math.max(start, firstFrom(keys, range.gt.toString('hex'), true));
    if (range.lt) end = Math.min(end, firstFrom(keys, range.lt.toString('hex'), false));
    if (range.lte) end = Math.min(end, firstFrom(keys, range.lte.toString('hex'), true));
    return start < end ? keys.slice(start, end) : [];
  };
  return {
    get: async (key) => data.get(key.toString('hex')),
    getMany: async (keys) => keys.map((key) => data.get(key.toString('hex'))),
    async batch(operations: KvOperation[]) {
      for (const op of operations) {
        const hex = op.key.toString('hex');
        if (op.type === 'put') {
          if (!data.has(hex)) sorted = undefined;
          data.set(hex, Buffer.from(op.value));
        } else if (data.delete(hex)) sorted = undefined;
      }
    },
    async *entries(range) {
      const keys = rangeOf(range);
      if (range.reverse) keys.reverse();
      const limited = range.limit !== undefined && range.limit >= 0 ? keys.slice(0, range.limit) : keys;
      for (const hex of limited) {
        const value = data.get(hex);
        if (value) yield [Buffer.from(hex, 'hex'), value];
      }
    },
    sizeOnDisk: async () => [...data.values()].reduce((sum, value) => sum + value.length, 0),
    close: async () => {},
  };
}
