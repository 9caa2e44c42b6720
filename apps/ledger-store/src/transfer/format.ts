/**
 * The ledger stream of `ledger-node export` and `ledger-node import`, format 1: a versioned,
 * length-delimited sequence of typed records, each payload a message of the LedgerStore contract
 * (proto/ledgernode/ledgerstore/v1/ledgerstore.proto) where one fits.
 *
 *   stream   = preamble record*
 *   preamble = "LNLEDGR\n" (8 bytes: 4C 4E 4C 45 44 47 52 0A) , format version (uint32, big-endian) = 1
 *   record   = kind (uint8) , length (uint32, big-endian, at most MAX_RECORD_BYTES) , payload (length bytes)
 *
 *   kind 1 CHAIN   first, once: the chain profile id the ledgers belong to, UTF-8 (`xrpl`, `jingtum`)
 *   kind 2 SOURCE  second, once: GetStatusResponse of the exported store (ranges and counts, for progress),
 *                  without role_detail, which names where the store is (streams of older exports
 *                  carry it: a reader ignores it)
 *   kind 3 LEDGER  one per stored ledger, ascending by index: LedgerWrite with ledger_index,
 *                  ledger_hash, header_blob and every transaction's hash, tx_blob, meta_blob,
 *                  tx_index, transaction_type and engine_result; no state changes, no account
 *                  index data (import derives it again from the verified bytes, as sync does)
 *   kind 4 END     last, once: ledger count (uint32) , transaction count (uint64), big-endian;
 *                  nothing may follow it, so a stream cut at a record boundary is refused too
 *
 * A reader refuses another magic or version, an unknown kind, a record out of place, a length past
 * MAX_RECORD_BYTES and a stream that ends before its END record, each with what it found where.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { GetStatusResponse, LedgerWrite } from '@ledger-node/contracts';

export const STREAM_MAGIC = Buffer.from('LNLEDGR\n', 'latin1');
export const STREAM_FORMAT_VERSION = 1;
/** The largest payload a record may hold: a mainnet ledger's transactions and metadata take a few MiB. */
export const MAX_RECORD_BYTES = 64 << 20;

export const RecordKind = { chain: 1, source: 2, ledger: 3, end: 4 } as const;
export type RecordKind = (typeof RecordKind)[keyof typeof RecordKind];

const KIND_NAMES: Record<number, string> = { 1: 'CHAIN', 2: 'SOURCE', 3: 'LEDGER', 4: 'END' };
const PREAMBLE_BYTES = STREAM_MAGIC.length + 4;
const RECORD_HEADER_BYTES = 5;
const END_BYTES = 12;

/** What the stream's END record counts. */
export interface StreamTotals {
  ledgerCount: number;
  transactionCount: bigint;
}

/** A stream that is not a well-formed ledger stream of this format; nothing after the fault is read. */
export class MalformedStream extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedStream';
  }
}

/** Writes a stream to `output`, waiting for it to drain (a slow disk or pipe holds the export back). */
export class StreamWriter {
  private ledgerCount = 0;
  private transactionCount = 0n;
  private lastLedgerIndex: number | undefined;

  private constructor(private readonly output: Writable) {}

  static async start(output: Writable, chain: string, source: GetStatusResponse): Promise<StreamWriter> {
    const writer = new StreamWriter(output);
    const version = Buffer.alloc(4);
    version.writeUInt32BE(STREAM_FORMAT_VERSION);
    await writer.write(Buffer.concat([STREAM_MAGIC, version]));
    await writer.record(RecordKind.chain, Buffer.from(chain, 'utf8'));
    await writer.record(RecordKind.source, Buffer.from(GetStatusResponse.encode(source).finish()));
    return writer;
  }

  /** One ledger; ledgers go in ascending order (the reader checks links between neighbours). */
  async ledger(write: LedgerWrite): Promise<void> {
    if (this.lastLedgerIndex !== undefined && write.ledgerIndex <= this.lastLedgerIndex) {
      throw new Error(`ledger ${write.ledgerIndex} written after ledger ${this.lastLedgerIndex}: a stream holds ledgers in ascending order`);
    }
    await this.record(RecordKind.ledger, Buffer.from(LedgerWrite.encode(write).finish()));
    this.lastLedgerIndex = write.ledgerIndex;
    this.ledgerCount++;
    this.transactionCount += BigInt(write.transactions.length);
  }

  /** The END record; the stream is complete once the output has taken it. */
  async end(): Promise<StreamTotals> {
    const totals = Buffer.alloc(END_BYTES);
    totals.writeUInt32BE(this.ledgerCount, 0);
    totals.writeBigUInt64BE(this.transactionCount, 4);
    await this.record(RecordKind.end, totals);
    return { ledgerCount: this.ledgerCount, transactionCount: this.transactionCount };
  }

