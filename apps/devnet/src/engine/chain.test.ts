import { getProfile, hashLedgerHeader } from '@ledger-node/chain';
import { hashes } from 'xrpl';
import { describe, expect, it } from 'vitest';
import { createDevnetChain } from './chain';
import { TestLedger, xrplHashesOf } from './test-support';
import type { ClosedLedger } from './types';

const ZERO_HASH = '0'.repeat(64);
const GENESIS_DROPS = 100_000_000_000n * 1_000_000n;

function usd(issuer: string, value: string) {
  return { currency: 'USD', issuer, value };
}

describe('devnet ledger model', () => {
  it('starts with ledger 1 as the closed, validated genesis ledger and ledger 2 open', () => {
    const profile = getProfile('xrpl');
    const chain = createDevnetChain(profile);

    expect(chain.validatedLedgerIndex()).toBe(1);
    expect(chain.openLedgerIndex()).toBe(2);
    expect(chain.earliestLedgerIndex()).toBe(1);
    const genesis = chain.ledger(1)!;
    expect(genesis.header).toMatchObject({
      ledgerIndex: 1,
      totalCoins: GENESIS_DROPS,
      parentHash: ZERO_HASH,
      transactionHash: ZERO_HASH,
      parentCloseTime: 0,
      closeTime: 0,
      closeTimeResolution: 10,
      closeFlags: 0,
    });
    expect(genesis.transactions).toEqual([]);
    expect(xrplHashesOf(chain, genesis)).toEqual({ ledgerHash: genesis.hash, transactionHash: ZERO_HASH, accountHash: genesis.header.accountHash });
  });

  it('gives the genesis account every native unit and sequence 1', () => {
    const profile = getProfile('xrpl');
    const chain = createDevnetChain(profile);
    const root = chain.stateEntry(hashes.hashAccountRoot('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'), 1)!;

    expect(root.json).toEqual({
      LedgerEntryType: 'AccountRoot',
      Account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      Balance: '100000000000000000',
      Flags: 0,
      OwnerCount: 0,
      Sequence: 1,
      PreviousTxnID: ZERO_HASH,
      PreviousTxnLgrSeq: 0,
    });
  });

  it('closes ledgers whose header, transaction tree and state tree verify with the xrpl package', () => {
    const ledger = new TestLedger();
    const issuer = ledger.account(1);
    const holder = ledger.account(2, 'ed25519');
    ledger.fund(issuer, 100_000_000n);
    ledger.fund(holder, 100_000_000n);
    const funded = ledger.close();
    ledger.expectResult(holder, { TransactionType: 'TrustSet', LimitAmount: usd(issuer.address, '500') }, 'tesSUCCESS');
    ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: holder.address, Amount: usd(issuer.address, '125.5') }, 'tesSUCCESS');
    ledger.expectResult(holder, { TransactionType: 'Payment', Destination: issuer.address, Amount: '1' }, 'tesSUCCESS');
    const closed = ledger.close();

    for (const each of [funded, closed]) {
      const computed = xrplHashesOf(ledger.chain, each);
      expect(computed.ledgerHash).toBe(each.hash);
      expect(computed.transactionHash).toBe(each.header.transactionHash);
      expect(computed.accountHash).toBe(each.header.accountHash);
      for (const tx of each.transactions) expect(hashes.hashSignedTx(tx.txBlob)).toBe(tx.hash);
    }
    expect(closed.header.parentHash).toBe(funded.hash);
    expect(closed.header.parentCloseTime).toBe(funded.header.closeTime);
    expect(closed.transactions.map((tx) => tx.index)).toEqual([0, 1, 2]);
    expect(closed.transactions.map((tx) => tx.metaJson.TransactionIndex)).toEqual([0, 1, 2]);
  });

  it('takes every fee out of the total coins of the ledger that charged it', () => {
    const ledger = new TestLedger();
    ledger.fund(ledger.account(1), 50_000_000n);
    ledger.fund(ledger.account(2), 50_000_000n);
    const closed = ledger.close();
    const parent = ledger.chain.ledger(closed.header.ledgerIndex - 1)!;

    expect(closed.header.totalCoins).toBe(parent.header.totalCoins - 2n * 10n);
    expect(ledger.close().header.totalCoins).toBe(closed.header.totalCoins);
  });

  it('rounds close times to the 10-second resolution and keeps them after the parent', () => {
    const chain = createDevnetChain(getProfile('xrpl'));
    const first = chain.close(800_000_003);
    const second = chain.close(800_000_000);
    const third = chain.close(800_000_017);

    expect([first.header.closeTime, second.header.closeTime, third.header.closeTime]).toEqual([800_000_000, 800_000_001, 800_000_020]);
    expect([second.header.parentCloseTime, third.header.parentCloseTime]).toEqual([800_000_000, 800_000_001]);
    expect(third.header.closeTimeResolution).toBe(10);
    expect(third.header.closeFlags).toBe(0);
  });

  it('uses the clock it was given when close() has no time', () => {
    const chain = createDevnetChain(getProfile('xrpl'), { now: () => 812_345_670 });

    expect(chain.close().header.closeTime).toBe(812_345_670);
  });

  it('answers a state entry at an older ledger with the value it had then', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    ledger.fund(alice, 30_000_000n);
    const created = ledger.close().header.ledgerIndex;
    ledger.fund(alice, 12_000_000n);
    const topped = ledger.close().header.ledgerIndex;
    const index = hashes.hashAccountRoot(alice.address);

    expect(ledger.chain.stateEntry(index, created - 1)).toBeUndefined();
    expect(ledger.chain.stateEntry(index, created)!.json.Balance).toBe('30000000');
    expect(ledger.chain.stateEntry(index, topped)!.json.Balance).toBe('42000000');
    expect(ledger.chain.stateEntry(index, ledger.chain.openLedgerIndex())!.json.Balance).toBe('42000000');
    expect(ledger.chain.stateEntry(index, topped + 5)).toBeUndefined();
  });

  it('pages state entries in ascending index order after the given index', () => {
    const ledger = new TestLedger();
    for (let number = 1; number <= 5; number++) ledger.fund(ledger.account(number), 20_000_000n);
    const ledgerIndex = ledger.close().header.ledgerIndex;
    const everything = ledger.chain.stateEntries(ledgerIndex, undefined, 1000);

    const paged = [];
    let marker: string | undefined;
    for (;;) {
      const page = ledger.chain.stateEntries(ledgerIndex, marker, 3);
      if (page.length === 0) break;
      paged.push(...page);
      marker = page[page.length - 1]!.index;
    }
    const indexes = everything.map((entry) => entry.index);
    // Genesis, 5 accounts, FeeSettings, LedgerHashes.
    expect(indexes).toHaveLength(8);
    expect([...indexes].sort()).toEqual(indexes);
    expect(paged.map((entry) => entry.index)).toEqual(indexes);
    expect(ledger.chain.stateEntries(ledgerIndex, indexes[indexes.length - 1], 10)).toEqual([]);
  });

  it('keeps the hashes of earlier ledgers in the LedgerHashes skip list', () => {
    const ledger = new TestLedger();
    const closed: ClosedLedger[] = [ledger.chain.ledger(1)!];
    for (let count = 0; count < 3; count++) closed.push(ledger.close());
    const skipList = ledger.chain.stateEntries(4, undefined, 100).find((entry) => entry.json.LedgerEntryType === 'LedgerHashes')!;

    expect(skipList.json).toEqual({
      LedgerEntryType: 'LedgerHashes',
      Flags: 0,
      Hashes: closed.slice(0, 3).map((each) => each.hash),
      LastLedgerSequence: 3,
    });
  });

  it('finds closed ledgers by index and hash, and transactions by hash', () => {
    const ledger = new TestLedger();
    const submitted = ledger.fund(ledger.account(1), 25_000_000n);
    const closed = ledger.close();

    expect(ledger.chain.ledger(closed.header.ledgerIndex)).toBe(closed);
    expect(ledger.chain.ledgerByHash(closed.hash.toLowerCase())).toBe(closed);
    expect(ledger.chain.ledgerByHash('AB'.repeat(32))).toBeUndefined();
    expect(ledger.chain.ledger(closed.header.ledgerIndex + 1)).toBeUndefined();
    const found = ledger.chain.transaction(submitted.txHash!)!;
    expect(found.ledgerIndex).toBe(closed.header.ledgerIndex);
    expect(found.tx.hash).toBe(submitted.txHash);
    expect(hashLedgerHeader(closed.header)).toBe(closed.hash);
  });

  it('tells listeners about each closed ledger in order until they unsubscribe', () => {
    const ledger = new TestLedger();
    const heard: number[] = [];
    const unsubscribe = ledger.chain.onLedgerClosed((closed) => heard.push(closed.header.ledgerIndex));
    ledger.close();
    ledger.close();
    unsubscribe();
    ledger.close();

    expect(heard).toEqual([2, 3]);
  });

  it('counts transactions in the open ledger and held ones as pending, and none after a close', () => {
    const ledger = new TestLedger();
    const alice = ledger.account(1);
    ledger.fund(alice, 25_000_000n);
    const held = ledger.submit(ledger.genesis, {
      TransactionType: 'Payment',
      Destination: alice.address,
      Amount: '1000000',
      Sequence: ledger.sequence(ledger.genesis.address) + 1,
    });

    expect(held.engineResult).toBe('terPRE_SEQ');
    expect(ledger.chain.pendingCount()).toBe(2);
    ledger.close();
    expect(ledger.chain.pendingCount()).toBe(1);
  });
});
