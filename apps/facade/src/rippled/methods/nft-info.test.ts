import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { nftInfo } from './nft-info';
import { rippledMethodsFor } from './index';
import { nftLedgers, request, TestChain } from './test-context';

const chain = new TestChain({ profile: getProfile('xrpl'), ledgers: nftLedgers() });
/** Sold at 1799495 (a buy offer of rfFRm… accepted by its issuer), burned by rfFRm… at 1799496. */
const X = '000800006203F49C21D5D6E022CB16DE3538F248662FC73C29ABA6A90000000D';
/** Offered at 1104, sold at 1197 (a sell offer accepted by rpXPh…). */
const T = '0008000083CD166E1806EF2076C55077AEFD418E771A516C0000099B00000000';

describe('nft_info', () => {
  it("answers the token as the newest ledger that changed it left it, with its ID's fields, as Clio prints it", async () => {
    expect(await nftInfo(request({ nft_id: X.toLowerCase() }), chain.context)).toEqual({
      nft_id: X,
      ledger_index: 1799496,
      owner: 'rfFRmXUR1yfxeUfXj7WwKhETrtToYx1hYh',
      is_burned: true,
      flags: 8,
      transfer_fee: 0,
      issuer: 'r9AExd6v3keXaXa3nXAMHHcP9nWy9Aef2g',
      nft_taxon: 1,
      nft_serial: 13,
      uri: '68747470733A2F2F677265677765697362726F642E636F6D',
      validated: true,
    });
    expect(await nftInfo(request({ nft_id: X, ledger_index: 1799495 }), chain.context)).toMatchObject({ ledger_index: 1799495, is_burned: false, owner: 'rfFRmXUR1yfxeUfXj7WwKhETrtToYx1hYh' });
    expect(await nftInfo(request({ nft_id: T, ledger_index: '1799495' }), chain.context)).toMatchObject({ ledger_index: 1197, is_burned: false });
  });

  it.each([
    [{}, 'invalidParams', "Required field 'nft_id' missing"],
    [{ nft_id: 5 }, 'invalidParams', 'nft_idNotString'],
    [{ nft_id: 'ABC' }, 'invalidParams', 'nft_idMalformed'],
    [{ nft_id: X, ledger_index: 'current' }, 'invalidParams', 'ledgerIndexMalformed'],
    [{ nft_id: X, ledger_hash: 'XYZ' }, 'invalidParams', 'ledger_hashMalformed'],
    [{ nft_id: X, ledger_index: 5 }, 'lgrNotFound', 'ledgerNotFound'],
    // Offered, never changed up to 1104; and a token no ledger names.
    [{ nft_id: T, ledger_index: 1104 }, 'objectNotFound', 'NFT not found'],
    [{ nft_id: '00'.repeat(32) }, 'objectNotFound', 'NFT not found'],
  ])('refuses %j with %s (%s), as Clio', async (params, token, message) => {
    await expect(nftInfo(request(params), chain.context)).rejects.toMatchObject({ token, message });
  });

  it('is a method of the XRP Ledger only: Jingtum has no NFTokens', () => {
    expect(rippledMethodsFor({ id: 'xrpl' })).toHaveProperty('nft_info');
    expect(rippledMethodsFor({ id: 'jingtum' })).not.toHaveProperty('nft_info');
    expect(rippledMethodsFor({ id: 'jingtum' })).not.toHaveProperty('nft_history');
  });
});
