import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { accountTx } from './account-tx';
import { HISTORY_LEDGERS, request, TestChain, type FixtureLedger } from './test-context';

const fixtures = HISTORY_LEDGERS.map((file) => readFixture<FixtureLedger>(file));
const chain = new TestChain({ profile: getProfile('xrpl'), ledgers: fixtures });
const account = 'rJAeQMhtr89PvFPnAZXkdgJgScZ1YuB9UR';

async function everyPage(params: Record<string, unknown>, apiVersion: 1 | 2 = 1) {
  const pages: Array<Record<string, any>> = [];
  let marker: unknown;
  do {
    const page = await accountTx(request({ account, ...params, ...(marker === undefined ? {} : { marker }) }, apiVersion), chain.context);
    pages.push(page);
    marker = page.marker;
  } while (marker !== undefined && pages.length < 100);
  return pages;
}

const hashOf = (entry: Record<string, any>) => entry.tx?.hash ?? entry.hash;

describe('account_tx', () => {
  it('pages newest first with a {ledger, seq} marker, and oldest first with forward, the same transactions', async () => {
    const backward = await everyPage({ limit: 10 });
    const forward = await everyPage({ limit: 10, forward: true });
    const newestFirst = backward.flatMap((page) => page.transactions);
    const oldestFirst = forward.flatMap((page) => page.transactions);
    expect(newestFirst.length).toBeGreaterThan(30);
    expect(newestFirst.map(hashOf)).toEqual(oldestFirst.map(hashOf).reverse());
    expect(backward[0]).toMatchObject({ account, ledger_index_min: 11119599, ledger_index_max: 11119604, limit: 10, validated: true });
    expect(backward[0].marker).toEqual({ ledger: expect.any(Number), seq: expect.any(Number) });
    const positions = newestFirst.map((entry) => [entry.tx.ledger_index, entry.meta.TransactionIndex]);
    const sorted = [...positions].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    expect(positions).toEqual(sorted);
  });

  it('renders v1 {meta, tx} entries and v2 {tx_json, hash, ledger_hash} entries, or blobs', async () => {
    const [v1] = (await accountTx(request({ account, limit: 1 }), chain.context)).transactions as Array<Record<string, any>>;
    expect(v1).toMatchObject({ validated: true, tx: { Account: expect.any(String), inLedger: expect.any(Number), date: expect.any(Number) }, meta: expect.any(Object) });
    const [v2] = (await accountTx(request({ account, limit: 1 }, 2), chain.context)).transactions as Array<Record<string, any>>;
    expect(v2).toMatchObject({ validated: true, hash: hashOf(v1), ledger_hash: expect.stringMatching(/^[0-9A-F]{64}$/), tx_json: expect.any(Object), close_time_iso: expect.any(String) });
    const [binary] = (await accountTx(request({ account, limit: 1, binary: true }), chain.context)).transactions as Array<Record<string, any>>;
    expect(binary).toEqual({ tx_blob: expect.stringMatching(/^[0-9A-F]+$/), meta: expect.stringMatching(/^[0-9A-F]+$/), ledger_index: v1.tx.ledger_index, validated: true });
  });

  it('keeps one ledger, a range, or one transaction type (any case, as Clio)', async () => {
    const one = await accountTx(request({ account, ledger_index: 11119600 }), chain.context);
    expect(one).toMatchObject({ ledger_index_min: 11119600, ledger_index_max: 11119600 });
    for (const entry of one.transactions as Array<Record<string, any>>) expect(entry.tx.ledger_index).toBe(11119600);
    const range = await accountTx(request({ account, ledger_index_min: 11119601, ledger_index_max: 11119602 }), chain.context);
    for (const entry of range.transactions as Array<Record<string, any>>) expect([11119601, 11119602]).toContain(entry.tx.ledger_index);
    const cancels = await accountTx(request({ account, tx_type: 'offercancel' }), chain.context);
    expect((cancels.transactions as Array<Record<string, any>>).length).toBe(5);
    for (const entry of cancels.transactions as Array<Record<string, any>>) expect(entry.tx.TransactionType).toBe('OfferCancel');
  });

  it('clamps bounds outside the stored range in API v1 and refuses them in v2', async () => {
    expect(await accountTx(request({ account, ledger_index_min: 1, ledger_index_max: 99999999, limit: 1 }), chain.context)).toMatchObject({
      ledger_index_min: 11119599,
      ledger_index_max: 11119604,
    });
    await expect(accountTx(request({ account, ledger_index_min: 1 }, 2), chain.context)).rejects.toMatchObject({ token: 'lgrIdxMalformed' });
    await expect(accountTx(request({ account, ledger_index_min: 11119603, ledger_index_max: 11119600 }), chain.context)).rejects.toMatchObject({ token: 'lgrIdxsInvalid' });
    await expect(accountTx(request({ account, ledger_index: 11119600, ledger_index_min: 11119599 }, 2), chain.context)).rejects.toMatchObject({ token: 'invalidParams' });
  });

  it.each([
    [{}, 'invalidParams'],
    [{ account: 'rNot' }, 'actMalformed'],
    [{ account, marker: 'x' }, 'invalidParams'],
    [{ account, tx_type: 'NotAType' }, 'invalidParams'],
    [{ account, ledger_index: 5 }, 'lgrNotFound'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(accountTx(request(params), chain.context)).rejects.toMatchObject({ token });
  });
});
