import { decodeAccountID } from 'ripple-address-codec';
import { hashes, Wallet } from 'xrpl';
import { describe, expect, it } from 'vitest';
import { affectedNodes, TestLedger, type TestAccount } from './test-support';

const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
const RESERVE_BASE = 1_000_000n;

function usd(issuer: string, value: string) {
  return { currency: 'USD', issuer, value };
}

function isLow(account: string, peer: string): boolean {
  return Buffer.compare(Buffer.from(decodeAccountID(account)), Buffer.from(decodeAccountID(peer))) < 0;
}

/** An issuer and two holders that trust it for 1000 USD, the issuer with or without DefaultRipple. */
function issuedCurrencySetup(options: { defaultRipple: boolean }) {
  const ledger = new TestLedger();
  const issuer = ledger.account(11);
  const alice = ledger.account(12);
  const bob = ledger.account(13);
  for (const account of [issuer, alice, bob]) ledger.fund(account, 100_000_000n);
  ledger.close();
  if (options.defaultRipple) ledger.expectResult(issuer, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
  for (const holder of [alice, bob]) {
    ledger.expectResult(holder, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '1000') }, 'tesSUCCESS');
  }
  ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(issuer.address, '100') }, 'tesSUCCESS');
  ledger.close();
  return { ledger, issuer, alice, bob };
}

function lineBalance(ledger: TestLedger, holder: TestAccount, issuer: TestAccount): string | undefined {
  return ledger.chain.trustLines!(holder.address, ledger.chain.openLedgerIndex())!.find((line) => line.account === issuer.address)?.balance;
}

