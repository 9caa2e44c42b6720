import { keylet } from '@ledger-node/chain';
import { decodeAccountID } from 'ripple-address-codec';
import { hashes } from 'xrpl';
import { describe, expect, it } from 'vitest';
import { affectedNodes, TestLedger, xrplHashesOf, type TestAccount } from './test-support';
import type { JsonObject } from './types';

const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
const LOW_RESERVE = 0x00010000;
const HIGH_RESERVE = 0x00020000;
const LOW_NO_RIPPLE = 0x00100000;
const HIGH_NO_RIPPLE = 0x00200000;

function amount(currency: string, issuer: string, value: string) {
  return { currency, issuer, value };
}

function ownerDir(address: string): string {
  return keylet.ownerDir(decodeAccountID(address));
}

function isLow(account: string, peer: string): boolean {
  return Buffer.compare(Buffer.from(decodeAccountID(account)), Buffer.from(decodeAccountID(peer))) < 0;
}

function sortByIndex(nodes: JsonObject[]): JsonObject[] {
  const indexOf = (node: JsonObject) => (Object.values(node)[0] as JsonObject).LedgerIndex as string;
  return [...nodes].sort((left, right) => (indexOf(left) < indexOf(right) ? -1 : 1));
}

function setup(holderDrops = 50_000_000n) {
  const ledger = new TestLedger();
  const issuer = ledger.account(31);
  const alice = ledger.account(32);
  const issuerFunding = ledger.fund(issuer, 100_000_000n);
  const aliceFunding = ledger.fund(alice, holderDrops);
  const fundedIn = ledger.close().header.ledgerIndex;
  return { ledger, issuer, alice, issuerFunding, aliceFunding, fundedIn };
}

function ownerCount(ledger: TestLedger, account: TestAccount): number {
  return ledger.accountField(account.address, 'OwnerCount') as number;
}

