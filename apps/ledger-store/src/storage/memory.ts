import type { KeyValue, KvOperation, KvRange } from './kv';

/** A sorted in-memory KeyValue for unit tests of repositories. */
export function memoryKeyValue(): KeyValue {
  const data = new Map<string, Buffer>();
  const sortedKeys = () => [...data.keys()].sort();
  const inRange = (hex: string, range: KvRange) => {
    const key = Buffer.from(hex, 'hex');
    if (range.gte && Buffer.compare(key, range.gte) < 0) return false;
    if (range.gt && Buffer.compare(key, range.gt) <= 0) return false;
    if (range.lt && Buffer.compare(key, range.lt) >= 0) return false;
    if (range.lte && Buffer.compare(key, range.lte) > 0) return false;
    return true;
  };
  return {
    get: async (key) => data.get(key.toString('hex')),
    getMany: async (keys) => keys.map((key) => data.get(key.toString('hex'))),
    async batch(operations: KvOperation[]) {
      for (const op of operations) {
        if (op.type === 'put') data.set(op.key.toString('hex'), Buffer.from(op.value));
        else data.delete(op.key.toString('hex'));
      }
    },
    async *entries(range) {
      const keys = sortedKeys().filter((hex) => inRange(hex, range));
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
