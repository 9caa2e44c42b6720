import { decodeAccountID } from 'ripple-address-codec';
import { hashes } from 'xrpl';
import { describe, expect, it } from 'vitest';
import { TestLedger } from './test-support';

const DEFAULT_RIPPLE = 0x00800000;
const REQUIRE_DEST_TAG = 0x00020000;
const LOW_NO_RIPPLE = 0x00100000;
const HIGH_NO_RIPPLE = 0x00200000;

function usd(issuer: string, value: string) {
  return { currency: 'USD', issuer, value };
}

function setup() {
  const ledger = new TestLedger();
  const issuer = ledger.account(41);
  const alice = ledger.account(42);
  const bob = ledger.account(43);
  for (const account of [issuer, alice, bob]) ledger.fund(account, 100_000_000n);
  ledger.close();
  return { ledger, issuer, alice, bob };
}

describe('AccountSet', () => {
  it('sets and clears DefaultRipple with asfDefaultRipple, recording the old flags in metadata', () => {
    const { ledger, issuer } = setup();
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
    expect(ledger.accountField(issuer.address, 'Flags')).toBe(DEFAULT_RIPPLE);
    const meta = ledger.close().transactions[0]!.metaJson;
    const node = (meta.AffectedNodes as { ModifiedNode: Record<string, unknown> }[])[0]!.ModifiedNode;
    expect(node.PreviousFields).toMatchObject({ Flags: 0 });
    expect(node.FinalFields).toMatchObject({ Flags: DEFAULT_RIPPLE });

    ledger.expectResult(issuer, { TransactionType: 'AccountSet', ClearFlag: 8 }, 'tesSUCCESS');
    expect(ledger.accountField(issuer.address, 'Flags')).toBe(0);
  });

  it('leaves existing lines’ NoRipple as it was and gives lines created afterwards a rippling issuer side', () => {
    const { ledger, issuer, alice, bob } = setup();
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '100') }, 'tesSUCCESS');
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
    ledger.expectResult(bob, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '100') }, 'tesSUCCESS');
    const ledgerIndex = ledger.close().header.ledgerIndex;
    const issuerNoRipple = (holder: string) => {
      const flags = ledger.chain.stateEntry(hashes.hashTrustline(holder, issuer.address, 'USD'), ledgerIndex)!.json.Flags as number;
      const issuerIsHigh = Buffer.compare(Buffer.from(decodeAccountID(issuer.address)), Buffer.from(decodeAccountID(holder))) > 0;
      return (flags & (issuerIsHigh ? HIGH_NO_RIPPLE : LOW_NO_RIPPLE)) !== 0;
    };

    expect(issuerNoRipple(alice.address)).toBe(true);
    expect(issuerNoRipple(bob.address)).toBe(false);
  });

  it('makes a holder-to-holder payment ripple through the issuer only once DefaultRipple is set before the lines', () => {
    const { ledger, issuer, alice, bob } = setup();
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
    for (const holder of [alice, bob]) ledger.expectResult(holder, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '100') }, 'tesSUCCESS');
    ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(issuer.address, '50') }, 'tesSUCCESS');

    ledger.expectResult(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: usd(issuer.address, '20') }, 'tesSUCCESS');
    expect(ledger.chain.trustLines!(bob.address, ledger.chain.openLedgerIndex())![0]!.balance).toBe('20');
  });

  it('requires destination tags after asfRequireDest and stops after clearing it', () => {
    const { ledger, alice, bob } = setup();
    ledger.expectResult(alice, { TransactionType: 'AccountSet', SetFlag: 1 }, 'tesSUCCESS');
    expect(ledger.accountField(alice.address, 'Flags')).toBe(REQUIRE_DEST_TAG);
    ledger.expectResult(bob, { TransactionType: 'Payment', Destination: alice.address, Amount: '1000000' }, 'tecDST_TAG_NEEDED');
    ledger.expectResult(alice, { TransactionType: 'AccountSet', ClearFlag: 1 }, 'tesSUCCESS');
    ledger.expectResult(bob, { TransactionType: 'Payment', Destination: alice.address, Amount: '1000000' }, 'tesSUCCESS');
  });

  it('stores a TransferRate between 1.0 and 2.0 and removes it at 1.0', () => {
    const { ledger, issuer } = setup();
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', TransferRate: 1_002_000_000 }, 'tesSUCCESS');
    expect(ledger.accountField(issuer.address, 'TransferRate')).toBe(1_002_000_000);
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', TransferRate: 1_000_000_000 }, 'tesSUCCESS');
    expect(ledger.accountField(issuer.address, 'TransferRate')).toBeUndefined();
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', TransferRate: 999_999_999 }, 'temBAD_TRANSFER_RATE');
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', TransferRate: 2_000_000_001 }, 'temBAD_TRANSFER_RATE');
  });

  it('sets and removes the Domain', () => {
    const { ledger, alice } = setup();
    const domain = Buffer.from('example.com').toString('hex').toUpperCase();
    ledger.expectResult(alice, { TransactionType: 'AccountSet', Domain: domain }, 'tesSUCCESS');
    expect(ledger.accountField(alice.address, 'Domain')).toBe(domain);
    ledger.expectResult(alice, { TransactionType: 'AccountSet', Domain: '' }, 'tesSUCCESS');
    expect(ledger.accountField(alice.address, 'Domain')).toBeUndefined();
  });

  it('rejects setting and clearing the same flag, and unknown transaction flags', () => {
    const { ledger, alice } = setup();

    ledger.expectResult(alice, { TransactionType: 'AccountSet', SetFlag: 8, ClearFlag: 8 }, 'temINVALID_FLAG');
    ledger.expectResult(alice, { TransactionType: 'AccountSet', Flags: 0x00000100 }, 'temINVALID_FLAG');
    ledger.expectResult(alice, { TransactionType: 'AccountSet', Flags: 0x00010000, ClearFlag: 1 }, 'temINVALID_FLAG');
  });

  it('refuses to disable the master key of an account without another key', () => {
    const { ledger, alice } = setup();

    ledger.expectResult(alice, { TransactionType: 'AccountSet', SetFlag: 4 }, 'tecNO_ALTERNATIVE_KEY');
    expect(ledger.accountField(alice.address, 'Flags')).toBe(0);
  });

  it('refuses RequireAuth once the account owns trust lines', () => {
    const { ledger, issuer, alice } = setup();
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '100') }, 'tesSUCCESS');

    ledger.expectResult(alice, { TransactionType: 'AccountSet', SetFlag: 2 }, 'tecOWNERS');
    ledger.expectResult(freshAccount(ledger), { TransactionType: 'AccountSet', SetFlag: 2 }, 'tesSUCCESS');
  });
});

/** A fresh funded account that owns nothing. */
function freshAccount(ledger: TestLedger) {
  const account = ledger.account(49);
  ledger.fund(account, 50_000_000n);
  return account;
}
