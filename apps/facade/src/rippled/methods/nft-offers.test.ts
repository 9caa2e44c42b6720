import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { nftBuyOffers, nftSellOffers } from './nft-offers';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
/** A recorded NFTokenBurn that deleted its token's one buy offer and one sell offer, with both directories. */
const burn = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions/NFTokenBurn-8A988C1A.json'), 'utf8'));
const deleted = (burn.meta.AffectedNodes as Array<Record<string, any>>).map((affected) => affected.DeletedNode).filter(Boolean);
const recordedOffers = deleted.filter((node) => node.LedgerEntryType === 'NFTokenOffer');
const tokenId: string = recordedOffers[0].FinalFields.NFTokenID;
const sellOffer = recordedOffers.find((node) => node.FinalFields.Flags & 1)!;
const buyOffer = recordedOffers.find((node) => !(node.FinalFields.Flags & 1))!;

/** The state the burn read: each offer, and each directory listing its one offer. */
const offerState = [
  ...recordedOffers.map((node) => ({ LedgerEntryType: 'NFTokenOffer', ...node.FinalFields, index: node.LedgerIndex })),
  ...deleted
    .filter((node) => node.LedgerEntryType === 'DirectoryNode')
    .map((node) => ({ LedgerEntryType: 'DirectoryNode', ...node.FinalFields, Indexes: [(node.FinalFields.Flags & 1 ? buyOffer : sellOffer).LedgerIndex], index: node.LedgerIndex })),
];
const chain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, ...offerState] } }] });

describe('nft_sell_offers and nft_buy_offers', () => {
  it("list the token's offers as rippled's appendNftOfferJson prints them, naming no ledger", async () => {
    expect(await nftSellOffers(request({ nft_id: tokenId }), chain.context)).toEqual({
      nft_id: tokenId,
      offers: [{ nft_offer_index: sellOffer.LedgerIndex, flags: 1, owner: sellOffer.FinalFields.Owner, destination: sellOffer.FinalFields.Destination, amount: '4000000' }],
    });
    expect(await nftBuyOffers(request({ nft_id: tokenId.toLowerCase() }), chain.context)).toEqual({
      nft_id: tokenId,
      offers: [{ nft_offer_index: buyOffer.LedgerIndex, flags: 0, owner: buyOffer.FinalFields.Owner, amount: '3000000' }],
    });
  });

  describe('paging a directory of 60 buy offers over two pages', () => {
    const owner = xrpl.codec.decodeAccountId(buyOffer.FinalFields.Owner);
    const buys = keylet.nftBuyOffers(tokenId);
    const offers = Array.from({ length: 60 }, (_, position) => ({
      LedgerEntryType: 'NFTokenOffer',
      ...buyOffer.FinalFields,
      Amount: String(1000000 + position),
      Expiration: 800000000 + position,
      index: keylet.nftOffer(owner, 100 + position),
    }));
    const keys = offers.map((offer) => offer.index);
    const secondPage = keylet.dirPage(buys, 1n);
    const directory = [
      { LedgerEntryType: 'DirectoryNode', Flags: 1, NFTokenID: tokenId, RootIndex: buys, Indexes: keys.slice(0, 32), IndexNext: '1', index: buys },
      { LedgerEntryType: 'DirectoryNode', Flags: 1, NFTokenID: tokenId, RootIndex: buys, Indexes: keys.slice(32), IndexPrevious: '0', index: secondPage },
    ];
    const many = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, ...offers, ...directory] } }] });

    it('answers at least 50 a page, and the marker is the first offer of the next page', async () => {
      const first = await nftBuyOffers(request({ nft_id: tokenId, limit: 1 }), many.context);
      expect(first.limit).toBe(50);
      expect((first.offers as any[]).map((offer) => offer.nft_offer_index)).toEqual(keys.slice(0, 50));
      expect(first.marker).toBe(keys[50]);
      expect((first.offers as any[])[0]).toEqual({ nft_offer_index: keys[0], flags: 0, owner: buyOffer.FinalFields.Owner, expiration: 800000000, amount: '1000000' });
      const second = await nftBuyOffers(request({ nft_id: tokenId, limit: 50, marker: first.marker }), many.context);
      expect((second.offers as any[]).map((offer) => offer.nft_offer_index)).toEqual(keys.slice(50));
      expect(second).not.toHaveProperty('marker');
      expect(second).not.toHaveProperty('limit');
    });

    it('answers every offer in one page by default (250)', async () => {
      expect((await nftBuyOffers(request({ nft_id: tokenId }), many.context)).offers).toHaveLength(60);
    });
  });

  it.each([
    [{}, 'invalidParams', "Missing field 'nft_id'."],
    [{ nft_id: 'zz' }, 'invalidParams', "Invalid field 'nft_id'."],
    [{ nft_id: 7 }, 'invalidParams', "Invalid field 'nft_id'."],
    [{ nft_id: tokenId, limit: -3 }, 'invalidParams', "Invalid field 'limit', not unsigned integer."],
    [{ nft_id: tokenId, ledger_index: 3 }, 'lgrNotFound', 'ledgerNotFound'],
    [{ nft_id: '00'.repeat(32) }, 'objectNotFound', 'The requested object was not found.'],
    [{ nft_id: tokenId, marker: 5 }, 'invalidParams', "Invalid field 'marker', not string."],
    [{ nft_id: tokenId, marker: 'nope' }, 'invalidParams', 'Invalid parameters.'],
    // The sell offer is an offer of this token, but not one its buy directory lists.
    [{ nft_id: tokenId, marker: sellOffer.LedgerIndex }, 'invalidParams', 'Invalid parameters.'],
    [{ nft_id: tokenId, marker: 'AB'.repeat(32) }, 'invalidParams', 'Invalid parameters.'],
  ])('nft_buy_offers refuses %j with %s', async (params, token, message) => {
    await expect(nftBuyOffers(request(params), chain.context)).rejects.toMatchObject({ token, message });
  });
});
