/**
 * The evidence that proved each ledger (Bucket.ledgerEvidence), and the validator lists
 * (Bucket.validatorList) and manifests (Bucket.manifest) it was checked against, each kept once
 * however many ledgers name it. A ledger's record names its lists and manifests by key; reads join
 * them back into the LedgerEvidence that was written.
 */
import { manifestIdentity } from '@ledger-node/chain';
import { ValidatorListDocument, type LedgerEvidence } from '@ledger-node/contracts';
import { Internal } from '@ledger-node/errors';
import type { KeyValue, KvOperation } from '../storage/kv';
import { Keys } from '../storage/buckets';

/** A validator list by its publisher's key and sequence. */
export interface ListKey {
  publisherKey: Buffer;
  sequence: number;
}

/** A manifest by its master key and sequence. */
export interface ManifestKey {
  masterKey: Buffer;
  sequence: number;
}

/** A ledger's evidence as stored: its validations and quorum, its lists and manifests by key. */
export interface EvidenceRecord {
  quorum: number;
  validations: Buffer[];
  lists: ListKey[];
  manifests: ManifestKey[];
}

/** What one ledger's evidence writes: its record, and the lists (encoded documents) and manifests it names. */
export interface EvidenceRows {
  record: EvidenceRecord;
  lists: { key: ListKey; document: Buffer }[];
  manifests: { key: ManifestKey; manifest: Buffer }[];
}

/** The rows of evidence the store validated (ledgers/evidence.ts). */
export function evidenceRows(evidence: LedgerEvidence): EvidenceRows {
  const lists = evidence.validatorLists.map((document) => ({
    key: { publisherKey: Buffer.from(document.publicKey), sequence: document.sequence },
    document: Buffer.from(ValidatorListDocument.encode(document).finish()),
  }));
  const manifests = evidence.manifests.map((manifest) => {
    const { masterKey, sequence } = manifestIdentity(manifest);
    return { key: { masterKey: Buffer.from(masterKey, 'hex'), sequence }, manifest: Buffer.from(manifest) };
  });
  return {
    record: { quorum: evidence.quorum, validations: evidence.validations.map((validation) => Buffer.from(validation)), lists: lists.map(({ key }) => key), manifests: manifests.map(({ key }) => key) },
    lists,
    manifests,
  };
}

/**
 * Value layout: u32 quorum; u16 count, then u16 length + bytes per validation; u8 count, then
 * publisher key (33) + u32 sequence per list; u16 count, then master key (33) + u32 sequence per manifest.
 */
export function encodeEvidenceRecord(record: EvidenceRecord): Buffer {
  const parts: Buffer[] = [];
  const number = (value: number, width: 1 | 2 | 4) => {
    const buffer = Buffer.alloc(width);
    buffer.writeUIntBE(value, 0, width);
    parts.push(buffer);
  };
  number(record.quorum, 4);
  number(record.validations.length, 2);
  for (const validation of record.validations) {
    number(validation.length, 2);
    parts.push(validation);
  }
  number(record.lists.length, 1);
  for (const list of record.lists) {
    parts.push(list.publisherKey);
    number(list.sequence, 4);
  }
  number(record.manifests.length, 2);
  for (const manifest of record.manifests) {
    parts.push(manifest.masterKey);
    number(manifest.sequence, 4);
  }
  return Buffer.concat(parts);
}

export function decodeEvidenceRecord(value: Buffer): EvidenceRecord {
  let offset = 0;
  const number = (width: 1 | 2 | 4) => {
    const read = value.readUIntBE(offset, width);
    offset += width;
    return read;
  };
  const bytes = (length: number) => {
    const read = value.subarray(offset, offset + length);
    offset += length;
    return read;
  };
  const quorum = number(4);
  const validations = Array.from({ length: number(2) }, () => bytes(number(2)));
  const lists = Array.from({ length: number(1) }, () => ({ publisherKey: bytes(33), sequence: number(4) }));
  const manifests = Array.from({ length: number(2) }, () => ({ masterKey: bytes(33), sequence: number(4) }));
  if (offset !== value.length) throw new Internal(`a stored evidence record of ${value.length} bytes holds ${offset}`);
  return { quorum, validations, lists, manifests };
}

/** The evidence as it was written: a record with the lists (encoded documents) and manifests it names, in its order. */
export function evidenceOf(record: EvidenceRecord, lists: readonly (Buffer | undefined)[], manifests: readonly (Buffer | undefined)[]): LedgerEvidence {
  if (lists.includes(undefined) || manifests.includes(undefined)) throw new Internal('a stored evidence record names a list or manifest that is not stored');
  return {
    validations: record.validations,
    quorum: record.quorum,
    validatorLists: lists.map((document) => ValidatorListDocument.decode(document!)),
    manifests: manifests as Buffer[],
  };
}

export class EvidenceRepository {
  constructor(private readonly kv: KeyValue) {}

  static recordKey(ledgerIndex: number): Buffer {
    return Keys.ledgerEvidence.encode({ ledgerIndex });
  }

  static listKey(key: ListKey): Buffer {
    return Keys.validatorList.encode(key);
  }

  static manifestKey(key: ManifestKey): Buffer {
    return Keys.manifest.encode(key);
  }

  /** The keys of the lists and manifests `rows` name, to read which are stored already. */
  static sharedKeys(rows: EvidenceRows): Buffer[] {
    return [...rows.lists.map(({ key }) => EvidenceRepository.listKey(key)), ...rows.manifests.map(({ key }) => EvidenceRepository.manifestKey(key))];
  }

  /**
   * The operations that store a ledger's evidence: its record, and each list and manifest it names
   * that is not stored (`stored`: keys in hex, which takes those put here).
   */
  putOperations(ledgerIndex: number, rows: EvidenceRows, stored: Set<string>): KvOperation[] {
    const operations: KvOperation[] = [{ type: 'put', key: EvidenceRepository.recordKey(ledgerIndex), value: encodeEvidenceRecord(rows.record) }];
    const putOnce = (key: Buffer, value: Buffer) => {
      if (stored.has(key.toString('hex'))) return;
      stored.add(key.toString('hex'));
      operations.push({ type: 'put', key, value });
    };
    for (const list of rows.lists) putOnce(EvidenceRepository.listKey(list.key), list.document);
    for (const manifest of rows.manifests) putOnce(EvidenceRepository.manifestKey(manifest.key), manifest.manifest);
    return operations;
  }

  /** The ledger's record goes; the lists and manifests stay (small, and named by other ledgers). */
  deleteOperation(ledgerIndex: number): KvOperation {
    return { type: 'del', key: EvidenceRepository.recordKey(ledgerIndex) };
  }

  /** The ledgers from `first` to `last` that have an evidence record, ascending. */
  async ledgersBetween(first: number, last: number): Promise<number[]> {
    const indexes: number[] = [];
    for await (const [key] of this.kv.entries({ gte: EvidenceRepository.recordKey(first), lte: EvidenceRepository.recordKey(last) })) indexes.push(Keys.ledgerEvidence.decode(key).ledgerIndex);
    return indexes;
  }

  async get(ledgerIndex: number): Promise<LedgerEvidence | undefined> {
    const value = await this.kv.get(EvidenceRepository.recordKey(ledgerIndex));
    if (value === undefined) return undefined;
    const record = decodeEvidenceRecord(value);
    const [lists, manifests] = await Promise.all([
      this.kv.getMany(record.lists.map((key) => EvidenceRepository.listKey(key))),
      this.kv.getMany(record.manifests.map((key) => EvidenceRepository.manifestKey(key))),
    ]);
    return evidenceOf(record, lists, manifests);
  }
}
