import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { mainnetLedgerWrite } from '../../test/support/ledgerWrites';
import {
  compressing,
  decodeTransactionGroup,
  decodeTransactionRecord,
  encodeTransactionGroups,
  GROUP_ROW_BYTES,
  groupHashes,
  type TransactionGroupRow,
} from './transaction-record';

const fieldsOf = (tx: { engineResult: string; transactionType: string; txBlob: Uint8Array; metaBlob: Uint8Array }) => ({
  engineResult: tx.engineResult,
  transactionType: tx.transactionType,
  txBlob: Buffer.from(tx.txBlob),
  metaBlob: Buffer.from(tx.metaBlob),
});

/** A mainnet ledger's transactions over and over, numbered 0 to `count` − 1, each with a hash of its own. */
function transactions(count: number) {
  const recorded = mainnetLedgerWrite(11119599).transactions;
  return Array.from({ length: count }, (_, txIndex) => ({ ...recorded[txIndex % recorded.length]!, txIndex, hash: randomBytes(32) }));
}

describe('transaction groups', () => {
  const read = (groups: TransactionGroupRow[]) =>
    groups.flatMap((group) => {
      const entries = groupHashes(group.firstTxIndex, group.hashes, 'the test');
      const records = decodeTransactionGroup(group.record, entries.length, 'the test');
      return entries.map((entry, position) => ({ txIndex: entry.txIndex, hash: entry.hash, ...records[position]! }));
    });

  it('keep a ledger in groups of consecutive transactions deflated together, each the most that fit a page, and give each back as it was', async () => {
    const written = transactions(200).reverse();
    const groups = await encodeTransactionGroups(written);
    const inOrder = [...written].reverse();
    expect(read(groups)).toEqual(inOrder.map((tx) => ({ txIndex: tx.txIndex, hash: tx.hash, ...fieldsOf(tx) })));
    expect(groups.length).toBeGreaterThan(5);
    let next = 0;
    for (const group of groups) {
      const count = group.hashes.length / 33;
      expect(group.firstTxIndex).toBe(next);
      expect(group.record[0]).toBe(1);
      expect(group.record.length + group.hashes.length).toBeLessThanOrEqual(GROUP_ROW_BYTES);
      next += count;
      // One transaction more would not have fit: the group and the next make two groups.
      if (next < inOrder.length) expect(await encodeTransactionGroups(inOrder.slice(group.firstTxIndex, next + 1))).toHaveLength(2);
    }
    // Deflated together they take much less than each deflated alone.
    const alone = inOrder.reduce((sum, tx) => sum + 1 + deflateRawSync(Buffer.concat([tx.txBlob, tx.metaBlob])).length, 0);
    const together = groups.reduce((sum, group) => sum + group.record.length, 0);
    expect(together).toBeLessThan(alone * 0.8);
  });

  it("name each transaction by its offset from its group's first tx index, whatever tx indexes a ledger leaves out, a group spanning 256 tx indexes at most", async () => {
    const written = transactions(400).filter((tx) => [1, 31, 256, 257, 390].includes(tx.txIndex));
    const groups = await encodeTransactionGroups(written);
    expect(groups.map((group) => [group.firstTxIndex, groupHashes(group.firstTxIndex, group.hashes, 'the test').map((entry) => entry.txIndex)])).toEqual([
      [1, [1, 31, 256]],
      [257, [257, 390]],
    ]);
    expect(read(groups)).toEqual(written.map((tx) => ({ txIndex: tx.txIndex, hash: tx.hash, ...fieldsOf(tx) })));
  });

  it('keep a transaction larger than a page in a group of its own', async () => {
    const [small, large, after] = transactions(3);
    const huge = { ...large!, metaBlob: randomBytes(GROUP_ROW_BYTES * 2) };
    const groups = await encodeTransactionGroups([small!, huge, after!]);
    expect(groups.map((group) => group.firstTxIndex)).toEqual([0, 1, 2]);
    expect(read(groups).map((tx) => tx.metaBlob)).toEqual([small!, huge, after!].map((tx) => Buffer.from(tx.metaBlob)));
  });

  it('are compressed four at a time however many ledgers are encoded at once, each waiting one holding no zlib stream', async () => {
    const ledgers = Array.from({ length: 50 }, () => transactions(100));
    const encoding = Promise.all(ledgers.map(encodeTransactionGroups));
    expect([compressing.activeCount, compressing.pendingCount]).toEqual([4, 46]);
    let most = 0;
    const watching = setInterval(() => (most = Math.max(most, compressing.activeCount)), 1);
    const encoded = await encoding.finally(() => clearInterval(watching));
    expect(most).toBe(4);
    expect([compressing.activeCount, compressing.pendingCount]).toEqual([0, 0]);
    expect(encoded.map((groups) => read(groups).length)).toEqual(ledgers.map(() => 100));
  });

  it('keep what deflating would not shrink as it is, and an empty metadata as empty', async () => {
    const txBlob = randomBytes(300);
    const [group] = await encodeTransactionGroups([{ txIndex: 5, hash: randomBytes(32), engineResult: 'tesSUCCESS', transactionType: 'Payment', txBlob, metaBlob: Buffer.alloc(0) }]);
    expect(group!.record[0]).toBe(0);
    expect(group!.record).toHaveLength(1 + 2 + 10 + 2 + 7 + 4 + 300 + 4);
    expect(decodeTransactionGroup(group!.record, 1, 'the test')).toEqual([{ engineResult: 'tesSUCCESS', transactionType: 'Payment', txBlob, metaBlob: Buffer.alloc(0) }]);
  });

  it('refuse a damaged group, saying which and why, without ending the process', async () => {
    const [group] = await encodeTransactionGroups(transactions(3));
    const where = 'ledger 7 at tx 0 in the PostgreSQL database at postgres://ledger@db/ledgers';
    expect(() => decodeTransactionGroup(Buffer.alloc(0), 1, where)).toThrow(`the transaction group of ${where} cannot be read: codec (none: the record is empty) is none this release reads`);
    expect(() => decodeTransactionGroup(Buffer.of(9, 1, 2), 1, where)).toThrow('codec 9 is none this release reads');
    expect(() => decodeTransactionGroup(Buffer.concat([group!.record.subarray(0, 1), Buffer.alloc(10, 0xff)]), 3, where)).toThrow(/cannot be read: .*invalid/i);
    expect(() => decodeTransactionGroup(group!.record, 4, where)).toThrow('it holds 3 transactions where its hashes name 4');
    expect(() => decodeTransactionGroup(Buffer.of(0, 0, 0, 0, 0, 0, 0, 1, 0, 1), 1, where)).toThrow('its blob of 256 bytes runs past its end (1 bytes left)');
    expect(() => groupHashes(0, group!.hashes.subarray(1), where)).toThrow(`the transaction hashes of ${where} cannot be read: 98 bytes are not whole entries of 33`);
  });
});

