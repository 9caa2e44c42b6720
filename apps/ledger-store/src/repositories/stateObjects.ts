import type { KeyValue, KvOperation } from '../storage/kv';
import { Bucket, bucketRange, Keys, namedKey, prefixRange } from '../storage/buckets';
import type { LedgerRange } from '../ledgers/ranges';
import { NO_DOWNLOAD, type StateDownloadRecord, type StateWindow } from '../backend/records';

/** A state object as of some ledger: its bytes, or `deleted` (a tombstone). */
export type StateObjectVersion = { ledgerIndex: number; deleted: false; blob: Buffer } | { ledgerIndex: number; deleted: true };

/**
 * Versioned state objects: (object key, ledger index) → the object as it is after that ledger, or
 * an empty value when it does not exist after that ledger (an object is never empty: it holds at
 * least its type). Every version is exact; versions come from three writers:
 *
 * - after-images: each stored ledger L writes, for every object it changed, the object after L
 *   (a tombstone when L deleted it);
 * - before-images: the same write puts the object as it was before L at L-1 (a tombstone when L
 *   created it), unless a version is already stored there (it would be the same object);
 * - the snapshot: every object that exists after the state download's ledger L0, promoted from the
 *   download's staged pages once their root verified (StagedStateRepository).
 *
 * A ledger counts towards the state only when its write says its changes are complete
 (`state_changes_complete`: every changed object, the skip lists included, with its after-image,
 * and its before-image unless the previous ledger's after-image is that object, as for the recent
 * skip list that every ledger changes). With the download complete, the state is known exactly at
 * every ledger Q of [low, high] (see `stateWindow`): high is the top of the run of complete
 * ledgers above L0, low the bottom of the run of complete ledgers reaching down to L0. The lookup
 * at Q:
 *
 * 1. the newest version in [low, Q] — every ledger in (version, Q] is complete and did not
 *    write the object, so it did not change since;
 * 2. else, when Q < L0, the oldest version in (Q, L0] — no complete ledger in (Q, that version]
 *    changed the object (it would have left a before-image at Q, or ledger Q its own after-image
 *    there), so it is the object at
 *    Q too; this is how an object unchanged since long before L0 is answered below L0;
 * 3. else the object does not exist at Q: it was not in the snapshot, and nothing in [low, Q]
 *    created it.
 */
export class StateObjectRepository {
  constructor(private readonly kv: KeyValue) {}

  static versionKey(objectKey: Buffer, ledgerIndex: number): Buffer {
    return Keys.stateObjectVersion.encode({ objectKey, ledgerIndex });
  }

  /** `blob` undefined (or empty) stores a tombstone. */
  putOperation(objectKey: Buffer, ledgerIndex: number, blob: Buffer | undefined): KvOperation {
    return { type: 'put', key: StateObjectRepository.versionKey(objectKey, ledgerIndex), value: blob ?? Buffer.alloc(0) };
  }

  /** The newest stored version at or below `ledgerIndex` (and at or above `lowest`), if any. */
  async at(objectKey: Buffer, ledgerIndex: number, lowest = 0): Promise<StateObjectVersion | undefined> {
    if (ledgerIndex < lowest) return undefined;
    const entries = this.kv.entries({
      gte: StateObjectRepository.versionKey(objectKey, lowest),
      lte: StateObjectRepository.versionKey(objectKey, ledgerIndex),
      reverse: true,
      limit: 1,
    });
    for await (const [entryKey, value] of entries) return decodeVersion(Keys.stateObjectVersion.decode(entryKey).ledgerIndex, value);
    return undefined;
  }

  /** The oldest stored version in (above, upTo], if any. */
  async firstAbove(objectKey: Buffer, above: number, upTo: number): Promise<StateObjectVersion | undefined> {
    if (upTo <= above) return undefined;
    const entries = this.kv.entries({
      gt: StateObjectRepository.versionKey(objectKey, above),
      lte: StateObjectRepository.versionKey(objectKey, upTo),
      limit: 1,
    });
    for await (const [entryKey, value] of entries) return decodeVersion(Keys.stateObjectVersion.decode(entryKey).ledgerIndex, value);
    return undefined;
  }

  /** The object at `ledgerIndex` by the lookup rule above; undefined when it does not exist there. */
  async objectAt(objectKey: Buffer, ledgerIndex: number, window: StateWindow): Promise<Buffer | undefined> {
    const version =
      (await this.at(objectKey, ledgerIndex, window.versionFloor ?? window.low)) ??
      (ledgerIndex < window.snapshotLedgerIndex ? await this.firstAbove(objectKey, ledgerIndex, window.snapshotLedgerIndex) : undefined);
    return version && !version.deleted ? version.blob : undefined;
  }

