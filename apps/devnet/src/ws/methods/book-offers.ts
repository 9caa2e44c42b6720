/**
 * rippled `book_offers` (NetworkOPs::getBookPage): the book's quality directories, best quality
 * first, each walked page by page, every offer with its `quality`. `limit` is 1 to 100, 60 by
 * default. As the node's answer, the funding fields rippled derives from each owner's balances
 * (`owner_funds`, `taker_gets_funded`, `taker_pays_funded`) are left out; `taker` is checked and
 * otherwise unused.
 */
import { keylet } from '@ledger-node/chain';
import { directoryIndexes, directoryQuality, invalidField, nextDirectoryPage, pageLimits, readBookSide, readLimit, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import { ledgerFields, resolveLedger, stateLedgerIndex } from '../params';
import { renderedEntry, type MethodHandler } from './context';

export const bookOffers: MethodHandler = ({ request, source }) => {
  const { profile } = source;
  const pays = readBookSide(request, 'taker_pays', profile);
  const gets = readBookSide(request, 'taker_gets', profile);
  if (request.taker !== undefined && (typeof request.taker !== 'string' || !profile.codec.isValidAddress(request.taker))) throw invalidField('taker');
  if (Buffer.compare(Buffer.from(pays.currency), Buffer.from(gets.currency)) === 0 && Buffer.compare(Buffer.from(pays.issuer), Buffer.from(gets.issuer)) === 0) {
    throw new RpcError('badMarket');
  }
  const limit = readLimit(request, pageLimits.bookOffers);
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');

  const base = keylet.bookBase(pays, gets);
  const end = keylet.qualityNext(base);
  const offers: JsonObject[] = [];
  let after = base;
  scan: for (;;) {
    const [directory] = source.stateEntries(ledgerIndex, after, 1);
    if (directory === undefined || directory.index >= end) break;
    after = directory.index;
    const quality = directoryQuality(directory.index);
    const visited = new Set<bigint>();
    for (let page: bigint | undefined = 0n; page !== undefined && !visited.has(page); ) {
      visited.add(page);
      const node = source.stateEntry(keylet.dirPage(directory.index, page), ledgerIndex);
      if (node === undefined) break;
      for (const offerIndex of directoryIndexes(node.json)) {
        const offer = source.stateEntry(offerIndex, ledgerIndex);
        if (offer === undefined || offer.json.LedgerEntryType !== 'Offer') continue;
        offers.push({ ...renderedEntry(offer, profile), quality });
        if (offers.length === limit) break scan;
      }
      page = nextDirectoryPage(node.json);
    }
  }
  return { ...ledgerFields(ref), offers };
};
