import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { lineView } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { accountCurrencies } from './account-currencies';
import { accountLines } from './account-lines';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });
const account = 'rMYBVwiY95QyUnCeuBQA1D47kXA9zuoBui';
const recordedLines = entries.filter((entry) => entry.LedgerEntryType === 'RippleState' && (entry.LowLimit.issuer === account || entry.HighLimit.issuer === account));

describe('account_lines', () => {
  it("lists every line of the account seen from its side, in key order", async () => {
    const answer = await accountLines(request({ account }), chain.context);
    expect(answer).toMatchObject({ account, ledger_index: 38129, validated: true });
    expect(answer.marker).toBeUndefined();
    const expected = [...recordedLines].sort((a, b) => (a.index < b.index ? -1 : 1)).map((line) => lineView(line, account, 'no_ripple'));
    expect(answer.lines).toEqual(expected);
    expect(expected).toHaveLength(12);
  });

  it('pages with limit (at least 10) and the marker of the last line returned', async () => {
    const first = await accountLines(request({ account, limit: 1 }), chain.context);
    expect(first.limit).toBe(10);
    expect(first.lines).toHaveLength(10);
    const second = await accountLines(request({ account, limit: 10, marker: first.marker }), chain.context);
    expect(second.lines).toHaveLength(2);
    expect(second.marker).toBeUndefined();
    const all = (await accountLines(request({ account }), chain.context)).lines;
    expect([...(first.lines as unknown[]), ...(second.lines as unknown[])]).toEqual(all);
  });

  it('keeps the lines with one peer', async () => {
    const peer = (recordedLines[0].LowLimit.issuer === account ? recordedLines[0].HighLimit : recordedLines[0].LowLimit).issuer;
    const answer = await accountLines(request({ account, peer }), chain.context);
    for (const line of answer.lines as Array<Record<string, unknown>>) expect(line.account).toBe(peer);
    expect((answer.lines as unknown[]).length).toBeGreaterThan(0);
  });

  it.each([
    [{ account: 'rNot' }, 'actMalformed'],
    [{ account, peer: 'rNot' }, 'actMalformed'],
    [{ account, marker: 'x' }, 'invalidParams'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(accountLines(request(params), chain.context)).rejects.toMatchObject({ token });
  });
});

describe('account_currencies', () => {
  it('names what the account can receive (balance under its limit) and send (peer limit over what it owes), in currency order', async () => {
    const answer = await accountCurrencies(request({ account }), chain.context);
    const views = recordedLines.map((line) => lineView(line, account, 'no_ripple')!);
    const receive = new Set(views.filter((view) => Number(view.balance) < Number(view.limit)).map((view) => view.currency));
    const send = new Set(views.filter((view) => -Number(view.balance) < Number(view.limit_peer)).map((view) => view.currency));
    expect(answer).toEqual({
      ledger_hash: fixture.ledger.ledger_hash,
      ledger_index: 38129,
      validated: true,
      receive_currencies: [...receive].sort(),
      send_currencies: [...send].sort(),
    });
  });
});
