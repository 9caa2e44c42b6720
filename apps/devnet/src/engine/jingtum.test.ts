import { getProfile, hashTransaction, stateTreeRoot, transactionTreeRoot } from '@ledger-node/chain';
import { hashes } from 'xrpl';
import { describe, expect, it } from 'vitest';
import { TestLedger } from './test-support';

describe('devnet on the Jingtum profile', () => {
  it('starts from the Jingtum genesis account with j addresses', () => {
    const ledger = new TestLedger(getProfile('jingtum'));
    const genesis = ledger.chain.accountRoot!('jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', 1)!;

    expect(ledger.genesis.address).toBe('jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh');
    expect(genesis.json).toMatchObject({ Account: 'jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', Balance: '100000000000000000', Sequence: 1 });
  });

  it('applies a native payment between j addresses and closes ledgers whose hashes recompute', () => {
    const ledger = new TestLedger(getProfile('jingtum'));
    const alice = ledger.account(1);
    const submitted = ledger.fund(alice, 25_000_000n);
    const closed = ledger.close();
    const tx = closed.transactions[0]!;

    expect(alice.address.startsWith('j')).toBe(true);
    expect(tx.txJson).toMatchObject({ Account: ledger.genesis.address, Destination: alice.address, Amount: '25000000' });
    expect(tx.metaJson.delivered_amount).toBe('25000000');
    expect(ledger.balance(alice.address, closed.header.ledgerIndex)).toBe(25_000_000n);
    expect(hashTransaction(tx.txBlob)).toBe(submitted.txHash);
    // Same header layout and tree hashing as the XRP Ledger; the entries use Jingtum's codes.
    expect(
      hashes.hashLedgerHeader({
        ledger_index: closed.header.ledgerIndex,
        total_coins: closed.header.totalCoins.toString(),
        parent_hash: closed.header.parentHash,
        transaction_hash: closed.header.transactionHash,
        account_hash: closed.header.accountHash,
        parent_close_time: closed.header.parentCloseTime,
        close_time: closed.header.closeTime,
        close_time_resolution: closed.header.closeTimeResolution,
        close_flags: closed.header.closeFlags,
      } as unknown as Parameters<typeof hashes.hashLedgerHeader>[0]),
    ).toBe(closed.hash);
    expect(transactionTreeRoot(closed.transactions)).toBe(closed.header.transactionHash);
    expect(stateTreeRoot(ledger.chain.stateEntries(closed.header.ledgerIndex, undefined, 100))).toBe(closed.header.accountHash);
  });

  it('names the reserve failure with the Jingtum table: tecNO_DST_INSUF_SWT', () => {
    const ledger = new TestLedger(getProfile('jingtum'));
    // Jingtum's account reserve is 20 SWT.
    const result = ledger.submit(ledger.genesis, { TransactionType: 'Payment', Destination: ledger.account(2).address, Amount: '19999999' });

    expect(result).toMatchObject({ engineResult: 'tecNO_DST_INSUF_SWT', engineResultCode: 125, applied: true });
    expect(result.engineResultMessage).toBe('Destination does not exist. Too little SWT sent to create it.');
    expect(ledger.close().transactions[0]!.metaJson.TransactionResult).toBe('tecNO_DST_INSUF_SWT');
  });

  it('keeps trust lines as SkywellState entries', () => {
    const ledger = new TestLedger(getProfile('jingtum'));
    const issuer = ledger.account(3);
    const holder = ledger.account(4);
    ledger.fund(issuer, 100_000_000n);
    ledger.fund(holder, 100_000_000n);
    ledger.expectResult(holder, { TransactionType: 'TrustSet', LimitAmount: { currency: 'CNY', issuer: issuer.address, value: '100' } }, 'tesSUCCESS');
    ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: holder.address, Amount: { currency: 'CNY', issuer: issuer.address, value: '7' } }, 'tesSUCCESS');
    const closed = ledger.close();
    const types = ledger.chain.stateEntries(closed.header.ledgerIndex, undefined, 100).map((entry) => entry.json.LedgerEntryType);

    expect(types).toContain('SkywellState');
    expect(types).not.toContain('RippleState');
    expect(ledger.chain.trustLines!(holder.address, closed.header.ledgerIndex)![0]).toMatchObject({ account: issuer.address, balance: '7', currency: 'CNY' });
  });

  it('places and crosses offers, with Jingtum codes, in ledgers whose trees recompute', () => {
    const ledger = new TestLedger(getProfile('jingtum'));
    const issuer = ledger.account(5);
    const maker = ledger.account(6);
    const taker = ledger.account(7);
    for (const account of [issuer, maker, taker]) ledger.fund(account, 1_000_000_000n);
    ledger.close();
    const cny = (value: string) => ({ currency: 'CNY', issuer: issuer.address, value });
    ledger.expectResult(maker, { TransactionType: 'TrustSet', LimitAmount: cny('100') }, 'tesSUCCESS');
    ledger.expectResult(issuer, { TransactionType: 'Payment', Destination: maker.address, Amount: cny('50') }, 'tesSUCCESS');
    ledger.close();
    ledger.expectResult(maker, { TransactionType: 'OfferCreate', TakerGets: cny('10'), TakerPays: '100000000' }, 'tesSUCCESS');
    // The taker holds no CNY line: crossing creates it.
    ledger.expectResult(taker, { TransactionType: 'OfferCreate', TakerGets: '40000000', TakerPays: cny('4') }, 'tesSUCCESS');
    const closed = ledger.close();
    const entries = ledger.chain.stateEntries(closed.header.ledgerIndex, undefined, 1000);
    expect(entries.filter((entry) => entry.json.LedgerEntryType === 'Offer').map((entry) => entry.json.TakerGets)).toEqual([cny('6')]);
    expect(ledger.chain.trustLines!(taker.address, closed.header.ledgerIndex)![0]).toMatchObject({ account: issuer.address, balance: '4', currency: 'CNY' });
    expect(transactionTreeRoot(closed.transactions)).toBe(closed.header.transactionHash);
    expect(stateTreeRoot(entries)).toBe(closed.header.accountHash);
  });
});
