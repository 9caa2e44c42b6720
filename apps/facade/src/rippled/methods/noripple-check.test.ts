import { describe, expect, it } from 'vitest';
import { currencyToBytes, getProfile, keylet } from '@ledger-node/chain';
import { errorFields } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { noRippleCheck } from './noripple-check';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
/** An account of mainnet ledger 38129 with 12 trust lines over six owner-directory pages, none with NoRipple set (2013). */
const account = 'rMYBVwiY95QyUnCeuBQA1D47kXA9zuoBui';
const root = entries.find((entry) => entry.LedgerEntryType === 'AccountRoot' && entry.Account === account)!;
const lines = entries.filter((entry) => entry.LedgerEntryType === 'RippleState' && (entry.LowLimit.issuer === account || entry.HighLimit.issuer === account));
const sideOf = (line: Record<string, any>) => (line.LowLimit.issuer === account ? { own: line.LowLimit, peer: line.HighLimit, noRipple: 0x00100000 } : { own: line.HighLimit, peer: line.LowLimit, noRipple: 0x00200000 });
const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

describe('noripple_check', () => {
  it('asks a user to set NoRipple on each line, with the TrustSet that does, numbered from its Sequence', async () => {
    const answer = await noRippleCheck(request({ account, role: 'user', transactions: true }), chain.context);
    expect(answer).toMatchObject({ ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true });
    const problems = answer.problems as string[];
    const transactions = answer.transactions as Array<Record<string, any>>;
    expect(problems).toHaveLength(12);
    const expected = lines.map((line) => `You should probably set the no ripple flag on your ${sideOf(line).peer.currency} line to ${sideOf(line).peer.issuer}`);
    expect([...problems].sort()).toEqual(expected.sort());
    expect(transactions.map((tx) => tx.Sequence)).toEqual(Array.from({ length: 12 }, (_, offset) => root.Sequence + offset));
    const first = lines.find((line) => problems[0]!.endsWith(`${sideOf(line).peer.currency} line to ${sideOf(line).peer.issuer}`))!;
    expect(transactions[0]).toEqual({
      TransactionType: 'TrustSet',
      LimitAmount: { currency: sideOf(first).own.currency, issuer: sideOf(first).peer.issuer, value: sideOf(first).own.value },
      Flags: 0x00020000,
      Sequence: root.Sequence,
      Account: account,
      // Ledger 38129 holds no FeeSettings: the chain's reference fee.
      Fee: 10,
    });
  });

  it('asks a gateway to set DefaultRipple first and to clear NoRipple where it is set', async () => {
    const [line] = lines;
    const flagged = { ...line, Flags: line!.Flags | sideOf(line!).noRipple };
    const gatewayChain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: entries.map((entry) => (entry === line ? flagged : entry)) } }] });
    const answer = await noRippleCheck(request({ account, role: 'gateway', transactions: true }), gatewayChain.context);
    expect(answer.problems).toEqual(['You should immediately set your default ripple flag', `You should clear the no ripple flag on your ${sideOf(line!).peer.currency} line to ${sideOf(line!).peer.issuer}`]);
    expect(answer.transactions).toEqual([
      { TransactionType: 'AccountSet', SetFlag: 8, Sequence: root.Sequence, Account: account, Fee: 10 },
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: sideOf(line!).own.currency, issuer: sideOf(line!).peer.issuer, value: sideOf(line!).own.value },
        Flags: 0x00040000,
        Sequence: root.Sequence + 1,
        Account: account,
        Fee: 10,
      },
    ]);
  });

  it('stops after `limit` lines reported (at least 10) and leaves out transactions unless asked', async () => {
    const answer = await noRippleCheck(request({ account, role: 'user', limit: 1 }), chain.context);
    expect(answer.problems).toHaveLength(10);
    expect(answer).not.toHaveProperty('transactions');
  });

  it.each([
    [{ role: 'user' }, 'invalidParams', "Missing field 'account'."],
    [{ account }, 'invalidParams', "Missing field 'role'."],
    [{ account: 7, role: 'user' }, 'invalidParams', "Invalid field 'account'."],
    [{ account, role: 'issuer' }, 'invalidParams', "Invalid field 'role'."],
    [{ account, role: 'user', limit: -1 }, 'invalidParams', "Invalid field 'limit', not unsigned integer."],
    [{ account, role: 'user', ledger_index: 99 }, 'lgrNotFound', 'ledgerNotFound'],
    [{ account: 'rNot', role: 'user' }, 'actMalformed', 'Account malformed.'],
    [{ account: 'rrrrrrrrrrrrrrrrrrrrBZbvji', role: 'user' }, 'actNotFound', 'Account not found.'],
  ])('refuses %j with %s', async (params, token, message) => {
    await expect(noRippleCheck(request(params), chain.context)).rejects.toMatchObject({ token, message });
  });

  it('names the ledger beside actMalformed, as rippled injects it into the ledger lookup result', async () => {
    const error = await noRippleCheck(request({ account: 'rNot', role: 'user' }), chain.context).catch((thrown: unknown) => thrown);
    expect(errorFields(error)).toEqual({ error: 'actMalformed', error_code: 35, error_message: 'Account malformed.', ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true });
  });

  it('takes only a boolean `transactions` in API v2, any value in v1', async () => {
    await expect(noRippleCheck(request({ account, role: 'user', transactions: 'yes' }, 2), chain.context)).rejects.toMatchObject({ message: "Invalid field 'transactions'." });
    expect((await noRippleCheck(request({ account, role: 'user', transactions: 'yes' }, 1), chain.context)).transactions).toHaveLength(12);
  });
});

