import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mainnetLedgerWrite } from '../../test/support/ledgerWrites';
import { compressing, decodeTransactionRecord, encodeTransactionRecord } from './transaction-record';

describe('transaction records', () => {
  it('keep a mainnet transaction deflated, and give its result, type, blob and metadata back as they were', async () => {
    const transactions = mainnetLedgerWrite(11119599).transactions;
    let plain = 0;
    let stored = 0;
    for (const tx of transactions) {
      const record = await encodeTransactionRecord(tx);
      expect(record[0]).toBe(1);
      expect(decodeTransactionRecord(record, 'the test')).toEqual({
        engineResult: tx.engineResult,
        transactionType: tx.transactionType,
        txBlob: Buffer.from(tx.txBlob),
        metaBlob: Buffer.from(tx.metaBlob),
      });
      plain += tx.txBlob.length + tx.metaBlob.length + tx.engineResult.length + tx.transactionType.length;
      stored += record.length;
    }
    expect(stored / plain).toBeLessThan(0.8);
  });

  it('are compressed four at a time however many are asked for at once, each waiting one holding no zlib stream, and each given back whole', async () => {
    const transactions = mainnetLedgerWrite(11119599).transactions;
    const asked = Array.from({ length: 200 }, (_, position) => transactions[position % transactions.length]!);
    const records = Promise.all(asked.map(encodeTransactionRecord));
    expect([compressing.activeCount, compressing.pendingCount]).toEqual([4, 196]);
    const encoded = await records;
    expect([compressing.activeCount, compressing.pendingCount]).toEqual([0, 0]);
    expect(encoded.map((record) => decodeTransactionRecord(record, 'the test').txBlob)).toEqual(asked.map((tx) => Buffer.from(tx.txBlob)));
  });

  it('keep what deflating would not shrink as it is, and an empty metadata as empty', async () => {
    const txBlob = randomBytes(300);
    const record = await encodeTransactionRecord({ engineResult: 'tesSUCCESS', transactionType: 'Payment', txBlob, metaBlob: Buffer.alloc(0) });
    expect(record[0]).toBe(0);
    expect(record).toHaveLength(1 + 2 + 10 + 2 + 7 + 4 + 300);
    expect(decodeTransactionRecord(record, 'the test')).toEqual({ engineResult: 'tesSUCCESS', transactionType: 'Payment', txBlob, metaBlob: Buffer.alloc(0) });
  });

  it('refuse a damaged record, saying which and why, without ending the process', async () => {
    const record = await encodeTransactionRecord({ engineResult: 'tesSUCCESS', transactionType: 'Payment', txBlob: Buffer.alloc(200, 7), metaBlob: Buffer.alloc(300, 9) });
    const where = 'transaction AB in the PostgreSQL database at postgres://ledger@db/ledgers';
    expect(() => decodeTransactionRecord(Buffer.alloc(0), where)).toThrow(`the transaction record of ${where} cannot be read: codec (none: the record is empty) is none this release reads`);
    expect(() => decodeTransactionRecord(Buffer.of(9, 1, 2), where)).toThrow('codec 9 is none this release reads');
    expect(() => decodeTransactionRecord(Buffer.concat([record.subarray(0, 1), Buffer.alloc(10, 0xff)]), where)).toThrow(/cannot be read: .*invalid/i);
    expect(() => decodeTransactionRecord(Buffer.of(0, 0, 0, 0, 0, 0, 0, 1, 0, 1), where)).toThrow('its blob of 256 bytes runs past its end (1 bytes left)');
    expect(() => decodeTransactionRecord(Buffer.of(0, 0, 5, 65), where)).toThrow('its engine result of 5 bytes runs past its end (1 bytes left)');
  });
});
