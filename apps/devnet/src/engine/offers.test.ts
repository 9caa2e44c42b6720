import { getProfile, keylet } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { decodeAccountID } from 'ripple-address-codec';
import { hashes } from 'xrpl';
import { describe, expect, it } from 'vitest';
import { parseAmount } from './amounts';
import { u64Hex } from './directory';
import { bookBaseOf, offerQuality } from './offers';
import type { ChainSettings } from './rules/context';
import { affectedNodes, TestLedger, xrplHashesOf, type TestAccount } from './test-support';
import type { ClosedLedger, JsonObject } from './types';

const XRP = 1_000_000n;
const tfPassive = 0x00010000;
const tfImmediateOrCancel = 0x00020000;
const tfFillOrKill = 0x00040000;
const tfSell = 0x00080000;
const asfRequireAuth = 2;

function usd(issuer: TestAccount, value: string) {
  return { currency: 'USD', issuer: issuer.address, value };
}

function eur(issuer: TestAccount, value: string) {
  return { currency: 'EUR', issuer: issuer.address, value };
}

/** An issuer and two traders each trusting it for USD and EUR; alice holds 100 USD, bob 100 EUR. */
function market() {
  const ledger = new TestLedger();
  const gateway = ledger.account(41);
  const alice = ledger.account(42);
  const bob = ledger.account(43);
  for (const account of [gateway, alice, bob]) ledger.fund(account, 1000n * XRP);
  ledger.close();
  for (const trader of [alice, bob]) {
    ledger.expectResult(trader, { TransactionType: 'TrustSet', LimitAmount: usd(gateway, '1000') }, 'tesSUCCESS');
    ledger.expectResult(trader, { TransactionType: 'TrustSet', LimitAmount: eur(gateway, '1000') }, 'tesSUCCESS');
  }
  ledger.close();
  ledger.expectResult(gateway, { TransactionType: 'Payment', Destination: alice.address, Amount: usd(gateway, '100') }, 'tesSUCCESS');
  ledger.expectResult(gateway, { TransactionType: 'Payment', Destination: bob.address, Amount: eur(gateway, '100') }, 'tesSUCCESS');
  ledger.close();
  return { ledger, gateway, alice, bob };
}

/** Closes the ledger and checks it with the published xrpl package: state tree, transaction tree and header hash. */
function closeVerified(ledger: TestLedger): ClosedLedger {
  const closed = ledger.close();
  const recomputed = xrplHashesOf(ledger.chain, closed);
  expect(recomputed).toEqual({ ledgerHash: closed.hash, transactionHash: closed.header.transactionHash, accountHash: closed.header.accountHash });
  return closed;
}

function entry(ledger: TestLedger, index: string): JsonObject | undefined {
  return ledger.chain.stateEntry(index, ledger.chain.validatedLedgerIndex())?.json;
}

function offerOf(ledger: TestLedger, owner: TestAccount, sequence: number): JsonObject | undefined {
  return entry(ledger, hashes.hashOfferId(owner.address, sequence));
}

/** What `owner` holds of the gateway's `currency` at the validated ledger. */
function holding(ledger: TestLedger, owner: TestAccount, gateway: TestAccount, currency: string): string {
  const line = entry(ledger, hashes.hashTrustline(owner.address, gateway.address, currency));
  if (line === undefined) return 'none';
  const lowBalance = (line.Balance as { value: string }).value;
  const ownerIsLow = Buffer.compare(Buffer.from(decodeAccountID(owner.address)), Buffer.from(decodeAccountID(gateway.address))) < 0;
  return ownerIsLow ? lowBalance : lowBalance.startsWith('-') ? lowBalance.slice(1) : lowBalance === '0' ? '0' : `-${lowBalance}`;
}

function ownerCount(ledger: TestLedger, account: TestAccount): number {
  return ledger.accountField(account.address, 'OwnerCount', ledger.chain.validatedLedgerIndex()) as number;
}

