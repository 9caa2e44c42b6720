import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { GetStatusResponse, LedgerWrite } from '@ledger-node/contracts';
import { MAINNET_RUN, mainnetLedgerWrite } from '../../test/support/ledgerWrites';
import { MalformedStream, MAX_RECORD_BYTES, readStream, StreamWriter, STREAM_MAGIC } from './format';

const SOURCE: GetStatusResponse = {
  completeRanges: [{ first: MAINNET_RUN[0], last: MAINNET_RUN[2] }],
  unprovenRanges: [],
  lowestLedgerIndex: MAINNET_RUN[0],
  highestLedgerIndex: MAINNET_RUN[2],
  ledgerCount: 3n,
  transactionCount: 61n,
  stateObjectVersionCount: 0n,
  dbSizeBytes: 12345n,
  stateDownload: undefined,
  stateRange: undefined,
};

/** Three recorded mainnet ledgers as export writes them: no state changes. */
const LEDGERS: LedgerWrite[] = MAINNET_RUN.slice(0, 3).map((ledgerIndex) => ({ ...mainnetLedgerWrite(ledgerIndex), stateChanges: [] }));

async function streamOf(ledgers: LedgerWrite[], chain = 'xrpl'): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = await StreamWriter.start(output, chain, SOURCE);
  for (const ledger of ledgers) await writer.ledger(ledger);
  await writer.end();
  output.end();
  return Buffer.concat(chunks);
}

/** The bytes in chunks of `size`, as a file or a pipe hands them out. */
async function* chunked(bytes: Buffer, size = 65536): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

/** Every ledger of the stream, or the error that ended the reading. */
async function readAll(bytes: Buffer, size?: number): Promise<{ chain: string; source: GetStatusResponse; ledgers: LedgerWrite[] }> {
  const reading = await readStream(chunked(bytes, size));
  const ledgers: LedgerWrite[] = [];
  for await (const ledger of reading.ledgers()) ledgers.push(ledger);
  return { chain: reading.header.chain, source: reading.header.source, ledgers };
}

async function refusal(bytes: Buffer): Promise<string> {
  const error = await readAll(bytes).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MalformedStream);
  return (error as Error).message;
}

/** Offsets of each record (kind, length) after the preamble. */
function recordOffsets(bytes: Buffer): { offset: number; kind: number; length: number }[] {
  const records = [];
  for (let offset = STREAM_MAGIC.length + 4; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset + 1);
    records.push({ offset, kind: bytes[offset]!, length });
    offset += 5 + length;
  }
  return records;
}

