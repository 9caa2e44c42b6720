import { describe, expect, it } from 'vitest';
import { getProfile, indexDecodedTransaction, indexTransaction, indexTransactionOrPlaceholder, transactionFromLedgerJson, type TransactionIndexData, verifyLedger } from '@ledger-node/chain';
import { Direction } from '@ledger-node/contracts';
import { readFixture } from '@ledger-node/test-utils';
import { recordedFetchedLedger, recordedLedgerFile } from '../../test/support/recorded-ledgers';
import { createLogger } from '@ledger-node/telemetry';
import { SyncHealth } from '../sync-health';
import { ledgerWriteOf } from './ledger-write';

const xrpl = getProfile('xrpl');

function recordedTransaction(file: string, txHash: string): { txBlob: Buffer; metaBlob: Buffer } {
  const ledger = readFixture<{ ledger: { transactions: Record<string, any>[] } }>(file).ledger;
  const tx = ledger.transactions.find((candidate) => candidate.hash === txHash);
  if (!tx) throw new Error(`${txHash} is not in ${file}`);
  const binary = transactionFromLedgerJson(tx, xrpl);
  return { txBlob: Buffer.from(binary.txBlob, 'hex'), metaBlob: Buffer.from(binary.metaBlob, 'hex') };
}

function readable(index: TransactionIndexData) {
  return {
    ...index,
    senderAccountId: xrpl.codec.encodeAccountId(index.senderAccountId),
    affectedAccounts: index.affectedAccounts.map(({ accountId, direction }) => [xrpl.codec.encodeAccountId(accountId), direction]),
  };
}

describe('indexTransaction', () => {
  it('indexes an issued-currency payment: sender OUT; amount issuer, destination and trust-line sides IN', () => {
    const { txBlob, metaBlob } = recordedTransaction(
      'xrpl/ledgers/mainnet/11119601.json',
      '023A3A1673C6AB6B13B96BA0EE9B720C8D4B0F4A25F414BB510744AB75ACE5D6',
    );
    expect(readable(indexTransaction(txBlob, metaBlob, xrpl))).toEqual({
      txIndex: 15,
      senderAccountId: 'rwvLbHQtU16BwQJyrQb9cfFKvx13Ksbkja',
      affectedAccounts: [
        ['rwvLbHQtU16BwQJyrQb9cfFKvx13Ksbkja', Direction.OUT],
        // Amount (type 6) precedes Destination (type 8) in canonical field order.
        ['rMwjYedjc7qqtKYVLiAccJSmCwih4LnE2q', Direction.IN],
        ['r4L6ZLHkTytPqDR81H1ysCr6qGv9oJJAKi', Direction.IN],
        // Only through the RippleState nodes of the metadata (the path's intermediaries).
        ['rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', Direction.IN],
        ['rBQkEKFMnBjc19DRaY7ThLJ2woqQManbTt', Direction.IN],
      ],
      transactionType: 'Payment',
      engineResult: 'tesSUCCESS',
      nftIds: [],
    });
  });

  it('indexes a failed payment with its tec result; only the fee-paying AccountRoot changed', () => {
    const { txBlob, metaBlob } = recordedTransaction(
      'xrpl/ledgers/mainnet/11119604.json',
      '4838B1695C5065BE1F0CFED5531F21AB6C8DB21066A3C6AAB97566D666E1A0DC',
    );
    expect(readable(indexTransaction(txBlob, metaBlob, xrpl))).toEqual({
      txIndex: 29,
      senderAccountId: 'rJAeQMhtr89PvFPnAZXkdgJgScZ1YuB9UR',
      affectedAccounts: [
        ['rJAeQMhtr89PvFPnAZXkdgJgScZ1YuB9UR', Direction.OUT],
        ['rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', Direction.IN],
        ['rwvLbHQtU16BwQJyrQb9cfFKvx13Ksbkja', Direction.IN],
      ],
      transactionType: 'Payment',
      engineResult: 'tecPATH_DRY',
      nftIds: [],
    });
  });

  it.each([
    'mainnet/11119599',
    'mainnet/11119600',
    'mainnet/11119601',
    'mainnet/11119602',
    'mainnet/11119603',
    'mainnet/11119604',
    'mainnet/7501326',
    'privnet/3',
    'privnet/4',
    'privnet/5',
    'privnet/6',
  ])('reads the same index data from the binary as the full codec decode, for every transaction of %s', (name) => {
    const ledger = readFixture<{ ledger: { transactions: Record<string, any>[] } }>(`xrpl/ledgers/${name}.json`).ledger;
    expect(ledger.transactions.length).toBeGreaterThan(0);
    for (const tx of ledger.transactions) {
      const binary = transactionFromLedgerJson(tx, xrpl);
      const txBlob = Buffer.from(binary.txBlob, 'hex');
      const metaBlob = Buffer.from(binary.metaBlob, 'hex');
      const index = indexTransaction(txBlob, metaBlob, xrpl);
      expect(index).toEqual(indexDecodedTransaction(txBlob, metaBlob, xrpl));
      expect(index.txIndex).toBe(tx.metaData.TransactionIndex);
      expect(index.transactionType).toBe(tx.TransactionType);
      expect(index.engineResult).toBe(tx.metaData.TransactionResult);
      expect(xrpl.codec.encodeAccountId(index.senderAccountId)).toBe(tx.Account);
    }
  });
});

