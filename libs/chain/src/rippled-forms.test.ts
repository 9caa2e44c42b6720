import { describe, expect, it } from 'vitest';
import { getProfile } from './profiles';
import { hashTransaction } from './hash';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

const enableAmendment = {
  TransactionType: 'EnableAmendment',
  Account: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
  Amendment: '42426C4D4F1009EE67080A9B7965B44656D7714D104A72F9B4369F97ABF044EE',
  Fee: '0',
  LedgerSequence: 21225473,
  Sequence: 0,
  SigningPubKey: '',
};

describe('pseudo-transactions: Account is the zero account, serialized with length zero', () => {
  it('encodes EnableAmendment, SetFee and UNLModify with Account 8100 and decodes them back to the zero address', () => {
    for (const TransactionType of ['EnableAmendment', 'SetFee', 'UNLModify']) {
      const hex = xrpl.codec.encode({ ...enableAmendment, TransactionType });
      expect(hex.endsWith('8100')).toBe(true);
      expect(hex).not.toContain('8114' + '00'.repeat(20));
      expect(xrpl.codec.decode(hex).Account).toBe('rrrrrrrrrrrrrrrrrrrrrhoLvTp');
      expect(xrpl.codec.encode(xrpl.codec.decode(hex))).toBe(hex);
    }
  });

  it('keeps 20 bytes for the zero account anywhere else (an ordinary transaction, another AccountID field)', () => {
    const payment = xrpl.codec.encode({ TransactionType: 'Payment', Account: xrpl.genesis.address, Destination: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp', Amount: '1', Fee: '10', Sequence: 1 });
    expect(payment).toContain('8314' + '00'.repeat(20));
    const accountSet = xrpl.codec.encode({ TransactionType: 'AccountSet', Account: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp', Fee: '10', Sequence: 1 });
    expect(accountSet).toContain('8114' + '00'.repeat(20));
  });

  it('does the same on Jingtum for EnableFeature and SetFee, with the j zero address', () => {
    const hex = jingtum.codec.encode({ TransactionType: 'SetFee', Account: 'jjjjjjjjjjjjjjjjjjjjjhoLvTp', Fee: '0', Sequence: 0, SigningPubKey: '', BaseFee: '000000000000000A' });
    expect(hex.endsWith('8100')).toBe(true);
    expect(jingtum.codec.decode(hex).Account).toBe('jjjjjjjjjjjjjjjjjjjjjhoLvTp');
  });

  it('hashes the zero-length form (the hash a ledger holding it records)', () => {
    const hex = xrpl.codec.encode(enableAmendment);
    expect(hashTransaction(hex)).toBe(hashTransaction(hex.slice(0, -4) + '8100'));
    expect(hashTransaction(hex)).not.toBe(hashTransaction(hex.slice(0, -4) + '8114' + '00'.repeat(20)));
  });
});

describe('negative native amounts (early XRP Ledger metadata)', () => {
  const meta = {
    TransactionIndex: 3,
    TransactionResult: 'tesSUCCESS',
    AffectedNodes: [
      { CreatedNode: { LedgerEntryType: 'Offer', LedgerIndex: 'AB'.repeat(32), NewFields: { Account: xrpl.genesis.address, TakerGets: '5', TakerPays: '-7' } } },
      {
        ModifiedNode: {
          LedgerEntryType: 'AccountRoot',
          LedgerIndex: '00'.repeat(32),
          PreviousFields: { Balance: '-1810000000' },
          FinalFields: { Balance: '-1800000000', Account: xrpl.genesis.address, Flags: 0, OwnerCount: 0, Sequence: 2 },
        },
      },
    ],
  };

  it('encodes each as its absolute value with the 0x40 bit cleared, and decodes it back negative', () => {
    const hex = xrpl.codec.encode(meta);
    expect(hex).toContain('62' + '000000006BE26880'); // Balance -1810000000: 0x6BE26880 with bit 0x40 of the first byte clear
    expect(hex).toContain('64' + '0000000000000007'); // TakerPays -7
    expect(hex).toContain('65' + '4000000000000005'); // TakerGets 5: positive, bit set
    expect(xrpl.codec.decode(hex)).toStrictEqual(xrpl.codec.decode(xrpl.codec.encode(xrpl.codec.decode(hex))));
    const decoded = xrpl.codec.decode(hex);
    expect(decoded.AffectedNodes[1].ModifiedNode.PreviousFields.Balance).toBe('-1810000000');
    expect(decoded.AffectedNodes[1].ModifiedNode.FinalFields.Balance).toBe('-1800000000');
    expect(decoded.AffectedNodes[0].CreatedNode.NewFields.TakerPays).toBe('-7');
    expect(xrpl.codec.encode(decoded)).toBe(hex);
  });

  it('still refuses an amount that is not an integer string', () => {
    expect(() => xrpl.codec.encode({ ...meta, AffectedNodes: [{ ModifiedNode: { LedgerEntryType: 'AccountRoot', LedgerIndex: '00'.repeat(32), PreviousFields: { Balance: '-1.5' } } }] })).toThrow(
      /cannot encode/,
    );
  });
});