describe('the ledger stream (format 1)', () => {
  it('reads back the chain, the source status and every ledger as written, whatever the chunking', async () => {
    const bytes = await streamOf(LEDGERS);
    expect(bytes.subarray(0, 12).toString('hex')).toBe('4c4e4c454447520a00000001');
    for (const size of [1, 7, 4096, bytes.length]) {
      const read = await readAll(bytes, size);
      expect(read.chain).toBe('xrpl');
      expect(read.source).toEqual(SOURCE);
      expect(read.ledgers).toEqual(LEDGERS);
    }
  });

  it('answers the END record\'s totals once the ledgers are read', async () => {
    const reading = await readStream(chunked(await streamOf(LEDGERS)));
    for await (const _ledger of reading.ledgers());
    expect(reading.totals()).toEqual({ ledgerCount: 3, transactionCount: BigInt(LEDGERS.reduce((sum, ledger) => sum + ledger.transactions.length, 0)) });
  });

  it('refuses a stream cut inside a LEDGER record, naming the ledger the record holds and the one before it', async () => {
    const bytes = await streamOf(LEDGERS);
    const third = recordOffsets(bytes)[3]!;
    const message = await refusal(bytes.subarray(0, third.offset + 5 + 100));
    expect(message).toBe(`the stream is cut: the LEDGER record of ledger ${MAINNET_RUN[1]} (record 4, after ledger ${MAINNET_RUN[0]}) of ${third.length} bytes ends after 100 of them`);
  });

  it('refuses a stream cut inside a record header, or at a record boundary before its END record', async () => {
    const bytes = await streamOf(LEDGERS);
    const end = recordOffsets(bytes).at(-1)!;
    expect(await refusal(bytes.subarray(0, end.offset + 2))).toBe(`the stream is cut: it ends inside the header of record 6, after ledger ${MAINNET_RUN[2]}`);
    expect(await refusal(bytes.subarray(0, end.offset))).toBe(`the stream is cut: it ends after 3 ledgers (the last ledger ${MAINNET_RUN[2]}), without its END record`);
  });

  it('refuses an empty stream, another file, a cut preamble and another format version', async () => {
    const bytes = await streamOf(LEDGERS);
    expect(await refusal(Buffer.alloc(0))).toMatch(/^the stream is empty/);
    expect(await refusal(Buffer.from('{"ledger": 1}'))).toMatch(/does not start with "LNLEDGR\\n"/);
    expect(await refusal(bytes.subarray(0, 10))).toMatch(/ends inside its preamble/);
    const version2 = Buffer.from(bytes);
    version2.writeUInt32BE(2, STREAM_MAGIC.length);
    expect(await refusal(version2)).toBe('the stream is in format 2, and this ledger-node reads format 1 only: import it with the release that exported it');
  });

  it('refuses a record longer than a record may be, before reading it', async () => {
    const bytes = Buffer.from(await streamOf(LEDGERS));
    const first = recordOffsets(bytes)[2]!;
    bytes.writeUInt32BE(MAX_RECORD_BYTES + 1, first.offset + 1);
    expect(await refusal(bytes)).toBe(`record 3, before any ledger declares ${MAX_RECORD_BYTES + 1} bytes, more than the ${MAX_RECORD_BYTES} a record may hold: the stream is corrupt`);
  });

  it('refuses an unknown record kind, a record out of place, bytes after END and an END that counts other ledgers', async () => {
    const bytes = await streamOf(LEDGERS);
    const records = recordOffsets(bytes);
    const unknownKind = Buffer.from(bytes);
    unknownKind[records[2]!.offset] = 9;
    expect(await refusal(unknownKind)).toMatch(/^record 3, before any ledger is of unknown kind 9/);
    const sourceTwice = Buffer.from(bytes);
    sourceTwice[records[2]!.offset] = 2;
    expect(await refusal(sourceTwice)).toBe('record 3, before any ledger is a SOURCE record among the ledgers');
    expect(await refusal(Buffer.concat([bytes, Buffer.from([0])]))).toMatch(/^bytes follow the END record/);
    const miscounted = Buffer.from(bytes);
    miscounted.writeUInt32BE(4, records.at(-1)!.offset + 5);
    expect(await refusal(miscounted)).toMatch(/^the END record counts 4 ledgers and \d+ transactions, the stream held 3 and \d+: records are missing/);
  });

  it('refuses ledgers out of ascending order, writing or reading', async () => {
    const output = new PassThrough();
    output.resume();
    const writer = await StreamWriter.start(output, 'xrpl', SOURCE);
    await writer.ledger(LEDGERS[1]!);
    await expect(writer.ledger(LEDGERS[0]!)).rejects.toThrow(`ledger ${MAINNET_RUN[0]} written after ledger ${MAINNET_RUN[1]}: a stream holds ledgers in ascending order`);
    // A stream with its records swapped by hand.
    const bytes = await streamOf(LEDGERS.slice(0, 2));
    const [, , first, second] = recordOffsets(bytes);
    const swapped = Buffer.concat([
      bytes.subarray(0, first!.offset),
      bytes.subarray(second!.offset, second!.offset + 5 + second!.length),
      bytes.subarray(first!.offset, first!.offset + 5 + first!.length),
      bytes.subarray(second!.offset + 5 + second!.length),
    ]);
    expect(await refusal(swapped)).toBe(`ledger ${MAINNET_RUN[0]} follows ledger ${MAINNET_RUN[1]}: a stream holds ledgers in ascending order`);
  });
});
