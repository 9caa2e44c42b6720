import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { nftHistory } from './nft-history';
import { nftLedgers, request, TestChain } from './test-context';

const chain = new TestChain({ profile: getProfile('xrpl'), ledgers: nftLedgers() });
const X = '000800006203F49C21D5D6E022CB16DE3538F248662FC73C29ABA6A90000000D';
const T = '0008000083CD166E1806EF2076C55077AEFD418E771A516C0000099B00000000';
const SALE_OF_X = '21C60F25';
const BURN_OF_X = '0804FB2E';

const hashOf = (entry: Record<string, any>) => String(entry.tx?.hash ?? entry.hash).slice(0, 8);

describe('nft_history', () => {
  it('lists the transactions that touched the token newest first, or oldest first with forward, as Clio prints them', async () => {
    const answer = await nftHistory(request({ nft_id: X }), chain.context);
    expect(answer).toMatchObject({ nft_id: X, ledger_index_min: 1104, ledger_index_max: 1799496, validated: true });
    expect(answer).not.toHaveProperty('limit');
    expect(answer).not.toHaveProperty('marker');
    const entries = answer.transactions as Array<Record<string, any>>;
    expect(entries.map(hashOf)).toEqual([BURN_OF_X, SALE_OF_X]);
    expect(entries[0]).toMatchObject({ validated: true, tx: { TransactionType: 'NFTokenBurn', ledger_index: 1799496, date: expect.any(Number) }, meta: { TransactionResult: 'tesSUCCESS' } });
    const forward = await nftHistory(request({ nft_id: X, forward: true }), chain.context);
    expect((forward.transactions as Array<Record<string, any>>).map(hashOf)).toEqual([SALE_OF_X, BURN_OF_X]);
  });

  it('pages with a {ledger, seq} marker and repeats the limit asked', async () => {
    const first = await nftHistory(request({ nft_id: T, limit: 1 }), chain.context);
    expect(first).toMatchObject({ limit: 1, marker: { ledger: 1197, seq: 0 } });
    expect((first.transactions as Array<Record<string, any>>)[0]).toMatchObject({ tx: { TransactionType: 'NFTokenAcceptOffer' } });
    const second = await nftHistory(request({ nft_id: T, limit: 1, marker: first.marker }), chain.context);
    expect(second).not.toHaveProperty('marker');
    expect((second.transactions as Array<Record<string, any>>)[0]).toMatchObject({ tx: { TransactionType: 'NFTokenCreateOffer', ledger_index: 1104 } });
  });

  it('keeps a range or one ledger, and renders API v2 and binary entries', async () => {
    const one = await nftHistory(request({ nft_id: X, ledger_index: 1799495 }), chain.context);
    expect(one).toMatchObject({ ledger_index_min: 1799495, ledger_index_max: 1799495 });
    expect((one.transactions as Array<Record<string, any>>).map(hashOf)).toEqual([SALE_OF_X]);
    const range = await nftHistory(request({ nft_id: X, ledger_index_min: 1799496, ledger_index_max: 1799496 }), chain.context);
    expect((range.transactions as Array<Record<string, any>>).map(hashOf)).toEqual([BURN_OF_X]);
    const [v2] = (await nftHistory(request({ nft_id: X, limit: 1 }, 2), chain.context)).transactions as Array<Record<string, any>>;
    expect(v2).toMatchObject({ validated: true, ledger_index: 1799496, hash: expect.stringMatching(/^0804FB2E/), tx_json: { TransactionType: 'NFTokenBurn' }, close_time_iso: expect.any(String) });
    const [binary] = (await nftHistory(request({ nft_id: X, limit: 1, binary: true }), chain.context)).transactions as Array<Record<string, any>>;
    expect(binary).toEqual({ tx_blob: expect.stringMatching(/^[0-9A-F]+$/), meta: expect.stringMatching(/^[0-9A-F]+$/), ledger_index: 1799496, date: expect.any(Number), validated: true });
  });

  it('answers a token nothing touched with no transactions', async () => {
    expect(await nftHistory(request({ nft_id: '00'.repeat(32) }), chain.context)).toMatchObject({ transactions: [] });
  });

  it.each([
    [{}, 'invalidParams', "Required field 'nft_id' missing"],
    [{ nft_id: 'XYZ' }, 'invalidParams', 'nft_idMalformed'],
    [{ nft_id: X, marker: 'x' }, 'invalidParams', 'invalidMarker'],
    [{ nft_id: X, limit: 0 }, 'invalidParams', undefined],
    [{ nft_id: X, ledger_index_min: 5 }, 'lgrIdxMalformed', 'ledgerSeqMinOutOfRange'],
    [{ nft_id: X, ledger_index_max: 99999999 }, 'lgrIdxMalformed', 'ledgerSeqMaxOutOfRange'],
    [{ nft_id: X, ledger_index_min: 1799496, ledger_index_max: 1197 }, 'lgrIdxsInvalid', undefined],
    [{ nft_id: X, ledger_index: 1197, ledger_index_min: 1104 }, 'invalidParams', 'containsLedgerSpecifierAndRange'],
    [{ nft_id: X, ledger_index: 1500 }, 'lgrNotFound', 'ledgerNotFound'],
  ])('refuses %j with %s (%s), as Clio', async (params, token, message) => {
    await expect(nftHistory(request(params), chain.context)).rejects.toMatchObject({ token, ...(message === undefined ? {} : { message }) });
  });
});
