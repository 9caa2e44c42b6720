/**
 * rippled `nft_buy_offers` and `nft_sell_offers` (NFTBuyOffers.cpp, NFTSellOffers.cpp,
 * NFTOffersHelpers.h): the offers of one token's buy or sell directory at a stored ledger, each as
 * appendNftOfferJson prints it. `limit` is 50 to 500 (250 by default). The marker is the key of
 * the next offer to return, which the next page starts with. As rippled, the answer names no
 * ledger.
 */
import { keylet } from '@ledger-node/chain';
import { invalidField, isHash256, missingField, pageLimits, readLimit, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { resolveLedger } from './ledgers';
import { StateView, type StateEntry } from './state';

/** One offer as rippled's appendNftOfferJson prints it. */
function offerJson(offer: StateEntry, state: StateView): JsonObject {
  const json = state.rendered(offer);
  return {
    nft_offer_index: offer.key,
    flags: json.Flags ?? 0,
    owner: json.Owner,
    ...(json.Destination === undefined ? {} : { destination: json.Destination }),
    ...(json.Expiration === undefined ? {} : { expiration: json.Expiration }),
    amount: json.Amount,
  };
}

function nftOffers(directoryOf: (tokenId: string) => string): RippledMethod {
  return async ({ params }, context) => {
    if (params.nft_id === undefined) throw missingField('nft_id');
    if (!isHash256(params.nft_id)) throw invalidField('nft_id');
    const tokenId = params.nft_id.toUpperCase();
    const limit = readLimit(params, pageLimits.nftOffers);
    const resolved = await resolveLedger(params, context);
    const state = new StateView(context, resolved.header.ledgerIndex);
    const directory = directoryOf(tokenId);
    if (!(await state.readOne(directory))) throw new RpcError('objectNotFound');

    const offers: StateEntry[] = [];
    let startAfter: string | undefined;
    if (params.marker !== undefined) {
      if (typeof params.marker !== 'string') throw invalidField('marker', 'string');
      // rippled: a marker that is no offer of this token is rpcINVALID_PARAMS with its default message.
      if (!isHash256(params.marker)) throw new RpcError('invalidParams');
      startAfter = params.marker.toUpperCase();
      const first = await state.readOne(startAfter);
      if (!first || first.json.LedgerEntryType !== 'NFTokenOffer' || String(first.json.NFTokenID).toUpperCase() !== tokenId) throw new RpcError('invalidParams');
      offers.push(first);
    }
    // One more than the page holds tells whether another follows; with a marker, the marker's offer is the page's first.
    const wanted = startAfter === undefined ? limit + 1 : limit;
    let collected = 0;
    let found = startAfter === undefined;
    walk: for await (const { indexes } of state.directoryPages(directory)) {
      let keys = indexes;
      if (!found) {
        const at = keys.indexOf(startAfter!);
        if (at < 0) continue;
        found = true;
        keys = keys.slice(at + 1);
      }
      for (const entry of await state.read(keys)) {
        if (!entry || entry.json.LedgerEntryType !== 'NFTokenOffer') continue;
        offers.push(entry);
        if (++collected === wanted) break walk;
      }
    }
    // rippled forEachItemAfter: a marker the directory does not list is invalidParams.
    if (!found) throw new RpcError('invalidParams');
    const result: JsonObject = { nft_id: tokenId };
    if (collected === wanted) {
      const next = offers.pop()!;
      return { ...result, offers: offers.map((offer) => offerJson(offer, state)), limit, marker: next.key };
    }
    return { ...result, offers: offers.map((offer) => offerJson(offer, state)) };
  };
}

export const nftBuyOffers = nftOffers(keylet.nftBuyOffers);
export const nftSellOffers = nftOffers(keylet.nftSellOffers);
