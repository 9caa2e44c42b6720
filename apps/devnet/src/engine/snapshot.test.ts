import { describe, expect, it } from 'vitest';
import { decodeLedgerHeader, encodeLedgerHeader, getProfile } from '@ledger-node/chain';
import { createDevnetChain } from './chain';
import { restoreSnapshot, type ChainSnapshot } from './snapshot';
import { TestLedger } from './test-support';

const xrpl = getProfile('xrpl');

/** A chain of a few ledgers with payments, saved as JSON travels (the file). */
function savedChain(): { ledger: TestLedger; snapshot: ChainSnapshot } {
  const ledger = new TestLedger();
  const alice = ledger.account(1);
  ledger.fund(alice, 100_000_000n);
  ledger.close();
  ledger.fund(ledger.account(2, 'ed25519'), 50_000_000n);
  ledger.submit(alice, { TransactionType: 'Payment', Destination: xrpl.genesis.address, Amount: '1000000' });
  ledger.close();
  ledger.close();
  return { ledger, snapshot: JSON.parse(JSON.stringify(ledger.chain.snapshot())) as ChainSnapshot };
}

describe('a devnet chain saved and continued (-devnet_chain)', () => {
  it('continues where it stopped: the same ledgers and transactions, the last state, the next ledger built on the last', () => {
    const { ledger, snapshot } = savedChain();
    const original = ledger.chain;
    const restored = createDevnetChain(xrpl, { now: () => 800_000_100, restore: restoreSnapshot(snapshot, xrpl) });
    const last = original.validatedLedgerIndex();
    expect(restored.validatedLedgerIndex()).toBe(last);
    for (let ledgerIndex = 1; ledgerIndex <= last; ledgerIndex++) expect(restored.ledger(ledgerIndex)).toEqual(original.ledger(ledgerIndex));
    const alice = ledger.account(1).address;
    expect(restored.accountRoot!(alice, last)).toEqual(original.accountRoot!(alice, last));
    // The state of earlier ledgers was not kept: answered as not held.
    expect(restored.accountRoot!(alice, 2)).toBeUndefined();
    // The next ledger is the one the original chain closes at the same time.
    const closeTime = original.ledger(last)!.header.closeTime + 20;
    const next = restored.close(closeTime);
    expect(next.header).toMatchObject({ ledgerIndex: last + 1, parentHash: original.ledger(last)!.hash });
    expect(next).toEqual(original.close(closeTime));
  });

  it('refuses a file that does not continue: another chain, a header changed, transactions that are not the header\'s, a state that is not the last ledger\'s', () => {
    const { snapshot } = savedChain();
    expect(() => restoreSnapshot({ ...snapshot, chain: 'jingtum' }, xrpl)).toThrow('holds a chain of jingtum, not xrpl');
    expect(() => restoreSnapshot({ ...snapshot, format: 2 }, xrpl)).toThrow('is not a devnet chain of format 1');

    const changedHeader = structuredClone(snapshot);
    const header = decodeLedgerHeader(Buffer.from(changedHeader.ledgers[1]!.header, 'hex'));
    changedHeader.ledgers[1]!.header = encodeLedgerHeader({ ...header, closeTime: header.closeTime + 10 }).toString('hex').toUpperCase();
    expect(() => restoreSnapshot(changedHeader, xrpl)).toThrow(/^ledger 3 of the file is ledger 3 naming parent [0-9A-F]{64}, not ledger 3 after [0-9A-F]{64}$/);

    const withoutTransaction = structuredClone(snapshot);
    withoutTransaction.ledgers[2]!.transactions.pop();
    expect(() => restoreSnapshot(withoutTransaction, xrpl)).toThrow(/^ledger 3 of the file: its transactions hash to [0-9A-F]{64}, not its header's [0-9A-F]{64}$/);

    const otherState = structuredClone(snapshot);
    otherState.state.pop();
    expect(() => restoreSnapshot(otherState, xrpl)).toThrow(/^its state hashes to [0-9A-F]{64}, not ledger 4's account_hash [0-9A-F]{64}$/);
  });
});