describe('pseudo-transactions and transactions that cannot be indexed', () => {
  const logger = createLogger('sync', 'silent');
  const enableAmendment = xrpl.codec.encode({
    TransactionType: 'EnableAmendment',
    Account: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
    Amendment: '42426C4D4F1009EE67080A9B7965B44656D7714D104A72F9B4369F97ABF044EE',
    Fee: '0',
    LedgerSequence: 21225473,
    Sequence: 0,
    SigningPubKey: '',
  });
  const amendmentMeta = xrpl.codec.encode({
    TransactionIndex: 4,
    TransactionResult: 'tesSUCCESS',
    AffectedNodes: [{ ModifiedNode: { LedgerEntryType: 'Amendments', LedgerIndex: '7DB0788C020F02780A673DC74757F23823FA3014C1866E72CC4CD8B226CD6EF4', FinalFields: { Flags: 0 } } }],
  });

  it('indexes pseudo-transactions as sent by the zero account, whether their Account is 20 zero bytes or of length zero', () => {
    const unlModify = xrpl.codec.encode({
      TransactionType: 'UNLModify',
      Account: '',
      Fee: '0',
      LedgerSequence: 98785024,
      Sequence: 0,
      SigningPubKey: '',
      UNLModifyDisabling: 0,
      UNLModifyValidator: 'EDA4074FD039407BD2464F14C378440D5B02CA8FBA661B286D1C82A3D59E8E6EC0',
    });
    expect(unlModify).toContain('8100');
    expect(enableAmendment).toContain('8114' + '00'.repeat(20));
    for (const [blob, transactionType] of [
      [enableAmendment, 'EnableAmendment'],
      [unlModify, 'UNLModify'],
    ] as const) {
      const index = indexTransaction(Buffer.from(blob, 'hex'), Buffer.from(amendmentMeta, 'hex'), xrpl);
      expect(readable(index)).toEqual({
        txIndex: 4,
        senderAccountId: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
        affectedAccounts: [['rrrrrrrrrrrrrrrrrrrrrhoLvTp', Direction.OUT]],
        transactionType,
        engineResult: 'tesSUCCESS',
        nftIds: [],
      });
    }
  });

  it('keeps a transaction it cannot index, at its recorded position, sent by no one, and says why', () => {
    // Metadata without TransactionResult: a field every validated transaction has.
    const meta = Buffer.from(xrpl.codec.encode({ TransactionIndex: 7, AffectedNodes: [] }), 'hex');
    expect(() => indexTransaction(Buffer.from(enableAmendment, 'hex'), meta, xrpl)).toThrow(/TransactionResult/);
    const { index, failure } = indexTransactionOrPlaceholder(Buffer.from(enableAmendment, 'hex'), meta, xrpl, 2);
    expect(failure).toMatch(/TransactionResult/);
    expect(index).toMatchObject({ txIndex: 7, affectedAccounts: [], transactionType: 'Unknown', engineResult: 'Unknown' });
    expect(index.senderAccountId).toEqual(Buffer.alloc(20));
    // Metadata that cannot be read at all: a position no real ledger reaches.
    const unreadable = indexTransactionOrPlaceholder(Buffer.from(enableAmendment, 'hex'), Buffer.from('01FA00', 'hex'), xrpl, 2);
    expect(unreadable.failure).toBeDefined();
    expect(unreadable.index.txIndex).toBe(0x40000002);
  });

  it('tells SyncHealth once per transaction and still writes every transaction of the ledger', () => {
    const verification = verifyLedger(recordedFetchedLedger(11119600));
    if (!verification.ok) throw new Error(verification.failure.message);
    const ledger = verification.ledger;
    const broken = { ...ledger, transactions: ledger.transactions.map((tx, position) => (position === 3 ? { ...tx, metaBlob: Buffer.from('01FA00', 'hex') } : tx)) };
    const health = new SyncHealth(logger);
    const write = ledgerWriteOf(broken, xrpl, health);
    ledgerWriteOf(broken, xrpl, health);
    expect(write.transactions).toHaveLength(13);
    expect(health.indexFailureCount).toBe(1n);
    expect(health.lastIndexFailure).toMatchObject({ ledgerIndex: 11119600, transactionHash: ledger.transactions[3]!.hash.toString('hex').toUpperCase() });
  });
});

describe('ledgerWriteOf', () => {
  it('writes a verified ledger with its recomputed hashes, every transaction indexed, and the state changes given', () => {
    const verification = verifyLedger(recordedFetchedLedger(11119600));
    if (!verification.ok) throw new Error(verification.failure.message);
    const write = ledgerWriteOf(verification.ledger, xrpl, new SyncHealth(createLogger('sync', 'silent')));
    expect(write.ledgerIndex).toBe(11119600);
    expect(write.ledgerHash.toString('hex').toUpperCase()).toBe(recordedLedgerFile(11119600).ledger_hash);
    expect(write.headerBlob).toHaveLength(118);
    expect(write.transactions).toHaveLength(13);
    expect(write.transactions.map((tx) => tx.txIndex).sort((a, b) => a - b)).toEqual([...Array(13).keys()]);
    expect(write.stateChanges).toEqual([]);
    expect(write.stateChangesComplete).toBe(false);
  });
});
