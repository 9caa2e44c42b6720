import { describe, expect, it } from 'vitest';
import { decodeLedgerHeader, getProfile, transactionFieldsFromJson, transactionFromLedgerJson, type LedgerHeader } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import {
  accountTxEntry,
  closeTimeIso,
  ctidOf,
  deliveredAmountOf,
  ledgerHeaderHex,
  ledgerHeaderJson,
  ledgerTransactionJson,
  placeOf,
  txResult,
  type LedgerPlace,
  type TransactionInput,
} from './format';

const xrpl = getProfile('xrpl');

/** A recorded transaction as a renderer's input: its fields (Amount, not DeliverMax) and metadata. */
function inputOf(recorded: Record<string, any>, txFields: Record<string, any>, index: number): TransactionInput {
  const { txBlob, metaBlob, hash } = transactionFromLedgerJson({ ...txFields, meta: recorded.meta }, xrpl);
  return { hash, txBlob, metaBlob, txJson: transactionFieldsFromJson(txFields), metaJson: recorded.meta, index };
}

describe('tx answers', () => {
  it('renders a recorded API v2 answer field for field (mainnet Payment 16DFB855)', () => {
    const recorded = readFixture<Record<string, any>>('xrpl/corpus/transactions/Payment-16DFB855.json');
    const tx = inputOf(recorded, recorded.tx_json, recorded.meta.TransactionIndex);
    expect(tx.hash).toBe(recorded.hash);
    const place: LedgerPlace = { ledgerIndex: recorded.ledger_index, ledgerHash: recorded.ledger_hash, closeTime: recorded.tx_json.date };
    const { ctid, ...answer } = txResult(place, tx, { apiVersion: 2, binary: false, networkId: 0 });
    expect(answer).toEqual(recorded);
    expect(ctid).toBe(ctidOf(recorded.ledger_index, recorded.meta.TransactionIndex, 0));
  });

  it('renders a recorded API v1 answer field for field (mainnet CheckCreate 605A2E2C)', () => {
    const recorded = readFixture<Record<string, any>>('xrpl/corpus/transactions/CheckCreate-605A2E2C.json');
    const { date, hash, inLedger, ledger_index: ledgerIndex, meta, validated, ...fields } = recorded;
    const tx = inputOf(recorded, fields, meta.TransactionIndex);
    expect(tx.hash).toBe(hash);
    const place: LedgerPlace = { ledgerIndex, ledgerHash: '00'.repeat(32), closeTime: date };
    const { ctid: _ctid, ...answer } = txResult(place, tx, { apiVersion: 1, binary: false, networkId: 0 });
    expect(answer).toEqual({ ...fields, date, hash, inLedger, ledger_index: ledgerIndex, meta, validated });
    expect(validated).toBe(true);
  });

  it('renders a recorded API v1 Payment with DeliverMax beside Amount and its CTID (mainnet 1A06B8E8)', () => {
    const recorded = readFixture<Record<string, any>>('xrpl/corpus/transactions/Payment-1A06B8E8.json');
    const { ctid, date, hash, inLedger, ledger_index: ledgerIndex, meta, validated, DeliverMax: deliverMax, ...fields } = recorded;
    expect(deliverMax).toEqual(fields.Amount);
    const tx = inputOf(recorded, fields, meta.TransactionIndex);
    const place: LedgerPlace = { ledgerIndex, ledgerHash: '00'.repeat(32), closeTime: date };
    expect(txResult(place, tx, { apiVersion: 1, binary: false, networkId: 0 })).toEqual(recorded);
    expect(ctid).toBe('C2164A5E00280000');
  });

  it('gives the blobs in binary form, named per version', () => {
    const recorded = readFixture<Record<string, any>>('xrpl/corpus/transactions/Payment-16DFB855.json');
    const tx = inputOf(recorded, recorded.tx_json, 7);
    const place: LedgerPlace = { ledgerIndex: 5, ledgerHash: 'AB'.repeat(32), closeTime: 0 };
    expect(txResult(place, tx, { apiVersion: 1, binary: true, networkId: 1 })).toEqual({
      tx: tx.txBlob,
      meta: tx.metaBlob,
      hash: tx.hash,
      date: 0,
      inLedger: 5,
      ledger_index: 5,
      validated: true,
      ctid: 'C000000500070001',
    });
    expect(txResult(place, tx, { apiVersion: 2, binary: true, networkId: 1 })).toEqual({
      tx_blob: tx.txBlob,
      meta_blob: tx.metaBlob,
      hash: tx.hash,
      ledger_index: 5,
      ledger_hash: 'AB'.repeat(32),
      close_time_iso: '2000-01-01T00:00:00Z',
      validated: true,
      ctid: 'C000000500070001',
    });
  });

  it('prints a Payment Amount as DeliverMax: beside Amount in API v1, in its place in v2', () => {
    const recorded = readFixture<Record<string, any>>('xrpl/corpus/transactions/Payment-16DFB855.json');
    const tx = inputOf(recorded, recorded.tx_json, 0);
    const place: LedgerPlace = { ledgerIndex: 1, ledgerHash: 'AB'.repeat(32), closeTime: 0 };
    const v1 = accountTxEntry(place, tx, { apiVersion: 1, binary: false }) as { tx: Record<string, unknown> };
    const v2 = accountTxEntry(place, tx, { apiVersion: 2, binary: false }) as { tx_json: Record<string, unknown> };
    expect(v1.tx.Amount).toBe('25000000');
    expect(v1.tx.DeliverMax).toBe('25000000');
    expect(v2.tx_json.DeliverMax).toBe('25000000');
    expect(v2.tx_json.Amount).toBeUndefined();
    const before2 = accountTxEntry(place, tx, { apiVersion: 1, binary: false, v1DeliverMax: false }) as { tx: Record<string, unknown> };
    expect(before2.tx.DeliverMax).toBeUndefined();
  });
});

