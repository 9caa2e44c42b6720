/**
 * The NFT index data of recorded NFToken transactions (fixtures/xrpl/corpus/transactions), read
 * from their binary form as sync reads them. The expected token and owner come from each
 * transaction's own fields (an NFTokenID packs its issuer, taxon and serial; a mint's serial is
 * the issuer's FirstNFTokenSequence plus its MintedNFTokens before it), not from the page search the derivation does.
 */
import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { transactionFromLedgerJson } from './ledger-json';
import { indexTransaction, indexTransactionOrPlaceholder } from './transaction-index';
import { getProfile } from './profiles';

const xrpl = getProfile('xrpl');
type Json = Record<string, any>;

/** A corpus transaction as {tx, meta}: the fixtures hold both the flat (tx result) and the {tx, meta} shapes. */
function recorded(name: string): { tx: Json; meta: Json; txBlob: Buffer; metaBlob: Buffer } {
  const document = readFixture<Json>(`xrpl/corpus/transactions/${name}.json`);
  const { meta: recordedMeta, metaData, tx: nested, ...flat } = document;
  const tx: Json = nested ?? flat;
  // rippled's synthetic fields (nftoken_id, offer_id…) are no part of the serialized metadata.
  const meta = Object.fromEntries(Object.entries((recordedMeta ?? metaData) as Json).filter(([field]) => /^[A-Z]/.test(field)));
  const { txBlob, metaBlob } = transactionFromLedgerJson({ ...tx, metaData: meta }, xrpl);
  return { tx, meta, txBlob: Buffer.from(txBlob, 'hex'), metaBlob: Buffer.from(metaBlob, 'hex') };
}

const accountId = (address: string) => Buffer.from(xrpl.codec.decodeAccountId(address));
const hexOf = (bytes: Buffer | undefined) => bytes?.toString('hex').toUpperCase();

/** rippled nft::cipheredTaxon, to pack a taxon as an NFTokenID does. */
const cipheredTaxon = (serial: number, taxon: number) => (taxon ^ ((Math.imul(384160001, serial) + 2459) >>> 0)) >>> 0;

/** The NFTokenID a mint makes (rippled NFTokenMint::createNFTokenID). */
function mintedId(tx: Json, serial: number): string {
  const id = Buffer.alloc(32);
  id.writeUInt16BE(tx.Flags & 0xffff, 0);
  id.writeUInt16BE(tx.TransferFee ?? 0, 2);
  accountId(tx.Issuer ?? tx.Account).copy(id, 4);
  id.writeUInt32BE(cipheredTaxon(serial, tx.NFTokenTaxon), 24);
  id.writeUInt32BE(serial, 28);
  return id.toString('hex').toUpperCase();
}

/** The serial a mint gives (fixNFTokenRemint): the issuer's FirstNFTokenSequence plus its MintedNFTokens before it (one less than after). */
function mintedSerial(meta: Json, issuer: string): number {
  const node = meta.AffectedNodes.map((wrapper: Json) => wrapper.ModifiedNode).find((modified: Json | undefined) => modified?.LedgerEntryType === 'AccountRoot' && modified.FinalFields.Account === issuer);
  return (node.FinalFields.FirstNFTokenSequence ?? 0) + node.FinalFields.MintedNFTokens - 1;
}

