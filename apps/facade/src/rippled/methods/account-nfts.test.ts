import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { accountNfts, nftokenIdFields } from './account-nfts';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
/** A recorded NFTokenMint that split its owner's page: the two pages it left, 33 tokens in all. */
const minted = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions/NFTokenMint-74D54DC8.json'), 'utf8'));
const pages = (minted.meta.AffectedNodes as Array<Record<string, any>>)
  .map((affected) => affected.CreatedNode ?? affected.ModifiedNode)
  .filter((node) => node.LedgerEntryType === 'NFTokenPage')
  .map((node) => ({ LedgerEntryType: 'NFTokenPage', Flags: 0, ...(node.NewFields ?? node.FinalFields), PreviousTxnID: minted.hash, PreviousTxnLgrSeq: minted.ledger_index, index: node.LedgerIndex }));
const owner: string = minted.Account;
const ownerId = xrpl.codec.decodeAccountId(owner);
const root = { LedgerEntryType: 'AccountRoot', Account: owner, Balance: '100000000', Flags: 0, OwnerCount: 2, Sequence: 30, PreviousTxnID: minted.hash, PreviousTxnLgrSeq: minted.ledger_index, index: keylet.account(ownerId) };
const chain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, root, ...pages] } }] });
/** The tokens in page order: the page linked first (NextPageMin) holds the lower IDs. */
const firstPage = pages.find((page) => page.NextPageMin !== undefined)!;
const lastPage = pages.find((page) => page.index === firstPage.NextPageMin)!;
const tokens: Array<{ NFToken: Record<string, any> }> = [...firstPage.NFTokens, ...lastPage.NFTokens];

describe('nftokenIdFields', () => {
  it("reads the flags, fee, issuer, taxon and serial of Clio's NFTokenIDs as Clio's nft_info prints them", () => {
    // Clio tests/unit/rpc/handlers/NFTInfoTests.cpp: issuer r4X6JLsBfhNK4UnquNkCxhVHKPkvbQff67, flags 8, fee 0.
    const issuer = 'r4X6JLsBfhNK4UnquNkCxhVHKPkvbQff67';
    expect(nftokenIdFields('00080000EC28C2910FD1C454A51598AAB91C8876286B2E7F0000099B00000000', xrpl.codec)).toEqual({ flags: 8, transferFee: 0, issuer, taxon: 0, serial: 0 });
    expect(nftokenIdFields('00080000EC28C2910FD1C454A51598AAB91C8876286B2E7F16E5DA9C00000001', xrpl.codec)).toEqual({ flags: 8, transferFee: 0, issuer, taxon: 0, serial: 1 });
    expect(nftokenIdFields('00080000EC28C2910FD1C454A51598AAB91C8876286B2E7F5B974D9E00000004', xrpl.codec)).toEqual({ flags: 8, transferFee: 0, issuer, taxon: 1, serial: 4 });
  });
});

describe('account_nfts', () => {
  it("lists every token of the owner's pages in page order, each with the fields of its ID", async () => {
    const answer = await accountNfts(request({ account: owner }), chain.context);
    expect(answer).toMatchObject({ account: owner, ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true });
    expect(answer).not.toHaveProperty('marker');
    const nfts = answer.account_nfts as Array<Record<string, unknown>>;
    expect(nfts).toHaveLength(33);
    expect(nfts.map((nft) => nft.NFTokenID)).toEqual(tokens.map(({ NFToken }) => NFToken.NFTokenID));
    const [first] = tokens;
    const fields = nftokenIdFields(first!.NFToken.NFTokenID, xrpl.codec);
    expect(nfts[0]).toEqual({
      ...first!.NFToken,
      Flags: fields.flags,
      Issuer: fields.issuer,
      NFTokenTaxon: fields.taxon,
      nft_serial: fields.serial,
      ...(fields.transferFee === 0 ? {} : { TransferFee: fields.transferFee }),
    });
  });

  it('pages by the last NFTokenID returned, across pages, each token once; a cut page names no account', async () => {
    const first = await accountNfts(request({ account: owner, limit: 20 }), chain.context);
    expect(first).toMatchObject({ limit: 20, marker: tokens[19]!.NFToken.NFTokenID });
    expect(first).not.toHaveProperty('account');
    const second = await accountNfts(request({ account: owner, limit: 20, marker: first.marker }), chain.context);
    expect(second).not.toHaveProperty('marker');
    expect(second.account).toBe(owner);
    const ids = [...(first.account_nfts as any[]), ...(second.account_nfts as any[])].map((nft) => nft.NFTokenID);
    expect(ids).toEqual(tokens.map(({ NFToken }) => NFToken.NFTokenID));
  });

  it('clamps limit to 20..400', async () => {
    expect((await accountNfts(request({ account: owner, limit: 1 }), chain.context)).limit).toBe(20);
  });

  it('answers an empty list for an account without pages', async () => {
    const account = fixture.ledger.accountState.find((entry: Record<string, any>) => entry.LedgerEntryType === 'AccountRoot').Account;
    expect(await accountNfts(request({ account }), chain.context)).toEqual({ account, account_nfts: [], ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true });
  });

  it.each([
    [{}, 'invalidParams', "Missing field 'account'."],
    [{ account: 5 }, 'invalidParams', "Invalid field 'account'."],
    [{ account: 'rNot' }, 'actMalformed', 'Account malformed.'],
    [{ account: 'rrrrrrrrrrrrrrrrrrrrBZbvji' }, 'actNotFound', 'Account not found.'],
    [{ account: owner, ledger_index: 5 }, 'lgrNotFound', 'ledgerNotFound'],
    [{ account: owner, limit: 'ten' }, 'invalidParams', "Invalid field 'limit', not unsigned integer."],
    [{ account: owner, marker: 12 }, 'invalidParams', "Invalid field 'marker', not string."],
    [{ account: owner, marker: 'xyz' }, 'invalidParams', "Invalid field 'marker'."],
    [{ account: owner, marker: 'AB'.repeat(32) }, 'invalidParams', "Invalid field 'marker'."],
  ])('refuses %j with %s', async (params, token, message) => {
    await expect(accountNfts(request(params), chain.context)).rejects.toMatchObject({ token, message });
  });
});