describe('Payment of the native currency', () => {
  it('creates the destination account with rippled metadata when the amount covers the reserve', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    const genesis = ledger.genesis.address;
    const submitted = ledger.fund(alice, 25_000_000n);
    const closed = ledger.close();
    const tx = closed.transactions[0]!;

    expect(submitted).toMatchObject({ engineResult: 'tesSUCCESS', engineResultCode: 0, applied: true, queued: false, accountSequenceNext: 2 });
    expect(tx.metaJson).toEqual({
      TransactionIndex: 0,
      TransactionResult: 'tesSUCCESS',
      delivered_amount: '25000000',
      AffectedNodes: [
        {
          ModifiedNode: {
            LedgerEntryType: 'AccountRoot',
            LedgerIndex: hashes.hashAccountRoot(genesis),
            PreviousFields: { Balance: '100000000000000000', Sequence: 1 },
            FinalFields: { Account: genesis, Balance: String(100_000_000_000_000_000n - 25_000_000n - 10n), Flags: 0, OwnerCount: 0, Sequence: 2 },
          },
        },
        {
          CreatedNode: {
            LedgerEntryType: 'AccountRoot',
            LedgerIndex: hashes.hashAccountRoot(alice.address),
            NewFields: { Account: alice.address, Balance: '25000000', Sequence: 2 },
          },
        },
      ].sort((left, right) => (Object.values(left)[0]!.LedgerIndex < Object.values(right)[0]!.LedgerIndex ? -1 : 1)),
    });
    expect(ledger.chain.stateEntry(hashes.hashAccountRoot(alice.address), closed.header.ledgerIndex)!.json).toEqual({
      LedgerEntryType: 'AccountRoot',
      Account: alice.address,
      Balance: '25000000',
      Flags: 0,
      OwnerCount: 0,
      Sequence: closed.header.ledgerIndex,
      PreviousTxnID: tx.hash,
      PreviousTxnLgrSeq: closed.header.ledgerIndex,
    });
  });

  it('threads the sender to its previous transaction', () => {
    const ledger = new TestLedger();
    const first = ledger.fund(ledger.account(1), 25_000_000n);
    ledger.fund(ledger.account(2), 25_000_000n);
    const closed = ledger.close();
    const sender = affectedNodes(closed.transactions[1]!.metaJson).find((node) => node.index === hashes.hashAccountRoot(ledger.genesis.address))!;

    expect(sender.fields.PreviousTxnID).toBe(first.txHash);
    expect(sender.fields.PreviousTxnLgrSeq).toBe(closed.header.ledgerIndex);
  });

  it('gives a new account the sequence of the ledger that creates it', () => {
    const ledger = new TestLedger();
    ledger.close();
    ledger.close();
    const alice = ledger.account(1);
    ledger.fund(alice, 25_000_000n);

    expect(ledger.chain.openLedgerIndex()).toBe(4);
    expect(ledger.sequence(alice.address)).toBe(4);
  });

  it('answers tecNO_DST_INSUF_XRP below the reserve, charging the fee and consuming the sequence', () => {
    const ledger = new TestLedger();
    const before = ledger.balance(ledger.genesis.address);
    const result = ledger.submit(ledger.genesis, { TransactionType: 'Payment', Destination: ledger.account(1).address, Amount: String(RESERVE_BASE - 1n) });

    expect(result).toMatchObject({ engineResult: 'tecNO_DST_INSUF_XRP', engineResultCode: 125, applied: true });
    expect(ledger.balance(ledger.genesis.address)).toBe(before - 10n);
    expect(ledger.sequence(ledger.genesis.address)).toBe(2);
    expect(ledger.chain.accountRoot!(ledger.account(1).address, ledger.chain.openLedgerIndex())).toBeUndefined();
    const meta = ledger.close().transactions[0]!.metaJson;
    expect(meta.TransactionResult).toBe('tecNO_DST_INSUF_XRP');
    expect(meta.delivered_amount).toBeUndefined();
    expect(affectedNodes(meta).map((node) => node.index)).toEqual([hashes.hashAccountRoot(ledger.genesis.address)]);
  });

  it('answers tecUNFUNDED_PAYMENT when the payment would cut into the reserve (only the fee may)', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    const bob = ledger.account(2);
    ledger.fund(alice, 5_000_000n);
    ledger.fund(bob, 5_000_000n);
    // rippled: the balance before the fee must cover the amount plus the reserve.
    const tooMuch = ledger.submit(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: String(5_000_000n - RESERVE_BASE + 1n) });
    const afterClaim = 5_000_000n - 10n;
    const exact = ledger.submit(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: String(afterClaim - RESERVE_BASE) });

    expect(tooMuch).toMatchObject({ engineResult: 'tecUNFUNDED_PAYMENT', applied: true });
    expect(exact.engineResult).toBe('tesSUCCESS');
    expect(ledger.balance(alice.address)).toBe(RESERVE_BASE - 10n);
    expect(ledger.balance(bob.address)).toBe(5_000_000n + afterClaim - RESERVE_BASE);
  });

  it('rejects a payment to oneself as temREDUNDANT', () => {
    const ledger = new TestLedger();

    expect(ledger.submit(ledger.genesis, { TransactionType: 'Payment', Destination: ledger.genesis.address, Amount: '1000000' }).engineResult).toBe(
      'temREDUNDANT',
    );
  });

  it('rejects zero, negative and issuer-carrying native amounts as temBAD_AMOUNT', () => {
    const ledger = new TestLedger();
    const destination = ledger.account(1).address;
    const attempts = [
      '0',
      { currency: 'XRP', issuer: ledger.account(2).address, value: '5' },
      usd(ledger.account(2).address, '0'),
      usd(ledger.account(2).address, '-3'),
    ];

    for (const amount of attempts) {
      const result = ledger.submit(ledger.genesis, { TransactionType: 'Payment', Destination: destination, Amount: amount });
      expect(result, JSON.stringify(amount)).toMatchObject({ engineResult: 'temBAD_AMOUNT', applied: false });
    }
    expect(ledger.chain.pendingCount()).toBe(0);
  });

  it('rejects a negative native amount as temBAD_AMOUNT', () => {
    const ledger = new TestLedger();
    const profile = ledger.profile;
    const tx = {
      TransactionType: 'Payment',
      Account: ledger.genesis.address,
      Destination: ledger.account(1).address,
      Amount: '5000000',
      Fee: '10',
      Sequence: 1,
      SigningPubKey: ledger.genesis.publicKey,
    };
    // ripple-binary-codec will not encode a negative native amount: clear the sign bit of Amount (field 0x61) by hand.
    const negate = (blob: string) => blob.replace('6140000000004C4B40', '6100000000004C4B40');
    const unsigned = negate(profile.codec.encode(tx));
    const signature = profile.keys.sign(`53545800${unsigned}`, ledger.genesis.privateKey);
    const blob = negate(profile.codec.encode({ ...tx, TxnSignature: signature }));

    expect(profile.codec.decode(blob).Amount).toBe('-5000000');
    expect(ledger.chain.submit(blob)).toMatchObject({ engineResult: 'temBAD_AMOUNT', applied: false });
  });

  it('rejects SendMax, partial payment and paths on a native-to-native payment', () => {
    const ledger = new TestLedger();
    const destination = ledger.account(1).address;
    const base = { TransactionType: 'Payment', Destination: destination, Amount: '5000000' };

    expect(ledger.submit(ledger.genesis, { ...base, SendMax: '6000000' }).engineResult).toBe('temBAD_SEND_XRP_MAX');
    expect(ledger.submit(ledger.genesis, { ...base, Flags: 0x00020000 }).engineResult).toBe('temBAD_SEND_XRP_PARTIAL');
    expect(ledger.submit(ledger.genesis, { ...base, Paths: [[{ account: ledger.account(2).address }]] }).engineResult).toBe(
      'temBAD_SEND_XRP_PATHS',
    );
  });

  it('requires a destination tag when the destination asks for one', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    ledger.fund(alice, 25_000_000n);
    ledger.expectResult(alice, { TransactionType: 'AccountSet', SetFlag: 1 }, 'tesSUCCESS');

    expect(ledger.submit(ledger.genesis, { TransactionType: 'Payment', Destination: alice.address, Amount: '1000000' }).engineResult).toBe(
      'tecDST_TAG_NEEDED',
    );
    expect(
      ledger.submit(ledger.genesis, { TransactionType: 'Payment', Destination: alice.address, Amount: '1000000', DestinationTag: 7 }).engineResult,
    ).toBe('tesSUCCESS');
  });

  it('accepts blobs signed by the xrpl package Wallet with secp256k1 and ed25519 keys', () => {
    const ledger = new TestLedger();
    const genesis = Wallet.fromSeed(ledger.profile.genesis.secret);
    const edWallet = Wallet.fromEntropy(new Uint8Array(16).fill(7), { algorithm: 'ed25519' as never });
    const fund = genesis.sign({ TransactionType: 'Payment', Account: genesis.address, Destination: edWallet.address, Amount: '30000000', Fee: '12', Sequence: 1 });
    const back = edWallet.sign({ TransactionType: 'Payment', Account: edWallet.address, Destination: genesis.address, Amount: '1000000', Fee: '10', Sequence: 2 });

    expect(ledger.chain.submit(fund.tx_blob)).toMatchObject({ engineResult: 'tesSUCCESS', txHash: fund.hash });
    expect(ledger.chain.submit(back.tx_blob)).toMatchObject({ engineResult: 'tesSUCCESS', txHash: back.hash });
    expect(ledger.balance(edWallet.address)).toBe(30_000_000n - 1_000_000n - 10n);
  });
});