  private async record(kind: RecordKind, payload: Buffer): Promise<void> {
    if (payload.length > MAX_RECORD_BYTES) throw new Error(`a ${KIND_NAMES[kind]} record of ${payload.length} bytes is larger than a record may be (${MAX_RECORD_BYTES} bytes)`);
    const header = Buffer.alloc(RECORD_HEADER_BYTES);
    header.writeUInt8(kind, 0);
    header.writeUInt32BE(payload.length, 1);
    await this.write(Buffer.concat([header, payload]));
  }

  private async write(bytes: Buffer): Promise<void> {
    if (!this.output.write(bytes)) await once(this.output, 'drain');
  }
}

/** Reads exactly the bytes asked for from a chunked source. */
class ByteReader {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private done = false;
  /** Bytes handed out so far: where in the stream a fault is. */
  offset = 0;

  constructor(private readonly chunks: AsyncIterator<Buffer | string>) {}

  /** `length` bytes, or what was left when the stream ended first. */
  async read(length: number): Promise<{ bytes: Buffer; complete: boolean }> {
    while (this.bufferedBytes < length && !this.done) {
      const next = await this.chunks.next();
      if (next.done) {
        this.done = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      this.buffered.push(chunk);
      this.bufferedBytes += chunk.length;
    }
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const taken = all.subarray(0, Math.min(length, all.length));
    const rest = all.subarray(taken.length);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.bufferedBytes = rest.length;
    this.offset += taken.length;
    return { bytes: taken, complete: taken.length === length };
  }

  /** True when the source holds no more bytes. */
  async atEnd(): Promise<boolean> {
    if (this.bufferedBytes > 0) return false;
    const { bytes } = await this.read(1);
    if (bytes.length === 0) return true;
    this.buffered = [bytes];
    this.bufferedBytes = 1;
    this.offset -= 1;
    return false;
  }
}

export interface StreamHeader {
  formatVersion: number;
  chain: string;
  source: GetStatusResponse;
}

/** A stream being read: its header, then its ledgers one by one, then its totals. */
export interface StreamReading {
  header: StreamHeader;
  /** Every LEDGER record in order; ends after the END record was read and checked. */
  ledgers(): AsyncGenerator<LedgerWrite>;
  /** The END record's counts, once `ledgers()` has ended. */
  totals(): StreamTotals;
}

/**
 * The ledger_index of a LedgerWrite's first bytes, when they hold it: protobuf writes field 1
 * (tag 0x08, a varint) first, so even a cut record names its ledger.
 */
function leadingLedgerIndex(bytes: Buffer): number | undefined {
  if (bytes[0] !== 0x08) return undefined;
  let value = 0;
  for (let position = 1; position < Math.min(bytes.length, 6); position++) {
    const byte = bytes[position]!;
    value += (byte & 0x7f) * 2 ** (7 * (position - 1));
    if ((byte & 0x80) === 0) return value;
  }
  return undefined;
}

/** Where the reader is, for an error: the record's number and the last ledger read before it. */
function place(recordNumber: number, lastLedgerIndex: number | undefined): string {
  return `record ${recordNumber}${lastLedgerIndex === undefined ? ', before any ledger' : `, after ledger ${lastLedgerIndex}`}`;
}

/**
 * Opens a stream from `chunks` (a file's or stdin's chunks): reads and checks the preamble, CHAIN
 * and SOURCE records. Throws MalformedStream for anything but a well-formed stream.
 */
export async function readStream(chunks: AsyncIterable<Buffer | string>): Promise<StreamReading> {
  const reader = new ByteReader(chunks[Symbol.asyncIterator]());
  const preamble = await reader.read(PREAMBLE_BYTES);
  const magic = preamble.bytes.subarray(0, STREAM_MAGIC.length);
  if (magic.length === 0) throw new MalformedStream('the stream is empty: it is not a ledger stream of ledger-node export');
  if (!STREAM_MAGIC.subarray(0, magic.length).equals(magic)) {
    throw new MalformedStream('the stream does not start with "LNLEDGR\\n": it is not a ledger stream of ledger-node export');
  }
  if (!preamble.complete) throw new MalformedStream('the stream ends inside its preamble, before its format version');
  const formatVersion = preamble.bytes.readUInt32BE(STREAM_MAGIC.length);
  if (formatVersion !== STREAM_FORMAT_VERSION) {
    throw new MalformedStream(`the stream is in format ${formatVersion}, and this ledger-node reads format ${STREAM_FORMAT_VERSION} only: import it with the release that exported it`);
  }

  let recordNumber = 0;
  let lastLedgerIndex: number | undefined;
  const nextRecord = async (): Promise<{ kind: number; payload: Buffer } | undefined> => {
    recordNumber++;
    const header = await reader.read(RECORD_HEADER_BYTES);
    if (header.bytes.length === 0) return undefined;
    if (!header.complete) throw new MalformedStream(`the stream is cut: it ends inside the header of ${place(recordNumber, lastLedgerIndex)}`);
    const kind = header.bytes.readUInt8(0);
    const length = header.bytes.readUInt32BE(1);
    if (KIND_NAMES[kind] === undefined) throw new MalformedStream(`${place(recordNumber, lastLedgerIndex)} is of unknown kind ${kind} at byte ${reader.offset - RECORD_HEADER_BYTES}: the stream is corrupt`);
    if (length > MAX_RECORD_BYTES) {
      throw new MalformedStream(`${place(recordNumber, lastLedgerIndex)} declares ${length} bytes, more than the ${MAX_RECORD_BYTES} a record may hold: the stream is corrupt`);
    }
    const payload = await reader.read(length);
    if (!payload.complete) {
      const cutLedger = kind === RecordKind.ledger ? leadingLedgerIndex(payload.bytes) : undefined;
      const what =
        cutLedger === undefined ? `${place(recordNumber, lastLedgerIndex)}, a ${KIND_NAMES[kind]} record` : `the LEDGER record of ledger ${cutLedger} (${place(recordNumber, lastLedgerIndex)})`;
      throw new MalformedStream(`the stream is cut: ${what} of ${length} bytes ends after ${payload.bytes.length} of them`);
    }
    return { kind, payload: payload.bytes };
  };
  const expectRecord = async (kind: RecordKind) => {
    const record = await nextRecord();
    if (!record) throw new MalformedStream(`the stream ends before its ${KIND_NAMES[kind]} record`);
    if (record.kind !== kind) throw new MalformedStream(`${place(recordNumber, lastLedgerIndex)} is a ${KIND_NAMES[record.kind]} record where the ${KIND_NAMES[kind]} record belongs`);
    return record.payload;
  };
  const decode = <T>(what: string, run: () => T): T => {
    try {
      return run();
    } catch (error) {
      throw new MalformedStream(`${place(recordNumber, lastLedgerIndex)} is not a valid ${what}: ${(error as Error).message}`);
    }
  };

  const chain = (await expectRecord(RecordKind.chain)).toString('utf8');
  const sourcePayload = await expectRecord(RecordKind.source);
  const source = decode('SOURCE record (GetStatusResponse)', () => GetStatusResponse.decode(sourcePayload));
  let totals: StreamTotals | undefined;
  let ledgerCount = 0;
  let transactionCount = 0n;

  return {
    header: { formatVersion, chain, source },
    async *ledgers() {
      for (;;) {
        const record = await nextRecord();
        if (!record) throw new MalformedStream(`the stream is cut: it ends after ${ledgerCount} ledgers${lastLedgerIndex === undefined ? '' : ` (the last ledger ${lastLedgerIndex})`}, without its END record`);
        if (record.kind === RecordKind.end) {
          if (record.payload.length !== END_BYTES) throw new MalformedStream(`the END record holds ${record.payload.length} bytes, not ${END_BYTES}: the stream is corrupt`);
          totals = { ledgerCount: record.payload.readUInt32BE(0), transactionCount: record.payload.readBigUInt64BE(4) };
          if (totals.ledgerCount !== ledgerCount || totals.transactionCount !== transactionCount) {
            throw new MalformedStream(
              `the END record counts ${totals.ledgerCount} ledgers and ${totals.transactionCount} transactions, the stream held ${ledgerCount} and ${transactionCount}: records are missing`,
            );
          }
          if (!(await reader.atEnd())) throw new MalformedStream(`bytes follow the END record at byte ${reader.offset}: the stream is corrupt`);
          return;
        }
        if (record.kind !== RecordKind.ledger) throw new MalformedStream(`${place(recordNumber, lastLedgerIndex)} is a ${KIND_NAMES[record.kind]} record among the ledgers`);
        const write = decode('LEDGER record (LedgerWrite)', () => LedgerWrite.decode(record.payload));
        if (lastLedgerIndex !== undefined && write.ledgerIndex <= lastLedgerIndex) {
          throw new MalformedStream(`ledger ${write.ledgerIndex} follows ledger ${lastLedgerIndex}: a stream holds ledgers in ascending order`);
        }
        lastLedgerIndex = write.ledgerIndex;
        ledgerCount++;
        transactionCount += BigInt(write.transactions.length);
        yield write;
      }
    },
    totals() {
      if (!totals) throw new Error('the stream has not been read to its END record');
      return totals;
    },
  };
}