const settings = (() => {
  const profile = getProfile('xrpl');
  return { profile, keys: { accountId: (address: string) => profile.codec.decodeAccountId(address) } } as unknown as ChainSettings;
})();

/** The book directory an offer of these amounts is filed under. */
function bookDirectory(takerPays: unknown, takerGets: unknown): string {
  const pays = parseAmount(takerPays)!;
  const gets = parseAmount(takerGets)!;
  return `${bookBaseOf(pays, gets, settings).slice(0, 48)}${u64Hex(offerQuality(pays, gets))}`;
}

describe('offer book keys', () => {
  it('files an offer under its book and quality as rippled did on mainnet (ledgers 11119607–11119627)', () => {
    let checked = 0;
    for (let ledgerIndex = 11119607; ledgerIndex <= 11119627; ledgerIndex++) {
      const { ledger } = readFixture<{ ledger: { transactions: JsonObject[] } }>(`xrpl/corpus/ledgers/mainnet-${ledgerIndex}.json`);
      for (const tx of ledger.transactions) {
        const created = ((tx.metaData as JsonObject).AffectedNodes as JsonObject[])
          .map((node) => node.CreatedNode as JsonObject | undefined)
          .find((node) => node?.LedgerEntryType === 'Offer');
        if (tx.TransactionType !== 'OfferCreate' || created === undefined) continue;
        // The directory carries the transaction's rate, whatever crossing left of the amounts; 2015's rippled truncated the quotient.
        const pays = parseAmount(tx.TakerPays)!;
        const gets = parseAmount(tx.TakerGets)!;
        const expected = (created.NewFields as JsonObject).BookDirectory;
        expect(`${bookBaseOf(pays, gets, settings).slice(0, 48)}${u64Hex(offerQuality(pays, gets, 'truncate'))}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('packs a quality as exponent + 100 over a 16-digit mantissa: 100 XRP for 10 USD is 10^7 drops per USD', () => {
    expect(u64Hex(offerQuality(parseAmount('100000000')!, parseAmount({ currency: 'USD', issuer: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', value: '10' })!))).toBe(
      '5C038D7EA4C68000',
    );
  });
});

describe('OfferCreate: placing an offer', () => {
  it('files the offer in its book directory and its owner directory, with rippled entries and metadata', () => {
    const { ledger, gateway, alice } = market();
    const sequence = ledger.sequence(alice.address);
    const countBefore = ownerCount(ledger, alice);
    const takerGets = usd(gateway, '10');
    const takerPays = (100n * XRP).toString();
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: takerGets, TakerPays: takerPays }, 'tesSUCCESS');
    const closed = closeVerified(ledger);
    const tx = closed.transactions[0]!;
    const offerIndex = hashes.hashOfferId(alice.address, sequence);
    const directory = bookDirectory(takerPays, takerGets);
    expect(directory.slice(48)).toBe('5C038D7EA4C68000');

    expect(offerOf(ledger, alice, sequence)).toEqual({
      LedgerEntryType: 'Offer',
      Flags: 0,
      Account: alice.address,
      Sequence: sequence,
      TakerPays: takerPays,
      TakerGets: takerGets,
      BookDirectory: directory,
      BookNode: '0000000000000000',
      OwnerNode: '0000000000000000',
      PreviousTxnID: tx.hash,
      PreviousTxnLgrSeq: closed.header.ledgerIndex,
    });
    expect(entry(ledger, directory)).toEqual({
      LedgerEntryType: 'DirectoryNode',
      Flags: 0,
      RootIndex: directory,
      Indexes: [offerIndex],
      TakerPaysCurrency: '0'.repeat(40),
      TakerPaysIssuer: '0'.repeat(40),
      TakerGetsCurrency: '0000000000000000000000005553440000000000',
      TakerGetsIssuer: Buffer.from(decodeAccountID(gateway.address)).toString('hex').toUpperCase(),
      ExchangeRate: '5C038D7EA4C68000',
    });
    expect(ownerCount(ledger, alice)).toBe(countBefore + 1);

    const nodes = affectedNodes(tx.metaJson);
    expect(nodes.map(({ kind, type, index }) => [kind, type, index])).toEqual(
      [
        ['CreatedNode', 'Offer', offerIndex],
        ['CreatedNode', 'DirectoryNode', directory],
        ['ModifiedNode', 'DirectoryNode', keylet.ownerDir(decodeAccountID(alice.address))],
        ['ModifiedNode', 'AccountRoot', hashes.hashAccountRoot(alice.address)],
      ].sort((left, right) => (left[2]! < right[2]! ? -1 : 1)),
    );
    // As mainnet's metadata shows them: default fields (zero nodes, zero native currency and issuer) left out.
    const newFields = (type: string) => Object.keys(nodes.find((node) => node.type === type && node.kind === 'CreatedNode')!.fields.NewFields as JsonObject).sort();
    expect(newFields('Offer')).toEqual(['Account', 'BookDirectory', 'Sequence', 'TakerGets', 'TakerPays']);
    expect(newFields('DirectoryNode')).toEqual(['ExchangeRate', 'RootIndex', 'TakerGetsCurrency', 'TakerGetsIssuer']);
    expect(tx.metaJson.TransactionResult).toBe('tesSUCCESS');
  });

  it('appends offers of the same quality to the directory in arrival order, and marks tfPassive and tfSell', () => {
    const { ledger, gateway, alice, bob } = market();
    const aliceSequence = ledger.sequence(alice.address);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '10'), TakerPays: '100000000', Flags: tfPassive }, 'tesSUCCESS');
    const bobSequence = ledger.sequence(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: eur(gateway, '5'), TakerPays: '50000000', Flags: tfSell }, 'tesSUCCESS');
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '1'), TakerPays: '10000000' }, 'tesSUCCESS');
    closeVerified(ledger);
    const directory = bookDirectory('100000000', usd(gateway, '10'));
    expect(entry(ledger, directory)!.Indexes).toEqual([hashes.hashOfferId(alice.address, aliceSequence), hashes.hashOfferId(alice.address, aliceSequence + 1)]);
    expect(offerOf(ledger, alice, aliceSequence)!.Flags).toBe(0x00010000);
    expect(offerOf(ledger, bob, bobSequence)!.Flags).toBe(0x00020000);
  });

  it('OfferCancel removes the offer, its emptied book directory and the owned object', () => {
    const { ledger, gateway, alice } = market();
    const sequence = ledger.sequence(alice.address);
    const countBefore = ownerCount(ledger, alice);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '10'), TakerPays: '100000000' }, 'tesSUCCESS');
    closeVerified(ledger);
    ledger.expectResult(alice, { TransactionType: 'OfferCancel', OfferSequence: sequence }, 'tesSUCCESS');
    const closed = closeVerified(ledger);
    const directory = bookDirectory('100000000', usd(gateway, '10'));
    expect(offerOf(ledger, alice, sequence)).toBeUndefined();
    expect(entry(ledger, directory)).toBeUndefined();
    expect(ownerCount(ledger, alice)).toBe(countBefore);
    const kinds = affectedNodes(closed.transactions[0]!.metaJson).map(({ kind, type }) => `${kind} ${type}`);
    expect(kinds.sort()).toEqual(['DeletedNode DirectoryNode', 'DeletedNode Offer', 'ModifiedNode AccountRoot', 'ModifiedNode DirectoryNode']);
    // Cancelling again is no error; a sequence the account has not used yet is.
    ledger.expectResult(alice, { TransactionType: 'OfferCancel', OfferSequence: sequence }, 'tesSUCCESS');
    ledger.expectResult(alice, { TransactionType: 'OfferCancel', OfferSequence: ledger.sequence(alice.address) + 5 }, 'temBAD_SEQUENCE');
    ledger.expectResult(alice, { TransactionType: 'OfferCancel', OfferSequence: 0 }, 'temBAD_SEQUENCE');
    closeVerified(ledger);
  });

  it('OfferSequence replaces the earlier offer', () => {
    const { ledger, gateway, alice } = market();
    const first = ledger.sequence(alice.address);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '10'), TakerPays: '100000000' }, 'tesSUCCESS');
    closeVerified(ledger);
    const countBefore = ownerCount(ledger, alice);
    const second = ledger.sequence(alice.address);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '10'), TakerPays: '120000000', OfferSequence: first }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, first)).toBeUndefined();
    expect(offerOf(ledger, alice, second)!.TakerPays).toBe('120000000');
    expect(ownerCount(ledger, alice)).toBe(countBefore);
  });
});

describe('OfferCreate: crossing', () => {
  /** Alice offers 10 USD for 100 XRP (10 XRP per USD). */
  function withAliceOffer() {
    const setup = market();
    const sequence = setup.ledger.sequence(setup.alice.address);
    setup.ledger.expectResult(setup.alice, { TransactionType: 'OfferCreate', TakerGets: usd(setup.gateway, '10'), TakerPays: '100000000' }, 'tesSUCCESS');
    closeVerified(setup.ledger);
    return { ...setup, aliceSequence: sequence };
  }

  it('consumes the best opposite offer in full: both sides paid, the offer and its directory gone, nothing placed', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    const [aliceDrops, bobDrops] = [ledger.balance(alice.address), ledger.balance(bob.address)];
    const bobSequence = ledger.sequence(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '100000000', TakerPays: usd(gateway, '10') }, 'tesSUCCESS');
    const closed = closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toBeUndefined();
    expect(offerOf(ledger, bob, bobSequence)).toBeUndefined();
    expect(entry(ledger, bookDirectory('100000000', usd(gateway, '10')))).toBeUndefined();
    expect(holding(ledger, bob, gateway, 'USD')).toBe('10');
    expect(holding(ledger, alice, gateway, 'USD')).toBe('90');
    expect(ledger.balance(alice.address)).toBe(aliceDrops + 100n * XRP);
    expect(ledger.balance(bob.address)).toBe(bobDrops - 100n * XRP - 10n);
    const nodes = affectedNodes(closed.transactions[0]!.metaJson);
    const kinds = nodes.map(({ kind, type }) => `${kind} ${type}`);
    expect(kinds.filter((kind) => kind === 'ModifiedNode RippleState')).toHaveLength(2);
    // As rippled writes a consumed offer: its amounts taken to zero, then deleted (book_changes reads the difference).
    const consumed = nodes.find((node) => node.type === 'Offer')!;
    expect(consumed.kind).toBe('DeletedNode');
    expect(consumed.fields.PreviousFields).toEqual({ TakerGets: usd(gateway, '10'), TakerPays: '100000000' });
    expect(consumed.fields.FinalFields).toMatchObject({ TakerGets: usd(gateway, '0'), TakerPays: '0', Sequence: aliceSequence });
  });

  it("makes the offer's owner bear its issuer's transfer fee on what it delivers", () => {
    const { ledger, gateway, alice, bob } = market();
    ledger.expectResult(gateway, { TransactionType: 'AccountSet', TransferRate: 1_500_000_000 }, 'tesSUCCESS');
    const aliceSequence = ledger.sequence(alice.address);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '10'), TakerPays: '100000000' }, 'tesSUCCESS');
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '100000000', TakerPays: usd(gateway, '10') }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toBeUndefined();
    expect(holding(ledger, bob, gateway, 'USD')).toBe('10');
    expect(holding(ledger, alice, gateway, 'USD')).toBe('85');
  });

  it('takes part of an offer, leaving the rest in the book at the same rate', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    const bobSequence = ledger.sequence(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '40000000', TakerPays: usd(gateway, '4') }, 'tesSUCCESS');
    const closed = closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toMatchObject({ TakerGets: usd(gateway, '6'), TakerPays: '60000000' });
    expect(offerOf(ledger, bob, bobSequence)).toBeUndefined();
    expect(holding(ledger, bob, gateway, 'USD')).toBe('4');
    const modified = affectedNodes(closed.transactions[0]!.metaJson).find((node) => node.type === 'Offer')!;
    expect(modified.kind).toBe('ModifiedNode');
    expect(modified.fields.PreviousFields).toEqual({ TakerGets: usd(gateway, '10'), TakerPays: '100000000' });
  });

  it('places what is left after consuming the book', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    const bobSequence = ledger.sequence(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '150000000', TakerPays: usd(gateway, '15') }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toBeUndefined();
    expect(offerOf(ledger, bob, bobSequence)).toMatchObject({ TakerGets: '50000000', TakerPays: usd(gateway, '5'), BookDirectory: bookDirectory(usd(gateway, '15'), '150000000') });
    expect(holding(ledger, bob, gateway, 'USD')).toBe('10');
  });

  it('crosses issued against issued over the traders’ lines', () => {
    const { ledger, gateway, alice, bob } = market();
    const aliceSequence = ledger.sequence(alice.address);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '20'), TakerPays: eur(gateway, '18') }, 'tesSUCCESS');
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: eur(gateway, '9'), TakerPays: usd(gateway, '10') }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toMatchObject({ TakerGets: usd(gateway, '10'), TakerPays: eur(gateway, '9') });
    expect([holding(ledger, alice, gateway, 'USD'), holding(ledger, alice, gateway, 'EUR')]).toEqual(['90', '9']);
    expect([holding(ledger, bob, gateway, 'USD'), holding(ledger, bob, gateway, 'EUR')]).toEqual(['10', '91']);
  });

  it('tfSell sells all of TakerGets at the better price, receiving more than asked', () => {
    const { ledger, gateway, alice, bob } = withAliceOffer();
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '50000000', TakerPays: usd(gateway, '2'), Flags: tfSell }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(holding(ledger, bob, gateway, 'USD')).toBe('5');
    expect(holding(ledger, alice, gateway, 'USD')).toBe('95');
  });

  it('does not cross an offer at exactly its own rate when tfPassive', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    const bobSequence = ledger.sequence(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '100000000', TakerPays: usd(gateway, '10'), Flags: tfPassive }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toBeDefined();
    expect(offerOf(ledger, bob, bobSequence)).toMatchObject({ Flags: 0x00010000 });
  });

  it('does not cross an offer priced worse than its own', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    // Bob pays at most 9 XRP per USD; Alice asks 10.
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '90000000', TakerPays: usd(gateway, '10') }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)!.TakerGets).toEqual(usd(gateway, '10'));
    expect(holding(ledger, bob, gateway, 'USD')).toBe('0');
  });

  it('tfImmediateOrCancel: tecKILLED when nothing crosses, the crossed part kept and nothing placed otherwise', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    const bobSequence = ledger.sequence(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '50000000', TakerPays: usd(gateway, '10'), Flags: tfImmediateOrCancel }, 'tecKILLED');
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '150000000', TakerPays: usd(gateway, '15'), Flags: tfImmediateOrCancel }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)).toBeUndefined();
    expect(offerOf(ledger, bob, bobSequence)).toBeUndefined();
    expect(offerOf(ledger, bob, bobSequence + 1)).toBeUndefined();
    expect(holding(ledger, bob, gateway, 'USD')).toBe('10');
  });

  it('tfFillOrKill: tecKILLED leaves the book untouched unless the whole amount fills', () => {
    const { ledger, gateway, alice, bob, aliceSequence } = withAliceOffer();
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '150000000', TakerPays: usd(gateway, '15'), Flags: tfFillOrKill }, 'tecKILLED');
    closeVerified(ledger);
    expect(offerOf(ledger, alice, aliceSequence)!.TakerGets).toEqual(usd(gateway, '10'));
    expect(holding(ledger, bob, gateway, 'USD')).toBe('0');
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: '70000000', TakerPays: usd(gateway, '7'), Flags: tfFillOrKill }, 'tesSUCCESS');
    closeVerified(ledger);
    expect(holding(ledger, bob, gateway, 'USD')).toBe('7');
  });
});

describe('OfferCreate: refusals', () => {
  it("answers rippled's malformed-offer codes", () => {
    const { ledger, gateway, alice } = market();
    const create = (fields: JsonObject, expected: string) => ledger.expectResult(alice, { TransactionType: 'OfferCreate', ...fields }, expected);
    create({ TakerGets: '1000', TakerPays: '2000' }, 'temBAD_OFFER');
    create({ TakerGets: usd(gateway, '0'), TakerPays: '2000' }, 'temBAD_OFFER');
    create({ TakerGets: usd(gateway, '1'), TakerPays: usd(gateway, '2') }, 'temREDUNDANT');
    create({ TakerGets: usd(gateway, '1'), TakerPays: '2000', Flags: tfImmediateOrCancel | tfFillOrKill }, 'temINVALID_FLAG');
    create({ TakerGets: usd(gateway, '1'), TakerPays: '2000', Flags: 0x00100000 }, 'temINVALID_FLAG');
    create({ TakerGets: usd(gateway, '1'), TakerPays: '2000', Expiration: 0 }, 'temBAD_EXPIRATION');
    create({ TakerGets: usd(gateway, '1'), TakerPays: '2000', OfferSequence: 0 }, 'temBAD_SEQUENCE');
    create({ TakerGets: usd(gateway, '1'), TakerPays: '2000', OfferSequence: 10_000 }, 'temBAD_SEQUENCE');
    create({ TakerGets: { currency: 'XRP', issuer: gateway.address, value: '1' }, TakerPays: '2000' }, 'temBAD_CURRENCY');
  });

  it('tecUNFUNDED_OFFER when the account holds nothing of what it offers', () => {
    const { ledger, gateway, bob } = market();
    const before = ledger.balance(bob.address);
    ledger.expectResult(bob, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '1'), TakerPays: '2000' }, 'tecUNFUNDED_OFFER');
    closeVerified(ledger);
    expect(ledger.balance(bob.address)).toBe(before - 10n);
  });

  it('tecNO_ISSUER for an asset whose issuer does not exist; tecNO_LINE when the issuer requires authorization', () => {
    const { ledger, gateway, alice } = market();
    const nobody = ledger.account(49);
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '1'), TakerPays: { currency: 'JPY', issuer: nobody.address, value: '5' } }, 'tecNO_ISSUER');
    const strict = ledger.account(48);
    ledger.fund(strict, 100n * XRP);
    ledger.close();
    ledger.expectResult(strict, { TransactionType: 'AccountSet', SetFlag: asfRequireAuth }, 'tesSUCCESS');
    ledger.expectResult(alice, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '1'), TakerPays: { currency: 'GBP', issuer: strict.address, value: '5' } }, 'tecNO_LINE');
    closeVerified(ledger);
  });

  it('tecINSUF_RESERVE_OFFER when the balance before the fee cannot hold one more object and nothing crossed', () => {
    const ledger = new TestLedger();
    const gateway = ledger.account(51);
    const poor = ledger.account(52);
    ledger.fund(gateway, 100n * XRP);
    // The base reserve and one owned object's worth, nothing more.
    ledger.fund(poor, ledger.chain.fees.reserveBase + ledger.chain.fees.reserveIncrement + 20n);
    ledger.close();
    ledger.expectResult(poor, { TransactionType: 'TrustSet', LimitAmount: usd(gateway, '100') }, 'tesSUCCESS');
    ledger.expectResult(gateway, { TransactionType: 'Payment', Destination: poor.address, Amount: usd(gateway, '10') }, 'tesSUCCESS');
    ledger.expectResult(poor, { TransactionType: 'OfferCreate', TakerGets: usd(gateway, '1'), TakerPays: '2000' }, 'tecINSUF_RESERVE_OFFER');
    closeVerified(ledger);
  });
});
