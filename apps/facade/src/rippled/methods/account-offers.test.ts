import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { directoryQuality, issuedValueText } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { accountOffers } from './account-offers';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const offers = entries.filter((entry) => entry.LedgerEntryType === 'Offer');
/** The account with the most offers in mainnet ledger 38129. */
const counts = new Map<string, number>();
for (const offer of offers) counts.set(offer.Account, (counts.get(offer.Account) ?? 0) + 1);
const owner = [...counts].sort(([, a], [, b]) => b - a)[0]![0];
const ownOffers = offers.filter((offer) => offer.Account === owner);
const amount = (value: string | Record<string, string>) => (typeof value === 'string' ? value : { ...value, value: issuedValueText(value.value) });

describe('account_offers', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it("lists every offer the account owns as rippled's AccountOffers prints it", async () => {
    const answer = await accountOffers(request({ account: owner }), chain.context);
    expect(answer).toMatchObject({ account: owner, ledger_index: 38129, ledger_hash: fixture.ledger.ledger_hash, validated: true });
    expect(answer).not.toHaveProperty('marker');
    const expected = ownOffers.map((offer) => ({
      flags: offer.Flags,
      seq: offer.Sequence,
      taker_gets: amount(offer.TakerGets),
      taker_pays: amount(offer.TakerPays),
      quality: directoryQuality(offer.BookDirectory),
      ...(offer.Expiration === undefined ? {} : { expiration: offer.Expiration }),
    }));
    const bySeq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;
    expect([...(answer.offers as Array<{ seq: number }>)].sort(bySeq)).toEqual(expected.sort(bySeq));
    expect(expected.length).toBeGreaterThan(0);
  });

  it("pages with account_objects' marker, each offer once", async () => {
    const seen: unknown[] = [];
    let marker: unknown;
    let pages = 0;
    do {
      const page = await accountOffers(request({ account: owner, limit: 10, ...(marker === undefined ? {} : { marker }) }), chain.context);
      expect(page.limit).toBe(10);
      seen.push(...(page.offers as unknown[]));
      marker = page.marker;
      pages++;
    } while (marker !== undefined && pages < 100);
    expect(seen).toHaveLength(ownOffers.length);
    expect(new Set(seen.map((offer) => (offer as { seq: number }).seq)).size).toBe(ownOffers.length);
  });

  it('refuses a malformed account, an account not there, and a marker that names no entry', async () => {
    await expect(accountOffers(request({ account: 'not an address' }), chain.context)).rejects.toMatchObject({ token: 'actMalformed' });
    await expect(accountOffers(request({ account: 'rrrrrrrrrrrrrrrrrrrrBZbvji' }), chain.context)).rejects.toMatchObject({ token: 'actNotFound' });
    await expect(accountOffers(request({ account: owner, marker: 'AB'.repeat(32) }), chain.context)).rejects.toMatchObject({ token: 'invalidParams' });
  });
});
