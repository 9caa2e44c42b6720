/**
 * rippled `book_offers` (NetworkOPs::getBookPage) at a stored ledger: the book's quality
 * directories are the state keys from the book's base to its next quality (a key-range scan), each
 * walked page by page and its offers read by key, best quality first, with each offer's `quality`.
 * `limit` is 1 to 100, 60 by default. The funding fields (`owner_funds`, `taker_gets_funded`,
 * `taker_pays_funded`), which rippled derives from each owner's balances, are left out; `taker` is
 * checked and otherwise unused.
 */
import { keylet } from '@ledger-node/chain';
import { directoryQuality, invalidField, pageLimits, readBookSide, readLimit, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

/** Quality directories read per scan of the book's key range. */
const DIRECTORIES_PER_SCAN = 16;

export const bookOffers: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const pays = readBookSide(params, 'taker_pays', profile);
  const gets = readBookSide(params, 'taker_gets', profile);
  if (params.taker !== undefined && (typeof params.taker !== 'string' || !profile.codec.isValidAddress(params.taker))) throw invalidField('taker');
  if (Buffer.compare(Buffer.from(pays.currency), Buffer.from(gets.currency)) === 0 && Buffer.compare(Buffer.from(pays.issuer), Buffer.from(gets.issuer)) === 0) {
    throw new RpcError('badMarket');
  }
  const limit = readLimit(params, pageLimits.bookOffers);
  const resolved = await resolveLedger(params, context);
  const state = new StateView(context, resolved.header.ledgerIndex);

  const base = keylet.bookBase(pays, gets);
  const end = keylet.qualityNext(base);
  const offers: JsonObject[] = [];
  let after = base;
  scan: for (;;) {
    const { entries: directories, more } = await state.scan({ afterKey: after, beforeKey: end, limit: DIRECTORIES_PER_SCAN });
    for (const directory of directories) {
      after = directory.key;
      const quality = directoryQuality(directory.key);
      for await (const { indexes } of state.directoryPages(directory.key)) {
        // A directory page lists at most 32 entries: read together.
        for (const offer of await state.read(indexes)) {
          if (!offer || offer.json.LedgerEntryType !== 'Offer') continue;
          offers.push({ ...state.rendered(offer), quality });
          if (offers.length === limit) break scan;
        }
      }
    }
    if (!more || directories.length === 0) break;
  }
  return { ...ledgerFields(resolved.place), offers };
};
