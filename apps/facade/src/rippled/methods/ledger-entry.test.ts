import { describe, expect, it } from 'vitest';
import { getProfile, keylet, stateEntryFromLedgerJson } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { ledgerEntry } from './ledger-entry';
import { asRippledPrints, request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const root = entries.find((entry) => entry.LedgerEntryType === 'AccountRoot')!;
const line = entries.find((entry) => entry.LedgerEntryType === 'RippleState')!;
const offer = entries.find((entry) => entry.LedgerEntryType === 'Offer')!;

describe('ledger_entry', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it('reads an object by index, as recorded, at the validated ledger', async () => {
    expect(await ledgerEntry(request({ index: root.index.toLowerCase() }), chain.context)).toEqual({
      index: root.index,
      ledger_hash: fixture.ledger.ledger_hash,
      ledger_index: 38129,
      validated: true,
      node: root,
    });
  });

  it('derives the key of account_root, ripple_state, offer and directory selectors', async () => {
    expect((await ledgerEntry(request({ account_root: root.Account }), chain.context)).node).toEqual(asRippledPrints(root));
    const rippleState = { accounts: [line.HighLimit.issuer, line.LowLimit.issuer], currency: line.Balance.currency };
    expect((await ledgerEntry(request({ ripple_state: rippleState }), chain.context)).node).toEqual(asRippledPrints(line));
    expect((await ledgerEntry(request({ offer: { account: offer.Account, seq: offer.Sequence } }), chain.context)).node).toEqual(asRippledPrints(offer));
    const directory = await ledgerEntry(request({ directory: { owner: offer.Account } }), chain.context);
    expect(directory.index).toBe(keylet.ownerDir(xrpl.codec.decodeAccountId(offer.Account)));
  });

  it('gives the object in binary form', async () => {
    const answer = await ledgerEntry(request({ index: line.index, binary: true }, 2), chain.context);
    expect(answer.node_binary).toBe(stateEntryFromLedgerJson(line, xrpl).blob);
    expect(answer.node).toBeUndefined();
  });

  it('answers entryNotFound for no object and unexpectedLedgerType for an object of another type', async () => {
    await expect(ledgerEntry(request({ index: 'AB'.repeat(32) }), chain.context)).rejects.toMatchObject({ token: 'entryNotFound', code: 98 });
    await expect(ledgerEntry(request({ offer: root.index }), chain.context)).rejects.toMatchObject({ token: 'unexpectedLedgerType', code: 99 });
  });
});

describe('ledger_entry refusals', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it('answers lgrNotFound, notSupported and malformed selectors as rippled does', async () => {
    await expect(ledgerEntry(request({ index: root.index, ledger_index: 7 }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
    const noState = new TestChain({ profile: xrpl, ledgers: [fixture], stateHeld: () => false });
    await expect(ledgerEntry(request({ index: root.index }), noState.context)).rejects.toMatchObject({ token: 'notSupported' });
    await expect(ledgerEntry(request({ account_root: 'rNot' }), chain.context)).rejects.toMatchObject({ token: 'invalidParams', message: 'malformedAddress' });
    await expect(ledgerEntry(request({}), chain.context)).rejects.toMatchObject({ message: 'unknownOption' });
  });
});
