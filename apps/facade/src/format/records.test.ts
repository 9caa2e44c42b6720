import { describe, expect, it } from 'vitest';
import type { LedgerRecord, TransactionRecord } from '@ledger-node/contracts';
import { encodeLedgerHeader, getProfile, ledgerHeaderFromJson, transactionFromLedgerJson } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { blockObject, receiptObject, transactionObject } from './records';
import { blockSchema, receiptSchema, transactionSchema } from './schemas';

const profile = getProfile('xrpl');
type FixtureLedger = { ledger: Record<string, any>; ledger_hash: string; ledger_index: number };
const fixture = readFixture<FixtureLedger>('xrpl/ledgers/mainnet/11119600.json');
const header = ledgerHeaderFromJson(fixture.ledger);
const fromHex = (hex: string) => Buffer.from(hex, 'hex');

const records: TransactionRecord[] = fixture.ledger.transactions.map((tx: Record<string, any>) => {
  const binary = transactionFromLedgerJson(tx, profile);
  return {
    hash: fromHex(binary.hash),
    txBlob: fromHex(binary.txBlob),
    metaBlob: fromHex(binary.metaBlob),
    ledgerIndex: header.ledgerIndex,
    txIndex: tx.metaData.TransactionIndex,
    ledgerHash: fromHex(fixture.ledger_hash),
    closeTimeRippleEpoch: header.closeTime,
  };
});
records.sort((a, b) => a.txIndex - b.txIndex);
const ledgerRecord: LedgerRecord = {
  ledgerIndex: header.ledgerIndex,
  ledgerHash: fromHex(fixture.ledger_hash),
  headerBlob: encodeLedgerHeader(header),
  transactionCount: records.length,
  transactionHashes: records.map((r) => r.hash),
  transactions: records,
};

describe('blockObject (SPEC §2.4) from mainnet ledger 11119600', () => {
  const block = blockObject(ledgerRecord, false, profile);

  it('has the seed fields with the seed types', () => {
    expect(blockSchema.parse(block)).toBeTruthy();
    expect(Object.keys(block.ledger).sort()).toEqual(
      ['accepted', 'account_hash', 'close_time', 'close_time_human', 'close_time_resolution', 'closed', 'hash', 'ledger_hash', 'ledger_index', 'parent_hash', 'seqNum', 'totalCoins', 'total_coins', 'transaction_hash', 'transactions'].sort(),
    );
  });

  it('equals the recorded ledger field by field', () => {
    const recorded = fixture.ledger;
    expect(block.ledger_index).toBe(11119600);
    expect(block.ledger_hash).toBe(fixture.ledger_hash);
    expect(block.ledger.ledger_index).toBe('11119600');
    expect(block.ledger.seqNum).toBe('11119600');
    expect(block.ledger.hash).toBe(recorded.ledger_hash);
    expect(block.ledger.parent_hash).toBe(recorded.parent_hash);
    expect(block.ledger.account_hash).toBe(recorded.account_hash);
    expect(block.ledger.transaction_hash).toBe(recorded.transaction_hash);
    expect(block.ledger.total_coins).toBe(recorded.total_coins);
    expect(block.ledger.totalCoins).toBe(recorded.total_coins);
    expect(block.ledger.close_time).toBe(recorded.close_time);
    expect(block.ledger.close_time_resolution).toBe(recorded.close_time_resolution);
    expect(recorded.close_time_human).toContain(block.ledger.close_time_human);
  });

  it('lists transaction hashes in ledger order, or full objects with their metadata', () => {
    expect(block.ledger.transactions).toEqual(records.map((r) => r.hash.toString('hex').toUpperCase()));
    const full = blockObject(ledgerRecord, true, profile);
    const byHash = new Map<string, Record<string, any>>(fixture.ledger.transactions.map((tx: Record<string, any>) => [tx.hash, tx]));
    for (const tx of full.ledger.transactions as Record<string, any>[]) {
      const recorded = byHash.get(tx.hash)!;
      expect(tx.metaData).toEqual(recorded.metaData);
      for (const field of ['Account', 'TransactionType', 'Fee', 'Sequence', 'Flags', 'TxnSignature', 'SigningPubKey']) {
        expect(tx[field]).toEqual(recorded[field]);
      }
    }
  });
});

describe('transactionObject (SPEC §2.5) and receiptObject (SPEC §2.6)', () => {
  it.each(records.map((r) => [r.hash.toString('hex').toUpperCase(), r] as const))('%s carries every recorded field', (hash, record) => {
    const recorded = fixture.ledger.transactions.find((tx: Record<string, any>) => tx.hash === hash);
    const { hash: _h, metaData, ...fields } = recorded;
    const tx = transactionObject(record, profile);
    expect(transactionSchema.parse(tx)).toBeTruthy();
    expect(tx).toEqual({ ...fields, date: header.closeTime, hash, inLedger: 11119600, ledger_hash: fixture.ledger_hash, ledger_index: 11119600, validated: true });
    const receipt = receiptObject(record, profile);
    expect(receiptSchema.parse(receipt)).toBeTruthy();
    const delivered = metaData.TransactionResult === 'tesSUCCESS' && fields.TransactionType === 'Payment' ? { delivered_amount: metaData.DeliveredAmount ?? fields.Amount } : {};
    expect(receipt).toEqual({ ...metaData, hash, ...delivered });
  });
});