describe('noripple_check on a Jingtum chain', () => {
  it('reads SkywellState lines from the owner directory', async () => {
    const jingtum = getProfile('jingtum');
    const header = readFixture<FixtureLedger>('jingtum/ledgers/2838718-header.json');
    const owner = jingtum.genesis.address;
    const peer = jingtum.codec.encodeAccountId(new Uint8Array(20).fill(9));
    const [ownerId, peerId] = [owner, peer].map((address) => jingtum.codec.decodeAccountId(address));
    const ownerIsLow = Buffer.compare(Buffer.from(ownerId!), Buffer.from(peerId!)) < 0;
    const lineKey = keylet.rippleState(ownerId!, peerId!, currencyToBytes('CNY', 'SWT'));
    const limit = (issuer: string, value: string) => ({ currency: 'CNY', issuer, value });
    const state = [
      { LedgerEntryType: 'AccountRoot', Account: owner, Balance: '599999999999999990', Flags: 0, OwnerCount: 1, PreviousTxnID: '00'.repeat(32), PreviousTxnLgrSeq: 2838700, Sequence: 2, index: keylet.account(ownerId!) },
      { LedgerEntryType: 'DirectoryNode', Flags: 0, Owner: owner, RootIndex: keylet.ownerDir(ownerId!), Indexes: [lineKey], index: keylet.ownerDir(ownerId!) },
      {
        LedgerEntryType: 'SkywellState',
        Balance: limit('jjjjjjjjjjjjjjjjjjjjBZbvri', '0'),
        Flags: ownerIsLow ? 0x00010000 : 0x00020000,
        LowLimit: ownerIsLow ? limit(owner, '100') : limit(peer, '0'),
        HighLimit: ownerIsLow ? limit(peer, '0') : limit(owner, '100'),
        LowNode: '0',
        HighNode: '0',
        PreviousTxnID: '00'.repeat(32),
        PreviousTxnLgrSeq: 2838700,
        index: lineKey,
      },
    ];
    const jingtumChain = new TestChain({ profile: jingtum, ledgers: [{ ledger: { ...header.ledger, accountState: state } }] });
    const answer = await noRippleCheck(request({ account: owner, role: 'user', transactions: true }), jingtumChain.context);
    expect(answer.problems).toEqual([`You should probably set the no ripple flag on your CNY line to ${peer}`]);
    expect(answer.transactions).toEqual([{ TransactionType: 'TrustSet', LimitAmount: limit(peer, '100'), Flags: 0x00020000, Sequence: 2, Account: owner, Fee: 10 }]);
  });
});