  /**
   * The objects at `ledgerIndex` by the lookup rule, in the order asked. A key is a seek for its
   * newest version, not a point get: each distinct key is looked up once, the keys concurrently.
   */
  async objectsAt(objectKeys: readonly Buffer[], ledgerIndex: number, window: StateWindow): Promise<(Buffer | undefined)[]> {
    const lookups = new Map<string, Promise<Buffer | undefined>>();
    return Promise.all(
      objectKeys.map((objectKey) => {
        const hex = objectKey.toString('hex');
        const lookup = lookups.get(hex) ?? this.objectAt(objectKey, ledgerIndex, window);
        lookups.set(hex, lookup);
        return lookup;
      }),
    );
  }

  /**
   * Objects existing at `ledgerIndex`, ascending by key, after `afterKey` and below `beforeKey`
   * (when given), at most `limit`; also the key to continue after (undefined when no object key of
   * the range is left). One pass over the versions of the range.
   */
  async listAt(
    ledgerIndex: number,
    window: StateWindow,
    afterKey: Buffer | undefined,
    limit: number,
    beforeKey?: Buffer,
  ): Promise<{ objects: { key: Buffer; blob: Buffer }[]; nextAfterKey: Buffer | undefined }> {
    const objects: { key: Buffer; blob: Buffer }[] = [];
    const bucket = bucketRange(Bucket.stateObjectVersion);
    // Every version of a key sorts after (key, 0) and at or before (key, 2^32-1).
    const range = {
      ...(afterKey ? { gt: StateObjectRepository.versionKey(afterKey, 0xffffffff) } : { gte: bucket.gte }),
      lt: beforeKey ? StateObjectRepository.versionKey(beforeKey, 0) : bucket.lt,
    };
    const floor = window.versionFloor ?? window.low;
    let current: { key: Buffer; newestAtOrBelow?: Buffer; oldestAbove?: Buffer; seenBelow: boolean; seenAbove: boolean } | undefined;
    const finish = () => {
      if (!current) return;
      const blob = current.seenBelow ? current.newestAtOrBelow : current.oldestAbove;
      if (blob !== undefined && blob.length > 0) objects.push({ key: current.key, blob });
    };
    for await (const [entryKey, value] of this.kv.entries(range)) {
      const { objectKey, ledgerIndex: versionLedger } = Keys.stateObjectVersion.decode(entryKey);
      if (!current || !current.key.equals(objectKey)) {
        finish();
        if (objects.length >= limit) return { objects, nextAfterKey: objects.at(-1)!.key };
        current = { key: objectKey, seenBelow: false, seenAbove: false };
      }
      if (versionLedger >= floor && versionLedger <= ledgerIndex) {
        current.newestAtOrBelow = value;
        current.seenBelow = true;
      } else if (versionLedger > ledgerIndex && versionLedger <= window.snapshotLedgerIndex && !current.seenAbove) {
        current.oldestAbove = value;
        current.seenAbove = true;
      }
    }
    finish();
    return { objects, nextAfterKey: undefined };
  }

  deleteOperation(objectKey: Buffer, ledgerIndex: number): KvOperation {
    return { type: 'del', key: StateObjectRepository.versionKey(objectKey, ledgerIndex) };
  }

  /**
   * The versions no lookup at or above `keepLow` reads (bounded history): for each object, every
   * version below its newest one at or below `keepLow`. Objects after `afterKey` are read, whole,
   * until at least `limit` versions were read; `nextAfterKey` is the last object read (undefined
   * when the bucket is exhausted).
   */
  async superseded(keepLow: number, afterKey: Buffer | undefined, limit: number): Promise<{ versions: { objectKey: Buffer; ledgerIndex: number }[]; nextAfterKey: Buffer | undefined }> {
    const range = afterKey
      ? { gt: StateObjectRepository.versionKey(afterKey, 0xffffffff), lt: bucketRange(Bucket.stateObjectVersion).lt }
      : bucketRange(Bucket.stateObjectVersion);
    const versions: { objectKey: Buffer; ledgerIndex: number }[] = [];
    let current: Buffer | undefined;
    let atOrBelow: number[] = [];
    let read = 0;
    const finish = () => {
      if (current) for (const ledgerIndex of atOrBelow.slice(0, -1)) versions.push({ objectKey: current, ledgerIndex });
    };
    for await (const [entryKey] of this.kv.entries(range)) {
      const { objectKey, ledgerIndex } = Keys.stateObjectVersion.decode(entryKey);
      if (!current || !current.equals(objectKey)) {
        finish();
        if (read >= limit) return { versions, nextAfterKey: current };
        current = objectKey;
        atOrBelow = [];
      }
      read++;
      if (ledgerIndex <= keepLow) atOrBelow.push(ledgerIndex);
    }
    finish();
    return { versions, nextAfterKey: undefined };
  }

