import type { KeyValue, KvOperation } from '../storage/kv';
import { Bucket, namedKey, u32, u64 } from '../storage/buckets';
import type { LedgerRange } from '../ledgers/ranges';
import { ZERO_COUNTERS, type ChainIdentity, type StoreCounters } from '../backend/records';

const COMPLETE_RANGES = namedKey(Bucket.storeMeta, 'complete_ranges');
const UNPROVEN_RANGES = namedKey(Bucket.storeMeta, 'unproven_ranges');
const COUNTERS = namedKey(Bucket.storeMeta, 'counters');
/** Where the store's format version is recorded (its own key: tests write other versions there). */
export const FORMAT_VERSION_KEY = namedKey(Bucket.storeMeta, 'format_version');
const CHAIN_IDENTITY = namedKey(Bucket.storeMeta, 'chain_identity');


/**
 * The store's own bookkeeping, one key each: the format version of its keys and values (u32), the
 * complete ranges and the unproven ranges (each u32 first, u32 last per range, ascending), the counters (four u64: ledgers,
 * transactions, state versions, ledgers with evidence; a store written before the fourth holds
 * three, and no evidence) and the
 * chain identity (JSON: chain, network_id, ledger_index, ledger_hash).
 */
export class StoreMetaRepository {
  constructor(private readonly kv: KeyValue) {}

  formatVersionOperation(version: number): KvOperation {
    return { type: 'put', key: FORMAT_VERSION_KEY, value: u32(version) };
  }

  /** The recorded format version; undefined in a new store (or one written before versions were recorded). */
  async formatVersion(): Promise<number | undefined> {
    const value = await this.kv.get(FORMAT_VERSION_KEY);
    if (value === undefined) return undefined;
    // Anything but four bytes is no version a ledger-node wrote.
    return value.length === 4 ? value.readUInt32BE(0) : Number.NaN;
  }

  chainIdentityOperation(identity: ChainIdentity): KvOperation {
    const value = { chain: identity.chain, network_id: identity.networkId ?? null, ledger_index: identity.ledgerIndex, ledger_hash: identity.ledgerHash.toString('hex').toUpperCase() };
    return { type: 'put', key: CHAIN_IDENTITY, value: Buffer.from(JSON.stringify(value)) };
  }

  /** The chain the store holds, as recorded at its first write; undefined before (or in a store older than the record). */
  async chainIdentity(): Promise<ChainIdentity | undefined> {
    const value = await this.kv.get(CHAIN_IDENTITY);
    if (value === undefined) return undefined;
    const { chain, network_id: networkId, ledger_index: ledgerIndex, ledger_hash: ledgerHash } = JSON.parse(value.toString('utf8')) as Record<string, unknown>;
    if (typeof chain !== 'string' || typeof ledgerIndex !== 'number' || typeof ledgerHash !== 'string' || !/^[0-9A-F]{64}$/.test(ledgerHash)) {
      throw new Error('the recorded chain identity is unreadable');
    }
    return { chain, ...(typeof networkId === 'number' ? { networkId } : {}), ledgerIndex, ledgerHash: Buffer.from(ledgerHash, 'hex') };
  }

  /**
   * The complete ranges a write leaves, and the unproven ones (ledgers stored by an import that
   * nothing proved yet, served by no read: see store/unproven.ts) when it changes them.
   */
  rangesOperations(after: { completeRanges: readonly LedgerRange[]; unprovenRanges?: readonly LedgerRange[] }): KvOperation[] {
    const operations: KvOperation[] = [{ type: 'put', key: COMPLETE_RANGES, value: encodeRanges(after.completeRanges) }];
    if (after.unprovenRanges) operations.push({ type: 'put', key: UNPROVEN_RANGES, value: encodeRanges(after.unprovenRanges) });
    return operations;
  }

  async ranges(): Promise<LedgerRange[]> {
    return decodeRanges(await this.kv.get(COMPLETE_RANGES));
  }

  async unprovenRanges(): Promise<LedgerRange[]> {
    return decodeRanges(await this.kv.get(UNPROVEN_RANGES));
  }

  countersOperation(counters: StoreCounters): KvOperation {
    return {
      type: 'put',
      key: COUNTERS,
      value: Buffer.concat([u64(counters.ledgerCount), u64(counters.transactionCount), u64(counters.stateObjectVersionCount), u64(counters.evidenceLedgerCount)]),
    };
  }

  async counters(): Promise<StoreCounters> {
    const value = await this.kv.get(COUNTERS);
    if (!value) return ZERO_COUNTERS;
    return {
      ledgerCount: value.readBigUInt64BE(0),
      transactionCount: value.readBigUInt64BE(8),
      stateObjectVersionCount: value.readBigUInt64BE(16),
      evidenceLedgerCount: value.length >= 32 ? value.readBigUInt64BE(24) : 0n,
    };
  }
}

function encodeRanges(ranges: readonly LedgerRange[]): Buffer {
  const value = Buffer.alloc(ranges.length * 8);
  ranges.forEach((range, position) => {
    value.writeUInt32BE(range.first, position * 8);
    value.writeUInt32BE(range.last, position * 8 + 4);
  });
  return value;
}

function decodeRanges(value: Buffer | undefined): LedgerRange[] {
  const ranges: LedgerRange[] = [];
  for (let offset = 0; value && offset < value.length; offset += 8) {
    ranges.push({ first: value.readUInt32BE(offset), last: value.readUInt32BE(offset + 4) });
  }
  return ranges;
}