describe('TrustSet', () => {
  it('creates a trust line with rippled metadata: line, both owner directories, threaded accounts', () => {
    const { ledger, issuer, alice, issuerFunding, aliceFunding, fundedIn } = setup();
    const submitted = ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '1000') }, 'tesSUCCESS');
    const closed = ledger.close();
    const tx = closed.transactions[0]!;
    const lineIndex = hashes.hashTrustline(alice.address, issuer.address, 'USD');
    const aliceLow = isLow(alice.address, issuer.address);
    const [low, high] = aliceLow ? [alice.address, issuer.address] : [issuer.address, alice.address];
    const limits = { [alice.address]: '1000', [issuer.address]: '0' };

    expect(submitted.txHash).toBe(tx.hash);
    expect(tx.metaJson).toEqual({
      TransactionIndex: 0,
      TransactionResult: 'tesSUCCESS',
      AffectedNodes: sortByIndex([
        {
          ModifiedNode: {
            LedgerEntryType: 'AccountRoot',
            LedgerIndex: hashes.hashAccountRoot(alice.address),
            PreviousTxnID: aliceFunding.txHash,
            PreviousTxnLgrSeq: fundedIn,
            PreviousFields: { Balance: '50000000', OwnerCount: 0, Sequence: fundedIn },
            FinalFields: { Account: alice.address, Balance: '49999990', Flags: 0, OwnerCount: 1, Sequence: fundedIn + 1 },
          },
        },
        {
          // The issuer is only threaded: its root records this transaction as its latest.
          ModifiedNode: {
            LedgerEntryType: 'AccountRoot',
            LedgerIndex: hashes.hashAccountRoot(issuer.address),
            PreviousTxnID: issuerFunding.txHash,
            PreviousTxnLgrSeq: fundedIn,
          },
        },
        {
          CreatedNode: {
            LedgerEntryType: 'RippleState',
            LedgerIndex: lineIndex,
            NewFields: {
              Balance: amount('USD', ACCOUNT_ONE, '0'),
              Flags: aliceLow ? LOW_RESERVE | HIGH_NO_RIPPLE : HIGH_RESERVE | LOW_NO_RIPPLE,
              LowLimit: amount('USD', low, limits[low]!),
              HighLimit: amount('USD', high, limits[high]!),
            },
          },
        },
        {
          CreatedNode: {
            LedgerEntryType: 'DirectoryNode',
            LedgerIndex: ownerDir(alice.address),
            NewFields: { Owner: alice.address, RootIndex: ownerDir(alice.address) },
          },
        },
        {
          CreatedNode: {
            LedgerEntryType: 'DirectoryNode',
            LedgerIndex: ownerDir(issuer.address),
            NewFields: { Owner: issuer.address, RootIndex: ownerDir(issuer.address) },
          },
        },
      ]),
    });
    expect(ledger.chain.stateEntry(lineIndex, closed.header.ledgerIndex)!.json).toMatchObject({
      PreviousTxnID: tx.hash,
      PreviousTxnLgrSeq: closed.header.ledgerIndex,
      LowNode: '0000000000000000',
      HighNode: '0000000000000000',
    });
    expect(ledger.accountField(issuer.address, 'PreviousTxnID')).toBe(tx.hash);
    expect(ownerCount(ledger, alice)).toBe(1);
    expect(ownerCount(ledger, issuer)).toBe(0);
  });

  it('lists the line for both accounts, each from its own side', () => {
    const { ledger, issuer, alice } = setup();
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '1000') }, 'tesSUCCESS');
    const ledgerIndex = ledger.close().header.ledgerIndex;

    expect(ledger.chain.trustLines!(alice.address, ledgerIndex)).toEqual([
      {
        account: issuer.address,
        balance: '0',
        currency: 'USD',
        limit: '1000',
        limit_peer: '0',
        no_ripple: false,
        no_ripple_peer: true,
        quality_in: 0,
        quality_out: 0,
        index: hashes.hashTrustline(alice.address, issuer.address, 'USD'),
      },
    ]);
    expect(ledger.chain.trustLines!(issuer.address, ledgerIndex)!.map((line) => [line.account, line.limit, line.limit_peer, line.no_ripple])).toEqual([
      [alice.address, '0', '1000', true],
    ]);
    expect(ledger.chain.trustLines!(issuer.address, ledgerIndex - 1)).toEqual([]);
  });

  it('sets and clears NoRipple on the sender’s side with tfSetNoRipple and tfClearNoRipple', () => {
    const { ledger, issuer, alice } = setup();
    const limit = amount('USD', issuer.address, '1000');
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: limit, Flags: 0x00020000 }, 'tesSUCCESS');
    const lineOf = () => ledger.chain.trustLines!(alice.address, ledger.chain.openLedgerIndex())![0]!;

    expect(lineOf().no_ripple).toBe(true);
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: limit, Flags: 0x00040000 }, 'tesSUCCESS');
    expect(lineOf().no_ripple).toBe(false);
    expect(lineOf().no_ripple_peer).toBe(true);
  });

  it('deletes a line set back to defaults and gives back the owner reserve and directories', () => {
    const { ledger, issuer, alice } = setup();
    const created = ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '1000') }, 'tesSUCCESS');
    ledger.close();
    // Without DefaultRipple, an account's default side has NoRipple set: a zero limit alone keeps the line.
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '0') }, 'tesSUCCESS');
    expect(ledger.chain.trustLines!(alice.address, ledger.chain.openLedgerIndex())).toHaveLength(1);
    ledger.close();
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '0'), Flags: 0x00020000 }, 'tesSUCCESS');
    const closed = ledger.close();
    const nodes = affectedNodes(closed.transactions[0]!.metaJson);
    const lineIndex = hashes.hashTrustline(alice.address, issuer.address, 'USD');

    expect(nodes.filter((node) => node.kind === 'DeletedNode').map((node) => node.index).sort()).toEqual(
      [lineIndex, ownerDir(alice.address), ownerDir(issuer.address)].sort(),
    );
    const deletedLine = nodes.find((node) => node.index === lineIndex)!.fields;
    const aliceLow = isLow(alice.address, issuer.address);
    expect(deletedLine.PreviousFields).toEqual({ Flags: aliceLow ? LOW_RESERVE | HIGH_NO_RIPPLE : HIGH_RESERVE | LOW_NO_RIPPLE });
    // A deleted entry's FinalFields keep its threading: the transaction that last changed it.
    expect((deletedLine.FinalFields as JsonObject).PreviousTxnID).not.toBe(created.txHash);
    expect((deletedLine.FinalFields as JsonObject).PreviousTxnID).toBe(ledger.chain.ledger(closed.header.ledgerIndex - 1)!.transactions[0]!.hash);
    expect((deletedLine.FinalFields as JsonObject).Flags).toBe(LOW_NO_RIPPLE | HIGH_NO_RIPPLE);
    expect(ownerCount(ledger, alice)).toBe(0);
    expect(ledger.chain.stateEntry(lineIndex, closed.header.ledgerIndex)).toBeUndefined();
    expect(ledger.chain.stateEntry(lineIndex, closed.header.ledgerIndex - 1)).toBeDefined();
    expect(ledger.chain.trustLines!(alice.address, closed.header.ledgerIndex)).toEqual([]);
  });

  it('answers tecNO_LINE_REDUNDANT for a zero limit on a line that does not exist', () => {
    const { ledger, issuer, alice } = setup();

    expect(ledger.submit(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '0') }).engineResult).toBe(
      'tecNO_LINE_REDUNDANT',
    );
  });

  it('creates the first two lines free of reserve and then answers tecNO_LINE_INSUF_RESERVE', () => {
    // 1.5 XRP: below the reserve for three objects (1 + 3 × 0.2 XRP).
    const { ledger, issuer, alice } = setup(1_500_000n);
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '10') }, 'tesSUCCESS');
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('EUR', issuer.address, '10') }, 'tesSUCCESS');
    const third = ledger.submit(alice, { TransactionType: 'TrustSet', LimitAmount: amount('GBP', issuer.address, '10') });

    expect(third).toMatchObject({ engineResult: 'tecNO_LINE_INSUF_RESERVE', applied: true });
    expect(ownerCount(ledger, alice)).toBe(2);
    expect(ledger.balance(alice.address)).toBe(1_500_000n - 30n);
  });

  it('answers tecINSUF_RESERVE_LINE when raising its own side of an existing line needs a reserve it lacks', () => {
    const { ledger, issuer, alice } = setup(1_500_000n);
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '10') }, 'tesSUCCESS');
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount('EUR', issuer.address, '10') }, 'tesSUCCESS');
    // The issuer opens a line towards Alice; Alice's side of it carries no reserve yet.
    ledger.expectResult(issuer, { TransactionType: 'TrustSet', LimitAmount: amount('CNY', alice.address, '10') }, 'tesSUCCESS');

    expect(ledger.submit(alice, { TransactionType: 'TrustSet', LimitAmount: amount('CNY', issuer.address, '5') }).engineResult).toBe(
      'tecINSUF_RESERVE_LINE',
    );
    expect(ownerCount(ledger, alice)).toBe(2);
  });

  it('rejects malformed limits and lines to oneself or to a missing account', () => {
    const { ledger, issuer, alice } = setup();
    const trust = (limitAmount: unknown) => ledger.submit(alice, { TransactionType: 'TrustSet', LimitAmount: limitAmount }).engineResult;

    expect(trust(amount('USD', issuer.address, '-1'))).toBe('temBAD_LIMIT');
    expect(trust('1000000')).toBe('temBAD_LIMIT');
    expect(trust(amount('XRP', issuer.address, '10'))).toBe('temBAD_CURRENCY');
    expect(trust(amount('USD', alice.address, '10'))).toBe('temDST_IS_SRC');
    expect(trust(amount('USD', ledger.account(39).address, '10'))).toBe('tecNO_DST');
    expect(ledger.submit(alice, { TransactionType: 'TrustSet', LimitAmount: amount('USD', issuer.address, '1'), Flags: 0x00000001 }).engineResult).toBe(
      'temINVALID_FLAG',
    );
  });

  it('spills an owner directory onto a second page after 32 entries and keeps the state hash right', () => {
    const { ledger, issuer, alice } = setup(20_000_000n);
    const currencies = Array.from({ length: 33 }, (_, position) => `C${String(position).padStart(2, '0')}`);
    for (const currency of currencies) {
      ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount(currency, issuer.address, '1') }, 'tesSUCCESS');
    }
    const filled = ledger.close();
    const root = ledger.chain.stateEntry(ownerDir(alice.address), filled.header.ledgerIndex)!.json;
    const secondPage = ledger.chain.stateEntry(keylet.dirPage(ownerDir(alice.address), 1n), filled.header.ledgerIndex)!.json;

    expect((root.Indexes as string[]).length).toBe(32);
    expect(root).toMatchObject({ IndexNext: '0000000000000001', IndexPrevious: '0000000000000001', Owner: alice.address });
    expect(secondPage).toMatchObject({ RootIndex: ownerDir(alice.address), Owner: alice.address });
    expect((secondPage.Indexes as string[]).length).toBe(1);
    expect(secondPage.IndexPrevious).toBeUndefined();
    expect(ledger.chain.trustLines!(alice.address, filled.header.ledgerIndex)!.map((line) => line.currency).sort()).toEqual(currencies);
    expect(ownerCount(ledger, alice)).toBe(33);

    const lastOnSecondPage = (secondPage.Indexes as string[])[0]!;
    const removed = currencies.find((currency) => hashes.hashTrustline(alice.address, issuer.address, currency) === lastOnSecondPage)!;
    ledger.expectResult(alice, { TransactionType: 'TrustSet', LimitAmount: amount(removed, issuer.address, '0'), Flags: 0x00020000 }, 'tesSUCCESS');
    const shrunk = ledger.close();
    expect(ledger.chain.stateEntry(keylet.dirPage(ownerDir(alice.address), 1n), shrunk.header.ledgerIndex)).toBeUndefined();
    expect(ledger.chain.stateEntry(ownerDir(alice.address), shrunk.header.ledgerIndex)!.json).toMatchObject({
      IndexNext: '0000000000000000',
      IndexPrevious: '0000000000000000',
    });
    for (const each of [filled, shrunk]) {
      const computed = xrplHashesOf(ledger.chain, each);
      expect([computed.ledgerHash, computed.transactionHash, computed.accountHash]).toEqual([each.hash, each.header.transactionHash, each.header.accountHash]);
    }
  });
});
