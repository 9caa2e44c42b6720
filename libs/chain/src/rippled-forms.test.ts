import { describe, expect, it } from 'vitest';
import { getProfile } from './profiles';
import { hashTransaction } from './hash';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

// Mainnet UNLModify of ledger 98785024 (fixtures/xrpl/corpus/transactions/UNLModify-C3079B04.json).
const unlModify = {
  Account: '',
  Fee: '0',
  LedgerSequence: 98785024,
  Sequence: 0,
  SigningPubKey: '',
  TransactionType: 'UNLModify',
  UNLModifyDisabling: 0,
  UNLModifyValidator: 'EDA4074FD039407BD2464F14C378440D5B02CA8FBA661B286D1C82A3D59E8E6EC0',
};
// Ledger 3717633's SetFee (fixtures/xrpl/corpus/transactions/SetFee-C6A40F56.json).
const setFee = {
  Account: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
  BaseFee: '000000000000000A',
  Fee: '0',
  ReferenceFeeUnits: 10,
  ReserveBase: 50000000,
  ReserveIncrement: 12500000,
  Sequence: 0,
  SigningPubKey: '',
  TransactionType: 'SetFee',
};

describe('pseudo-transactions: the Account rippled records', () => {
  it('UNLModify: Account "" is serialized with length zero (8100), hashes as recorded and decodes back to ""', () => {
    const hex = xrpl.codec.encode(unlModify);
    expect(hex).toContain('8100');
    expect(hex).not.toContain('8114');
    expect(hashTransaction(hex)).toBe('C3079B044064938C4CFEEBA27BF1C3EC5E65FB77AF7A40AB04DC90E882DCF227');
    expect(xrpl.codec.decode(hex)).toStrictEqual(unlModify);
  });

  it('SetFee and EnableAmendment: the zero address is 20 zero bytes, hashes as recorded and decodes back to the address', () => {
    const hex = xrpl.codec.encode(setFee);
    expect(hex).toContain('8114' + '00'.repeat(20));
    expect(hashTransaction(hex)).toBe('C6A40F56127436DCD830B1B35FF939FD05B5747D30D6542572B7A835239817AF');
    expect(xrpl.codec.decode(hex)).toStrictEqual(setFee);
  });

  it('"" is zero-length in any AccountID field of any transaction type, on either chain', () => {
    const xrplHex = xrpl.codec.encode({ TransactionType: 'EnableAmendment', Account: '', Amendment: 'AB'.repeat(32), Fee: '0', LedgerSequence: 2, Sequence: 0, SigningPubKey: '' });
    expect(xrplHex).toContain('8100');
    expect(xrpl.codec.decode(xrplHex).Account).toBe('');
    const jingtumHex = jingtum.codec.encode({ TransactionType: 'Payment', Account: jingtum.genesis.address, Destination: '', Amount: '1', Fee: '10', Sequence: 1, SigningPubKey: '' });
    expect(jingtumHex).toContain('8300');
    expect(jingtum.codec.decode(jingtumHex).Destination).toBe('');
    expect(jingtum.codec.encode(jingtum.codec.decode(jingtumHex))).toBe(jingtumHex);
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

describe("native amounts above the codec's 10^17-drop limit (SWTC supply is 6·10^17 drops)", () => {
  const accountRoot = { LedgerEntryType: 'AccountRoot', Account: jingtum.genesis.address, Balance: '599999999999999988', Flags: 0, OwnerCount: 0, Sequence: 2 };

  it('encodes them as 62 bits of drops with the positive bit set, and decodes them back', () => {
    const hex = jingtum.codec.encode(accountRoot);
    expect(hex).toContain('62' + (0x4000000000000000n | 599999999999999988n).toString(16).toUpperCase());
    expect(jingtum.codec.decode(hex)).toStrictEqual(accountRoot);
    expect(xrpl.codec.decode(xrpl.codec.encode({ ...accountRoot, Account: xrpl.genesis.address })).Balance).toBe('599999999999999988');
  });

  it('refuses an amount beyond 62 bits', () => {
    expect(() => jingtum.codec.encode({ ...accountRoot, Balance: String(1n << 62n) })).toThrow(/cannot encode/);
  });
});

describe("Jingtum's currency codes of four to six characters", () => {
  const line = (currency: string) => ({
    LedgerEntryType: 'SkywellState',
    Balance: { currency, issuer: 'jjjjjjjjjjjjjjjjjjjjBZbvri', value: '0' },
    Flags: 0,
    HighLimit: { currency, issuer: jingtum.genesis.address, value: '100' },
    LowLimit: { currency, issuer: 'jGa9J9TkqtBcUoHe2zqhVFFbgUVED6o9or', value: '0' },
  });

  it('are the ASCII text ending at byte 14 of the 20 currency bytes, read back as text', () => {
    for (const [code, bytes] of [
      ['TEST', '0000000000000000000000544553540000000000'],
      ['JSLASH', '0000000000000000004A534C4153480000000000'],
      ['CNY', '000000000000000000000000434E590000000000'],
    ] as const) {
      const hex = jingtum.codec.encode(line(code));
      expect(hex).toContain(bytes);
      expect(jingtum.codec.decode(hex)).toStrictEqual(line(code));
    }
  });

  it('are not XRP Ledger codes: there they stay 40 hex, and seven letters are refused on either chain', () => {
    const hex = jingtum.codec.encode(line('TEST'));
    expect(xrpl.codec.decode(hex).Balance.currency).toBe('0000000000000000000000544553540000000000');
    expect(() => xrpl.codec.encode({ TransactionType: 'Payment', Amount: { currency: 'TEST', issuer: xrpl.genesis.address, value: '1' } })).toThrow(/cannot encode/);
    expect(() => jingtum.codec.encode({ TransactionType: 'Payment', Amount: { currency: 'SEVENLT', issuer: jingtum.genesis.address, value: '1' } })).toThrow(
      /cannot encode/,
    );
  });
});
