import { describe, expect, it } from 'vitest';
import { getProfile, stateEntryFromLedgerJson } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { ledgerData } from './ledger-data';
import { asRippledPrints, request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const byIndex = new Map(entries.map((entry) => [entry.index, entry]));
const sortedIndexes = [...byIndex.keys()].sort();

describe('ledger_data', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it('pages through the whole state in key order, each object as recorded, the header on the first page only', async () => {
    const seen: Array<Record<string, unknown>> = [];
    let marker: unknown;
    let pages = 0;
    do {
      const page = await ledgerData(request({ limit: 100, ...(marker === undefined ? {} : { marker }) }), chain.context);
      expect(page).toMatchObject({ ledger_index: 38129, ledger_hash: fixture.ledger.ledger_hash, validated: true });
      expect(page.ledger !== undefined).toBe(pages === 0);
      seen.push(...(page.state as Array<Record<string, unknown>>));
      marker = page.marker;
      pages++;
    } while (marker !== undefined);
    expect(pages).toBe(3);
    expect(seen.map((object) => object.index)).toEqual(sortedIndexes);
    for (const object of seen) expect(object).toEqual(asRippledPrints(byIndex.get(object.index as string)!));
  });

  it('gives binary objects, up to 2048 a page', async () => {
    const page = await ledgerData(request({ binary: true, limit: 5000 }), chain.context);
    const state = page.state as Array<{ data: string; index: string }>;
    expect(state).toHaveLength(entries.length);
    expect(page.marker).toBeUndefined();
    for (const object of state) expect(object.data).toBe(stateEntryFromLedgerJson(byIndex.get(object.index)!, xrpl).blob);
    expect((page.ledger as { ledger_data: string }).ledger_data).toMatch(/^[0-9A-F]{236}$/);
  });

  it('keeps one type, and gives a marker only while objects of that type remain', async () => {
    const offers = entries.filter((entry) => entry.LedgerEntryType === 'Offer').map((entry) => entry.index).sort();
    const first = await ledgerData(request({ type: 'offer', limit: 3 }), chain.context);
    const firstIndexes = (first.state as Array<{ index: string }>).map((object) => object.index);
    expect(firstIndexes).toEqual(offers.slice(0, 3));
    const second = await ledgerData(request({ type: 'offer', limit: 3, marker: first.marker }), chain.context);
    expect((second.state as Array<{ index: string }>).map((object) => object.index)).toEqual(offers.slice(3));
    expect(second.marker).toBeUndefined();
    expect(second.ledger).toBeUndefined();
  });
});

describe('ledger_data refusals', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it.each([
    [{ marker: 'nope' }, 'invalidParams'],
    [{ type: 'nope' }, 'invalidParams'],
    [{ limit: 'ten' }, 'invalidParams'],
    [{ ledger_index: 1 }, 'lgrNotFound'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(ledgerData(request(params), chain.context)).rejects.toMatchObject({ token });
  });

  it('answers notSupported for a stored ledger whose state is not held', async () => {
    const noState = new TestChain({ profile: xrpl, ledgers: [fixture], stateHeld: () => false });
    await expect(ledgerData(request({}), noState.context)).rejects.toMatchObject({ token: 'notSupported', code: 75 });
  });
});
