import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { directoryQuality } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { bookOffers } from './book-offers';
import { asRippledPrints, request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const offers = entries.filter((entry) => entry.LedgerEntryType === 'Offer');
const USD = { currency: 'USD', issuer: 'rhxbkK9jGqPVLZSWPvCEmmf15xHBfJfCEy' };

describe('book_offers', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it('lists a book best quality first, each offer as recorded with its quality', async () => {
    // Ledger 38129 holds two offers selling XRP for USD, at two qualities.
    const answer = await bookOffers(request({ taker_gets: { currency: 'XRP' }, taker_pays: USD }), chain.context);
    expect(answer).toMatchObject({ ledger_index: 38129, ledger_hash: fixture.ledger.ledger_hash, validated: true });
    const book = offers.filter((offer) => typeof offer.TakerGets === 'string' && offer.TakerPays.currency === 'USD').sort((a, b) => (a.BookDirectory < b.BookDirectory ? -1 : 1));
    expect(book).toHaveLength(2);
    expect(answer.offers).toEqual(book.map((offer) => ({ ...asRippledPrints(offer), quality: directoryQuality(offer.BookDirectory) })));
  });

  it('stops at the limit and answers an empty list for a book with no offers', async () => {
    const limited = await bookOffers(request({ taker_gets: { currency: 'XRP' }, taker_pays: USD, limit: 1 }), chain.context);
    expect(limited.offers).toHaveLength(1);
    const empty = await bookOffers(request({ taker_gets: USD, taker_pays: { currency: 'XRP' } }), chain.context);
    expect(empty.offers).toEqual([]);
  });

  it('finds the offer of a book between two issued currencies (BTC for USD)', async () => {
    const btc = offers.find((offer) => offer.TakerPays.currency === 'BTC')!;
    const answer = await bookOffers(request({ taker_gets: { currency: 'USD', issuer: btc.TakerGets.issuer }, taker_pays: { currency: 'BTC', issuer: btc.TakerPays.issuer } }), chain.context);
    expect((answer.offers as Array<{ index: string }>).map((offer) => offer.index)).toContain(btc.index);
  });
});

describe('book_offers refusals', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

  it.each([
    [{ taker_gets: { currency: 'XRP' } }, 'invalidParams'],
    [{ taker_gets: { currency: 'XRP' }, taker_pays: { currency: 'XRP' } }, 'badMarket'],
    [{ taker_gets: { currency: 'XRP' }, taker_pays: { currency: 'USD' } }, 'srcIsrMalformed'],
    [{ taker_gets: { currency: 'U' }, taker_pays: USD }, 'dstAmtMalformed'],
    [{ taker_gets: { currency: 'XRP' }, taker_pays: USD, taker: 'rNot' }, 'invalidParams'],
    [{ taker_gets: { currency: 'XRP' }, taker_pays: USD, ledger_index: 1 }, 'lgrNotFound'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(bookOffers(request(params), chain.context)).rejects.toMatchObject({ token });
  });
});