describe('NFT index data of recorded NFToken transactions', () => {
  it.each(['NFTokenMint-74D54DC8', 'NFTokenMint-1C57BFD8', 'NFTokenMint-465A6EAC', 'NFTokenMint-E0774E1B'])('%s: the minted token, owned by the first page owner, with its URI', (name) => {
    const { tx, meta, txBlob, metaBlob } = recorded(name);
    const issuer = tx.Issuer ?? tx.Account;
    const expectedId = mintedId(tx, mintedSerial(meta, issuer));
    const index = indexTransaction(txBlob, metaBlob, xrpl);
    expect(index.nftIds.map(hexOf)).toEqual([expectedId]);
    expect(hexOf(index.nftChange?.nftId)).toBe(expectedId);
    // Without an authorized minter the issuer holds what it minted.
    expect(xrpl.codec.encodeAccountId(index.nftChange!.ownerAccountId)).toBe(tx.Account);
    expect(index.nftChange!.burned).toBe(false);
    expect(hexOf(index.nftChange!.uri)).toBe(tx.URI ?? '');
  });

  it.each(['NFTokenBurn-0804FB2E', 'NFTokenBurn-5139E9A5', 'NFTokenBurn-8A988C1A'])('%s: the burned token, its last owner and URI', (name) => {
    const { tx, txBlob, metaBlob } = recorded(name);
    const index = indexTransaction(txBlob, metaBlob, xrpl);
    expect(index.nftIds.map(hexOf)).toEqual([tx.NFTokenID]);
    expect(index.nftChange).toMatchObject({ burned: true });
    expect(hexOf(index.nftChange!.nftId)).toBe(tx.NFTokenID);
    // rippled NFTokenBurn: Owner names the holder when the issuer burns; else the sender holds it.
    expect(xrpl.codec.encodeAccountId(index.nftChange!.ownerAccountId)).toBe(tx.Owner ?? tx.Account);
  });

  it.each([
    ['NFTokenAcceptOffer-00769286', 'sell'],
    ['NFTokenAcceptOffer-21C60F25', 'buy'],
  ])('%s: accepting a %s offer moves the token to its buyer', (name, side) => {
    const { tx, meta, txBlob, metaBlob } = recorded(name);
    const offerId = side === 'buy' ? tx.NFTokenBuyOffer : tx.NFTokenSellOffer;
    const offer = meta.AffectedNodes.map((wrapper: Json) => wrapper.DeletedNode).find((node: Json | undefined) => node?.LedgerIndex === offerId).FinalFields;
    const index = indexTransaction(txBlob, metaBlob, xrpl);
    expect(index.nftIds.map(hexOf)).toEqual([offer.NFTokenID]);
    // The buyer: the buy offer's owner, or whoever accepted the sell offer.
    expect(xrpl.codec.encodeAccountId(index.nftChange!.ownerAccountId)).toBe(side === 'buy' ? offer.Owner : tx.Account);
    expect(index.nftChange!.burned).toBe(false);
  });

  it('NFTokenModify-837CEEB7: the token keeps its owner and takes the new URI', () => {
    const { tx, txBlob, metaBlob } = recorded('NFTokenModify-837CEEB7');
    const index = indexTransaction(txBlob, metaBlob, xrpl);
    expect(index.nftIds.map(hexOf)).toEqual([tx.NFTokenID]);
    expect(xrpl.codec.encodeAccountId(index.nftChange!.ownerAccountId)).toBe(tx.Owner ?? tx.Account);
    expect(hexOf(index.nftChange!.uri)).toBe(tx.URI ?? '');
  });

  it('NFTokenCreateOffer and NFTokenCancelOffer touch their tokens and change none', () => {
    const create = recorded('NFTokenCreateOffer-37DD2EC6');
    const created = indexTransaction(create.txBlob, create.metaBlob, xrpl);
    expect(created.nftIds.map(hexOf)).toEqual([create.tx.NFTokenID]);
    expect(created.nftChange).toBeUndefined();
    for (const name of ['NFTokenCancelOffer-AF12B269', 'NFTokenCancelOffer-B88123B6', 'NFTokenCancelOffer-69EE0CD6']) {
      const { meta, txBlob, metaBlob } = recorded(name);
      const offered = meta.AffectedNodes.map((wrapper: Json) => wrapper.DeletedNode).filter((node: Json | undefined) => node?.LedgerEntryType === 'NFTokenOffer');
      const index = indexTransaction(txBlob, metaBlob, xrpl);
      expect(index.nftIds.map(hexOf)).toEqual([...new Set(offered.map((node: Json) => node.FinalFields.NFTokenID))].sort());
      expect(index.nftChange).toBeUndefined();
    }
  });

  it('a failed NFToken transaction touches no token (Clio indexes successes only)', () => {
    for (const name of ['NFTokenAcceptOffer-376D09D2', 'NFTokenCreateOffer-2C476AF4']) {
      const { txBlob, metaBlob } = recorded(name);
      const index = indexTransaction(txBlob, metaBlob, xrpl);
      expect(index.nftIds).toEqual([]);
      expect(index.nftChange).toBeUndefined();
    }
  });

  it('a Payment touches no token', () => {
    const { txBlob, metaBlob } = recorded('Payment-16DFB855');
    const index = indexTransaction(txBlob, metaBlob, xrpl);
    expect(index.nftIds).toEqual([]);
    expect(index.nftChange).toBeUndefined();
  });

  it('keeps the account index data of a transaction whose NFT data cannot be read, touching no token, and says why', () => {
    const { tx, txBlob, metaBlob } = recorded('NFTokenBurn-5139E9A5');
    // A codec that cannot decode (the NFT data is read from the decoded transaction; the account data from the binary).
    const decode = () => {
      throw new Error('a field of a type this codec does not know');
    };
    const undecodable = { ...xrpl, codec: { ...xrpl.codec, decode } };
    const { index, failure } = indexTransactionOrPlaceholder(txBlob, metaBlob, undecodable, 0);
    expect(failure).toBe('its NFT index data cannot be read: a field of a type this codec does not know');
    expect(index.nftIds).toEqual([]);
    expect(index).toMatchObject({ transactionType: 'NFTokenBurn', engineResult: 'tesSUCCESS' });
    expect(xrpl.codec.encodeAccountId(index.senderAccountId)).toBe(tx.Account);
  });
});