  /** Every stored version of an object, ascending. */
  async *versions(objectKey: Buffer): AsyncIterable<StateObjectVersion> {
    for await (const [entryKey, value] of this.kv.entries(prefixRange(Keys.stateObjectVersion.prefix({ objectKey })))) {
      yield decodeVersion(Keys.stateObjectVersion.decode(entryKey).ledgerIndex, value);
    }
  }
}

function decodeVersion(ledgerIndex: number, value: Buffer): StateObjectVersion {
  return value.length === 0 ? { ledgerIndex, deleted: true } : { ledgerIndex, deleted: false, blob: value };
}

/**
 * Which trust lines each account is a side of: (account, object key) → nothing. Membership is
 * never removed; whether the line exists at a ledger is answered by its versions.
 */
export class TrustLineRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(accountId: Buffer, objectKey: Buffer): KvOperation {
    return { type: 'put', key: Keys.accountTrustLine.encode({ accountId, objectKey }), value: Buffer.alloc(0) };
  }

  async keysOf(accountId: Buffer): Promise<Buffer[]> {
    const keys: Buffer[] = [];
    for await (const [entryKey] of this.kv.entries(prefixRange(Keys.accountTrustLine.prefix({ accountId })))) keys.push(Keys.accountTrustLine.decode(entryKey).objectKey);
    return keys;
  }
}

/**
 * The running state download's pages: object key → bytes at the download's ledger. No read of the
 * state sees them; once the writer verified their root against the ledger's account_hash they are
 * promoted to versions at that ledger, and a download that fails or restarts elsewhere is removed whole.
 */
export class StagedStateRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(objectKey: Buffer, blob: Buffer): KvOperation {
    return { type: 'put', key: Keys.stateStage.encode({ objectKey }), value: blob };
  }

  deleteOperation(objectKey: Buffer): KvOperation {
    return { type: 'del', key: Keys.stateStage.encode({ objectKey }) };
  }

  /** Staged objects ascending by key, after `afterKey` and below `beforeKey` (when given), at most `limit`. */
  async page(afterKey: Buffer | undefined, limit: number, beforeKey?: Buffer): Promise<{ key: Buffer; blob: Buffer }[]> {
    const bucket = bucketRange(Bucket.stateStage);
    const range = {
      ...(afterKey ? { gt: Keys.stateStage.encode({ objectKey: afterKey }) } : { gte: bucket.gte }),
      lt: beforeKey ? Keys.stateStage.encode({ objectKey: beforeKey }) : bucket.lt,
      limit,
    };
    const objects: { key: Buffer; blob: Buffer }[] = [];
    for await (const [entryKey, value] of this.kv.entries(range)) objects.push({ key: Keys.stateStage.decode(entryKey).objectKey, blob: value });
    return objects;
  }
}

const DOWNLOAD = namedKey(Bucket.stateMeta, 'download');
const STATE_RANGES = namedKey(Bucket.stateMeta, 'state_ranges');

/**
 * State bookkeeping: the download record (u32 ledger, u8 flags: 1 complete and 2 stale versions,
 * u64 object count, marker) and
 * the runs of ledgers stored with complete state changes (u32 first, u32 last per run).
 */
export class StateMetaRepository {
  constructor(private readonly kv: KeyValue) {}

  downloadOperation(record: StateDownloadRecord): KvOperation {
    const fixed = Buffer.alloc(13);
    fixed.writeUInt32BE(record.ledgerIndex, 0);
    fixed.writeUInt8((record.complete ? 1 : 0) | (record.staleVersions ? 2 : 0), 4);
    fixed.writeBigUInt64BE(record.objectCount, 5);
    return { type: 'put', key: DOWNLOAD, value: Buffer.concat([fixed, record.marker]) };
  }

  async download(): Promise<StateDownloadRecord> {
    const value = await this.kv.get(DOWNLOAD);
    if (!value) return NO_DOWNLOAD;
    return {
      ledgerIndex: value.readUInt32BE(0),
      complete: (value.readUInt8(4) & 1) !== 0,
      objectCount: value.readBigUInt64BE(5),
      marker: Buffer.from(value.subarray(13)),
      staleVersions: (value.readUInt8(4) & 2) !== 0,
    };
  }

  stateRangesOperation(ranges: readonly LedgerRange[]): KvOperation {
    const value = Buffer.alloc(ranges.length * 8);
    ranges.forEach((range, position) => {
      value.writeUInt32BE(range.first, position * 8);
      value.writeUInt32BE(range.last, position * 8 + 4);
    });
    return { type: 'put', key: STATE_RANGES, value };
  }

  async stateRanges(): Promise<LedgerRange[]> {
    const value = await this.kv.get(STATE_RANGES);
    const ranges: LedgerRange[] = [];
    for (let offset = 0; value && offset < value.length; offset += 8) {
      ranges.push({ first: value.readUInt32BE(offset), last: value.readUInt32BE(offset + 4) });
    }
    return ranges;
  }
}
