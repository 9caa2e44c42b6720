/**
 * rippled `account_nfts` (AccountNFTs.cpp): the NFTokens an account holds at a stored ledger, read
 * from its NFTokenPages — the first found by a key-range scan of the owner's page keys, the rest
 * by each page's NextPageMin — each token with the fields its NFTokenID packs. `limit` is 20 to
 * 400 (100 by default); the marker is the last NFTokenID returned. As rippled, a page cut short
 * by the limit carries `limit` and `marker` and no `account`.
 */
import { keylet, type ChainCodec } from '@ledger-node/chain';
import { invalidField, isHash256, missingField, pageLimits, readLimit, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView, type StateEntry } from './state';

/**
 * The parts of an NFTokenID (rippled nft::getFlags, getTransferFee, getIssuer, getTaxon,
 * getSerial): 2 bytes of flags, 2 of transfer fee, the issuer's 20, the taxon's 4 — stored
 * scrambled with the serial (nft::cipheredTaxon) — and the serial's 4.
 */
export function nftokenIdFields(tokenId: string, codec: Pick<ChainCodec, 'encodeAccountId'>): { flags: number; transferFee: number; issuer: string; taxon: number; serial: number } {
  const id = Buffer.from(tokenId, 'hex');
  const serial = id.readUInt32BE(28);
  // rippled nft::cipheredTaxon: the taxon XOR a linear congruential step of the serial, modulo 2^32.
  const scramble = (Math.imul(384160001, serial) + 2459) >>> 0;
  return {
    flags: id.readUInt16BE(0),
    transferFee: id.readUInt16BE(2),
    issuer: codec.encodeAccountId(id.subarray(4, 24)),
    taxon: (id.readUInt32BE(24) ^ scramble) >>> 0,
    serial,
  };
}

/** The key after `key`, or undefined past the last key. */
function keyAfter(key: string): string | undefined {
  const next = BigInt(`0x${key}`) + 1n;
  return next >= 1n << 256n ? undefined : next.toString(16).toUpperCase().padStart(64, '0');
}

export const accountNfts: RippledMethod = async ({ params }, context) => {
  const { codec } = context.profile;
  if (params.account === undefined) throw missingField('account');
  if (typeof params.account !== 'string') throw invalidField('account');
  const account = params.account;
  if (!codec.isValidAddress(account)) throw new RpcError('actMalformed');
  const accountId = codec.decodeAccountId(account);
  const resolved = await resolveLedger(params, context);
  const state = new StateView(context, resolved.header.ledgerIndex);
  if (!(await state.readOne(keylet.account(accountId)))) throw new RpcError('actNotFound');
  const limit = readLimit(params, pageLimits.accountNfts);
  const markerSet = params.marker !== undefined;
  if (markerSet && typeof params.marker !== 'string') throw invalidField('marker', 'string');
  if (markerSet && !isHash256(params.marker)) throw invalidField('marker');
  const marker = markerSet ? String(params.marker).toUpperCase() : '0'.repeat(64);

  // rippled: the first page is the first key above the marker's page key, up to the owner's last page.
  const lastPage = keylet.nftPageMax(accountId);
  const { entries } = await state.scan({ afterKey: keylet.nftPage(keylet.nftPageMin(accountId), marker), beforeKey: keyAfter(lastPage), limit: 1 });
  let page: StateEntry | undefined = entries[0]?.json.LedgerEntryType === 'NFTokenPage' ? entries[0] : undefined;

  const result: JsonObject = { ...ledgerFields(resolved.place) };
  const nfts: JsonObject[] = [];
  result.account_nfts = nfts;
  // rippled: tokens within a page sort by their low 96 bits, then by the whole ID.
  const masked = (tokenId: string) => tokenId.slice(40);
  let pastMarker = /^0+$/.test(marker);
  let markerFound = false;
  const visited = new Set<string>();
  while (page && !visited.has(page.key)) {
    visited.add(page.key);
    const tokens = Array.isArray(page.json.NFTokens) ? (state.rendered(page).NFTokens as Array<{ NFToken: JsonObject }>) : [];
    for (const { NFToken: token } of tokens) {
      const tokenId = String(token.NFTokenID).toUpperCase();
      if (!pastMarker) {
        if (masked(tokenId) < masked(marker)) continue;
        if (masked(tokenId) === masked(marker) && tokenId < marker) continue;
        if (tokenId === marker) {
          markerFound = true;
          continue;
        }
      }
      if (markerSet && !markerFound) throw invalidField('marker');
      pastMarker = true;
      const fields = nftokenIdFields(tokenId, codec);
      nfts.push({
        ...token,
        Flags: fields.flags,
        Issuer: fields.issuer,
        NFTokenTaxon: fields.taxon,
        nft_serial: fields.serial,
        ...(fields.transferFee === 0 ? {} : { TransferFee: fields.transferFee }),
      });
      if (nfts.length === limit) return { ...result, limit, marker: tokenId };
    }
    const next = page.json.NextPageMin;
    page = typeof next === 'string' ? await state.readOne(next.toUpperCase()) : undefined;
  }
  if (markerSet && !markerFound) throw invalidField('marker');
  return { ...result, account };
};