describe('Payment of an issued currency', () => {
  it('lets the issuer pay a holder up to the holder’s limit, with rippled metadata', () => {
    const ledger = new TestLedger();
    const issuer = ledger.account(11);
    const alice = ledger.account(12);
    ledger.fund(issuer, 100_000_000n);
    ledger.fund(alice, 100_000_000n);
    ledger.close();
    const trust = ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '1000') }, 'tesSUCCESS');
    const trustLedger = ledger.close().header.ledgerIndex;
    const paid = ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(issuer.address, '250.75') }, 'tesSUCCESS');
    const closed = ledger.close();
    const meta = closed.transactions[0]!.metaJson;
    const lineIndex = hashes.hashTrustline(alice.address, issuer.address, 'USD');
    const aliceIsLow = isLow(alice.address, issuer.address);
    const lowLimit = aliceIsLow ? usd(alice.address, '1000') : usd(issuer.address, '0');
    const highLimit = aliceIsLow ? usd(issuer.address, '0') : usd(alice.address, '1000');
    // Alice holds the side with the reserve; the issuer, without DefaultRipple, gets NoRipple.
    const flags = aliceIsLow ? 0x00010000 | 0x00200000 : 0x00020000 | 0x00100000;
    const line = affectedNodes(meta).find((node) => node.index === lineIndex)!;

    expect(meta.delivered_amount).toEqual(usd(issuer.address, '250.75'));
    expect(affectedNodes(meta).map((node) => `${node.kind} ${node.type}`).sort()).toEqual(['ModifiedNode AccountRoot', 'ModifiedNode RippleState']);
    expect(line.fields).toEqual({
      LedgerEntryType: 'RippleState',
      LedgerIndex: lineIndex,
      PreviousTxnID: trust.txHash,
      PreviousTxnLgrSeq: trustLedger,
      PreviousFields: { Balance: { currency: 'USD', issuer: ACCOUNT_ONE, value: '0' } },
      FinalFields: {
        Balance: { currency: 'USD', issuer: ACCOUNT_ONE, value: aliceIsLow ? '250.75' : '-250.75' },
        Flags: flags,
        HighLimit: highLimit,
        HighNode: '0000000000000000',
        LowLimit: lowLimit,
        LowNode: '0000000000000000',
      },
    });
    expect(paid.engineResult).toBe('tesSUCCESS');
    expect(lineBalance(ledger, alice, issuer)).toBe('250.75');
  });

  it('answers tecPATH_PARTIAL beyond the holder’s limit and delivers the rest with tfPartialPayment', () => {
    const { ledger, issuer, alice } = issuedCurrencySetup({ defaultRipple: false });
    const amount = usd(issuer.address, '1500');

    expect(ledger.submit(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: amount }).engineResult).toBe('tecPATH_PARTIAL');
    expect(lineBalance(ledger, alice, issuer)).toBe('100');
    ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: amount, Flags: 0x00020000 }, 'tesSUCCESS');
    const meta = ledger.close().transactions[1]!.metaJson;
    expect(meta.DeliveredAmount).toEqual(usd(issuer.address, '900'));
    expect(meta.delivered_amount).toEqual(usd(issuer.address, '900'));
    expect(lineBalance(ledger, alice, issuer)).toBe('1000');
  });

  it('answers tecPATH_DRY when the holder is already at the limit', () => {
    const { ledger, issuer, alice } = issuedCurrencySetup({ defaultRipple: false });
    ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(issuer.address, '900') }, 'tesSUCCESS');

    expect(ledger.submit(issuer, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(issuer.address, '1') }).engineResult).toBe(
      'tecPATH_DRY',
    );
  });

  it('lets a holder pay back the issuer from its balance', () => {
    const { ledger, issuer, alice } = issuedCurrencySetup({ defaultRipple: false });

    ledger.expectResult(alice, { TransactionType: 'Payment', Destination: issuer.address, Amount: usd(issuer.address, '40') }, 'tesSUCCESS');
    expect(lineBalance(ledger, alice, issuer)).toBe('60');
    expect(ledger.submit(alice, { TransactionType: 'Payment', Destination: issuer.address, Amount: usd(issuer.address, '61') }).engineResult).toBe(
      'tecPATH_PARTIAL',
    );
  });

  it('ripples between holders through an issuer with DefaultRipple', () => {
    const { ledger, issuer, alice, bob } = issuedCurrencySetup({ defaultRipple: true });

    ledger.expectResult(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: usd(issuer.address, '30') }, 'tesSUCCESS');
    expect(lineBalance(ledger, alice, issuer)).toBe('70');
    expect(lineBalance(ledger, bob, issuer)).toBe('30');
    const meta = ledger.close().transactions[0]!.metaJson;
    expect(affectedNodes(meta).map((node) => node.index).sort()).toEqual(
      [hashes.hashAccountRoot(alice.address), hashes.hashTrustline(alice.address, issuer.address, 'USD'), hashes.hashTrustline(bob.address, issuer.address, 'USD')].sort(),
    );
  });

  it('answers tecPATH_DRY between holders when the issuer has no DefaultRipple', () => {
    const { ledger, issuer, alice, bob } = issuedCurrencySetup({ defaultRipple: false });
    const before = ledger.balance(alice.address);

    expect(ledger.submit(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: usd(issuer.address, '30') }).engineResult).toBe(
      'tecPATH_DRY',
    );
    expect(lineBalance(ledger, alice, issuer)).toBe('100');
    expect(ledger.balance(alice.address)).toBe(before - 10n);
  });

  it('ripples once the issuer clears NoRipple on one of the two lines (rippling is blocked only by both)', () => {
    const { ledger, issuer, alice, bob } = issuedCurrencySetup({ defaultRipple: false });
    ledger.expectResult(issuer, { TransactionType: 'TrustSet', Flags: 0x00040000, LimitAmount: usd(alice.address, '0') }, 'tesSUCCESS');

    ledger.expectResult(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: usd(issuer.address, '5') }, 'tesSUCCESS');
    expect(lineBalance(ledger, alice, issuer)).toBe('95');
    expect(lineBalance(ledger, bob, issuer)).toBe('5');
    // The issuer owes on that line now, and NoRipple cannot be set on a side that owes (fix1578).
    ledger.expectResult(issuer, { TransactionType: 'TrustSet', Flags: 0x00020000, LimitAmount: usd(alice.address, '0') }, 'tecNO_PERMISSION');
  });

  it('answers tecPATH_DRY without a trust line and tecNO_DST for a missing destination', () => {
    const { ledger, issuer, alice } = issuedCurrencySetup({ defaultRipple: true });
    const stranger = ledger.account(20);
    ledger.fund(stranger, 50_000_000n);

    expect(ledger.submit(issuer, { TransactionType: 'Payment', Destination: stranger.address, Amount: usd(issuer.address, '1') }).engineResult).toBe(
      'tecPATH_DRY',
    );
    expect(ledger.submit(stranger, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(issuer.address, '1') }).engineResult).toBe(
      'tecPATH_DRY',
    );
    expect(
      ledger.submit(issuer, { TransactionType: 'Payment', Destination: ledger.account(21).address, Amount: usd(issuer.address, '1') }).engineResult,
    ).toBe('tecNO_DST');
  });

  it('stops a frozen holder from paying other holders but lets it pay the issuer back', () => {
    const { ledger, issuer, alice, bob } = issuedCurrencySetup({ defaultRipple: true });
    ledger.expectResult(issuer, { TransactionType: 'TrustSet', LimitAmount: usd(alice.address, '0'), Flags: 0x00100000 }, 'tesSUCCESS');
    expect(ledger.chain.trustLines!(alice.address, ledger.chain.openLedgerIndex())![0]!.freeze_peer).toBe(true);

    ledger.expectResult(alice, { TransactionType: 'Payment', Destination: bob.address, Amount: usd(issuer.address, '1') }, 'tecPATH_DRY');
    ledger.expectResult(alice, { TransactionType: 'Payment', Destination: issuer.address, Amount: usd(issuer.address, '1') }, 'tesSUCCESS');
    expect(lineBalance(ledger, alice, issuer)).toBe('99');
  });

  it('charges the issuer’s TransferRate to a holder paying another holder', () => {
    const { ledger, issuer, alice, bob } = issuedCurrencySetup({ defaultRipple: true });
    ledger.expectResult(issuer, { TransactionType: 'AccountSet', TransferRate: 1_005_000_000 }, 'tesSUCCESS');
    const payment = { TransactionType: 'Payment', Destination: bob.address, Amount: usd(issuer.address, '10') };

    expect(ledger.submit(alice, payment).engineResult).toBe('tecPATH_PARTIAL');
    ledger.expectResult(alice, { ...payment, SendMax: usd(issuer.address, '10.05') }, 'tesSUCCESS');
    expect(lineBalance(ledger, alice, issuer)).toBe('89.95');
    expect(lineBalance(ledger, bob, issuer)).toBe('10');
  });
});
