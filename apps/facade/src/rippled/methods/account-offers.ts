/**
 * rippled `account_offers` (AccountOffers.cpp): the offers an account owns at a stored ledger, each
 * as rippled prints it — `flags`, `seq`, `taker_gets`, `taker_pays`, the `quality` of its book
 * directory and its `expiration` when it has one — found by walking its owner directory; `limit`
 * (10 to 400, 200 by default) and the marker of `account_objects`.
 */
import { directoryQuality, pageLimits, readLimit, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ownedEntries } from './account-objects';
import { readAccountAt } from './accounts';
import { ledgerFields } from './ledgers';
import { StateView } from './state';

export const accountOffers: RippledMethod = async ({ params }, context) => {
  const limit = readLimit(params, pageLimits.accountOffers);
  const { account, accountId, ledger } = await readAccountAt(params, context);
  const state = new StateView(context, ledger.ledgerIndex);
  const { entries, marker } = await ownedEntries(state, accountId, params.marker, limit, (entryType) => entryType === 'Offer');
  const offers = entries.map((entry) => {
    const offer = state.rendered(entry);
    const json: JsonObject = { flags: offer.Flags, seq: offer.Sequence, taker_gets: offer.TakerGets, taker_pays: offer.TakerPays, quality: directoryQuality(String(offer.BookDirectory)) };
    if (offer.Expiration !== undefined) json.expiration = offer.Expiration;
    return json;
  });
  const result: JsonObject = { account, offers, ...ledgerFields(ledger) };
  if (params.limit !== undefined) result.limit = limit;
  if (marker !== undefined) result.marker = marker;
  return result;
};
