import type { KeyValue } from '../storage/kv';
import { Bucket, key } from '../storage/buckets';

/** Small values the sync service keeps across restarts (its anchor, checkpoints), by name. */
export class SyncMetaRepository {
  constructor(private readonly kv: KeyValue) {}

  private static keyOf(name: string): Buffer {
    return key(Bucket.syncMeta, Buffer.from(name, 'utf8'));
  }

  /** An empty value deletes the name. */
  async set(name: string, value: Buffer): Promise<void> {
    const entryKey = SyncMetaRepository.keyOf(name);
    await this.kv.batch([value.length === 0 ? { type: 'del', key: entryKey } : { type: 'put', key: entryKey, value }]);
  }

  get(name: string): Promise<Buffer | undefined> {
    return this.kv.get(SyncMetaRepository.keyOf(name));
  }
}