describe('ledger answers', () => {
  const fixture = readFixture<Record<string, any>>('xrpl/ledgers/mainnet/7501326.json');
  const header: LedgerHeader = decodeLedgerHeader(
    ledgerHeaderHex({
      header: {
        ledgerIndex: Number(fixture.ledger.ledger_index),
        totalCoins: BigInt(fixture.ledger.total_coins),
        parentHash: fixture.ledger.parent_hash,
        transactionHash: fixture.ledger.transaction_hash,
        accountHash: fixture.ledger.account_hash,
        parentCloseTime: fixture.ledger.parent_close_time,
        closeTime: fixture.ledger.close_time,
        closeTimeResolution: fixture.ledger.close_time_resolution,
        closeFlags: fixture.ledger.close_flags,
      },
      hash: fixture.ledger.hash,
    }),
  );
  const ledger = { header, hash: fixture.ledger.hash as string };

  it('prints ledger_index as a number in API v2, and close_time_iso in every version (rippled fillJson)', () => {
    const v1 = ledgerHeaderJson(ledger, 1);
    const v2 = ledgerHeaderJson(ledger, 2);
    expect(v1.ledger_index).toBe(String(header.ledgerIndex));
    expect(v1.close_time_iso).toBe(closeTimeIso(header.closeTime));
    expect(v2.ledger_index).toBe(header.ledgerIndex);
    expect(v2.close_time_iso).toBe(closeTimeIso(header.closeTime));
    expect(v1.ledger_hash).toBe(ledger.hash);
  });

  it('lists a transaction as its hash unless expanded, then per version and form', () => {
    const recorded = fixture.ledger.transactions[0];
    const { txBlob, metaBlob, hash } = transactionFromLedgerJson(recorded, xrpl);
    const { metaData, hash: _hash, ...fields } = recorded;
    const tx: TransactionInput = { hash, txBlob, metaBlob, txJson: fields, metaJson: metaData, index: metaData.TransactionIndex };
    const place = placeOf(ledger);
    expect(ledgerTransactionJson(place, tx, { apiVersion: 1, expand: false, binary: false })).toBe(hash);
    expect(ledgerTransactionJson(place, tx, { apiVersion: 1, expand: true, binary: false })).toEqual(recorded);
    expect(ledgerTransactionJson(place, tx, { apiVersion: 1, expand: true, binary: true })).toEqual({ tx_blob: txBlob, meta: metaBlob });
    expect(ledgerTransactionJson(place, tx, { apiVersion: 2, expand: true, binary: true })).toEqual({ tx_blob: txBlob, hash, meta_blob: metaBlob });
    expect(ledgerTransactionJson(place, tx, { apiVersion: 2, expand: true, binary: false })).toMatchObject({
      hash,
      ledger_hash: ledger.hash,
      ledger_index: header.ledgerIndex,
      validated: true,
      close_time_iso: closeTimeIso(header.closeTime),
    });
  });
});

describe('ctidOf', () => {
  it('packs 0xC, the ledger, the position and the network id', () => {
    // Recorded: VaultClawback FFC3ABE1, ledger 402470, TransactionIndex 0, network 3222.
    expect(ctidOf(402470, 0, 3222)).toBe('C006242600000C96');
    expect(ctidOf(0x0fffffff, 0xffff, 0xffff)).toBe('CFFFFFFFFFFFFFFF');
  });

  it('is absent when a part does not fit', () => {
    expect(ctidOf(0x10000000, 0, 0)).toBeUndefined();
    expect(ctidOf(1, 0x10000, 0)).toBeUndefined();
    expect(ctidOf(1, 0, 0x10000)).toBeUndefined();
  });
});

describe('deliveredAmountOf', () => {
  const recent: LedgerPlace = { ledgerIndex: 87598983, ledgerHash: 'AB'.repeat(32), closeTime: 767457320 };
  const payment = { TransactionType: 'Payment', Amount: '25000000' };

  it('is the recorded DeliveredAmount, else the Amount of a recent ledger', () => {
    expect(deliveredAmountOf(payment, { TransactionResult: 'tesSUCCESS', DeliveredAmount: '1' }, recent)).toBe('1');
    expect(deliveredAmountOf(payment, { TransactionResult: 'tesSUCCESS' }, recent)).toBe('25000000');
  });

  it('is unavailable before rippled recorded partial deliveries, and absent for failures and other types', () => {
    expect(deliveredAmountOf(payment, { TransactionResult: 'tesSUCCESS' }, { ledgerIndex: 4594094, ledgerHash: '', closeTime: 446000000 })).toBe('unavailable');
    expect(deliveredAmountOf(payment, { TransactionResult: 'tecPATH_DRY' }, recent)).toBeUndefined();
    expect(deliveredAmountOf({ TransactionType: 'OfferCreate' }, { TransactionResult: 'tesSUCCESS' }, recent)).toBeUndefined();
  });
});
