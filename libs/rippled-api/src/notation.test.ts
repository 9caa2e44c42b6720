import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { entryInRippledNotation, inRippledNotation, issuedValueText, notationOf, rippledNotation } from './notation';

const xrpl = notationOf(getProfile('xrpl'));
const jingtum = notationOf(getProfile('jingtum'));

describe("an issued amount's value as STAmount::getText prints it", () => {
  // rippled's STAmount_test "set value (iou)": each prints as it was given.
  it.each(['1', '10', '100', '1000', '10000', '100000', '1000000', '10000000', '100000000', '1000000000', '10000000000', '1234567.1', '1234567.12', '1234567.123', '1234567.1234', '1234567.12345', '1234567.123456', '1234567.1234567', '1234567.12345678', '1234567.123456789'])(
    '%s stays %s',
    (value) => expect(issuedValueText(value)).toBe(value),
  );

  it('prints the mantissa and its exponent outside −25…−5, as rippled did on mainnet', () => {
    expect(issuedValueText('331012810971.4975')).toBe('3310128109714975e-4');
    expect(issuedValueText(`9999999999999999${'0'.repeat(80)}`)).toBe('9999999999999999e80');
    expect(issuedValueText('100000000000')).toBe('1000000000000000e-4');
    expect(issuedValueText('1e-81')).toBe('1000000000000000e-96');
    expect(issuedValueText('-0.000000000000000000000000001')).toBe('-1000000000000000e-42');
  });

  it('prints plain decimal inside −25…−5, without trailing zeros; zero as "0"', () => {
    expect(issuedValueText('0.001')).toBe('0.001');
    expect(issuedValueText('-0.5')).toBe('-0.5');
    expect(issuedValueText('0.0000000001')).toBe('0.0000000001');
    expect(issuedValueText('1.5e3')).toBe('1500');
    expect(issuedValueText('0')).toBe('0');
    expect(issuedValueText('-0.0')).toBe('0');
  });

  it('leaves text that is no amount as it is', () => {
    expect(issuedValueText('abc')).toBe('abc');
    expect(issuedValueText('12345678901234567')).toBe('12345678901234567');
  });
});

describe("rippled's notation for decoded JSON", () => {
  const usd = (value: string) => ({ currency: 'USD', issuer: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B', value });

  it('renders amounts at any depth, delivered_amount included, and leaves native and MPT amounts alone', () => {
    const meta = {
      AffectedNodes: [{ ModifiedNode: { FinalFields: { Balance: usd('331012810971.4975'), Flags: 0 }, PreviousFields: { Balance: usd('0.001') } } }],
      delivered_amount: usd('100000000000'),
      DeliveredAmount: '1000',
    };
    expect(rippledNotation(meta, xrpl)).toEqual({
      AffectedNodes: [{ ModifiedNode: { FinalFields: { Balance: usd('3310128109714975e-4'), Flags: 0 }, PreviousFields: { Balance: usd('0.001') } } }],
      delivered_amount: usd('1000000000000000e-4'),
      DeliveredAmount: '1000',
    });
    const mpt = { Amount: { mpt_issuance_id: '00', value: '100000000000' } };
    expect(rippledNotation(mpt, xrpl)).toEqual(mpt);
  });

  it("prints UInt64 as short lower-case hex on the XRP Ledger, the base-ten fields as they are, and 16 digits on Jingtum's older rippled", () => {
    const entry = { OwnerNode: '0000000000000000', BookNode: '5B04F94AE6AF8000', MaximumAmount: '9223372036854775807' };
    expect(rippledNotation(entry, xrpl)).toEqual({ OwnerNode: '0', BookNode: '5b04f94ae6af8000', MaximumAmount: '9223372036854775807' });
    expect(rippledNotation(entry, jingtum)).toEqual(entry);
  });

  it('gives each path step its type: account 1, currency 16, issuer 32', () => {
    const tx = { Paths: [[{ account: 'rA' }, { currency: 'USD', issuer: 'rB' }], [{ currency: 'XRP' }]] };
    expect(rippledNotation(tx, xrpl)).toEqual({
      Paths: [[{ account: 'rA', type: 1 }, { currency: 'USD', issuer: 'rB', type: 48 }], [{ currency: 'XRP', type: 16 }]],
    });
  });

  it('renders a transaction input once, when first read, and leaves the input as it was', () => {
    const txJson = { TransactionType: 'Payment', Amount: usd('100000000000') };
    let reads = 0;
    const input = {
      hash: 'AB',
      txBlob: '',
      metaBlob: '',
      index: 0,
      get txJson() {
        reads++;
        return txJson;
      },
      metaJson: {},
    };
    const notated = inRippledNotation(input, xrpl);
    expect(notated.txJson.Amount).toEqual(usd('1000000000000000e-4'));
    expect(notated.txJson).toBe(notated.txJson);
    expect(reads).toBe(1);
    expect(txJson.Amount.value).toBe('100000000000');
  });
});

describe('a ledger entry in rippled notation', () => {
  it("shows an MPTokenIssuance's id beside its fields, as STLedgerEntry::getJson does (the id the recorded MPTokenIssuanceCreate answer names)", () => {
    const recorded = readFixture<Record<string, any>>('xrpl/corpus/transactions/MPTokenIssuanceCreate-B84FF7A9.json');
    const result = recorded.result ?? recorded;
    const created = result.meta.AffectedNodes.map((node: Record<string, any>) => node.CreatedNode).find((node: Record<string, any> | undefined) => node?.LedgerEntryType === 'MPTokenIssuance');
    const entry = entryInRippledNotation({ LedgerEntryType: 'MPTokenIssuance', ...created.NewFields }, created.LedgerIndex, xrpl);
    expect(entry.mpt_issuance_id).toBe(result.meta.mpt_issuance_id);
    expect(entry.index).toBe(created.LedgerIndex);
    expect(entryInRippledNotation({ LedgerEntryType: 'AccountRoot', Account: created.NewFields.Issuer }, created.LedgerIndex, xrpl).mpt_issuance_id).toBeUndefined();
  });
});
