import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { accountObjects } from './account-objects';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const byIndex = new Map(entries.map((entry) => [entry.index, entry]));

describe('account_objects', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });
  const owner = 'rMYBVwiY95QyUnCeuBQA1D47kXA9zuoBui';

  it('lists what the owner directory lists, across its pages, each object as recorded', async () => {
    const answer = await accountObjects(request({ account: owner }), chain.context);
    expect(answer).toMatchObject({ account: owner, ledger_index: 38129, validated: true });
    const objects = answer.account_objects as Array<Record<string, any>>;
    const lines = entries.filter((entry) => entry.LedgerEntryType === 'RippleState' && (entry.LowLimit.issuer === owner || entry.HighLimit.issuer === owner));
    expect(objects.map((object) => object.index).sort()).toEqual(lines.map((line) => line.index).sort());
    for (const object of objects) expect(object).toEqual(byIndex.get(object.index));
  });

  it('pages with limit and rippled\'s "<page key>,<entry key>" marker, the pages together giving the whole list', async () => {
    const all = (await accountObjects(request({ account: owner }), chain.context)).account_objects as unknown[];
    const first = await accountObjects(request({ account: owner, limit: 10 }), chain.context);
    expect(first.marker).toMatch(/^[0-9A-F]{64},[0-9A-F]{64}$/);
    const second = await accountObjects(request({ account: owner, limit: 10, marker: first.marker }), chain.context);
    expect(second.marker).toBeUndefined();
    expect([...(first.account_objects as unknown[]), ...(second.account_objects as unknown[])]).toEqual(all);
  });

  it('keeps one type', async () => {
    const offerOwner = 'rwpRq4gQrb58N7PRJwYEQaoSui6Xd3FC7j';
    const offers = await accountObjects(request({ account: offerOwner, type: 'offer' }), chain.context);
    const recorded = entries.filter((entry) => entry.LedgerEntryType === 'Offer' && entry.Account === offerOwner);
    expect((offers.account_objects as Array<{ index: string }>).map((object) => object.index).sort()).toEqual(recorded.map((offer) => offer.index).sort());
    const lines = await accountObjects(request({ account: offerOwner, type: 'state' }), chain.context);
    for (const object of lines.account_objects as Array<Record<string, unknown>>) expect(object.LedgerEntryType).toBe('RippleState');
  });

  it.each([
    [{ account: 'rNot' }, 'actMalformed'],
    [{ account: owner, type: 'amendments' }, 'invalidParams'],
    [{ account: owner, type: 'nope' }, 'invalidParams'],
    [{ account: owner, marker: 'nope' }, 'invalidParams'],
    [{ account: owner, marker: `${'AB'.repeat(32)},${'CD'.repeat(32)}` }, 'invalidParams'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(accountObjects(request(params), chain.context)).rejects.toMatchObject({ token });
  });
});