describe('transaction records (written before pg/006_transaction_groups.sql)', () => {
  const tx = fieldsOf(mainnetLedgerWrite(11119599).transactions[0]!);
  const plain = Buffer.concat([
    Buffer.of(0, tx.engineResult.length),
    Buffer.from(tx.engineResult),
    Buffer.of(0, tx.transactionType.length),
    Buffer.from(tx.transactionType),
    Buffer.from(Uint32Array.of(tx.txBlob.length).buffer).reverse(),
    tx.txBlob,
    tx.metaBlob,
  ]);

  it('read as they were written, deflated or stored, the metadata the rest', () => {
    expect(decodeTransactionRecord(Buffer.concat([Buffer.of(1), deflateRawSync(plain)]), 'the test')).toEqual(tx);
    expect(decodeTransactionRecord(Buffer.concat([Buffer.of(0), plain]), 'the test')).toEqual(tx);
  });

  it('are refused when damaged, saying which and why', () => {
    const where = 'transaction AB in the PostgreSQL database at postgres://ledger@db/ledgers';
    expect(() => decodeTransactionRecord(Buffer.alloc(0), where)).toThrow(`the transaction record of ${where} cannot be read: codec (none: the record is empty) is none this release reads`);
    expect(() => decodeTransactionRecord(Buffer.of(0, 0, 0, 0, 0, 0, 0, 1, 0, 1), where)).toThrow('its blob of 256 bytes runs past its end (1 bytes left)');
    expect(() => decodeTransactionRecord(Buffer.of(0, 0, 5, 65), where)).toThrow('its engine result of 5 bytes runs past its end (1 bytes left)');
  });
});
