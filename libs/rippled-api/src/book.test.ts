import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { amountText, directoryQuality, readBookSide } from './book';

const xrpl = getProfile('xrpl');
const issuer = 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B';

describe('directoryQuality', () => {
  it.each(['bookOffersXrpUsd.json', 'bookOffersUsdXrp.json'])("prints every offer's quality as xrpl.js's recorded %s shows it", (file) => {
    const { result } = readFixture<{ result: { offers: Array<{ BookDirectory: string; quality: string }> } }>(`xrpl/responses/xrpl.js/${file}`);
    expect(result.offers.length).toBeGreaterThan(0);
    for (const offer of result.offers) expect(directoryQuality(offer.BookDirectory)).toBe(offer.quality);
  });
});

describe('amountText', () => {
  it("prints rippled's decimal and scientific forms", () => {
    expect(amountText(0n, -100)).toBe('0');
    expect(amountText(7800934587388060n, -14)).toBe('78.0093458738806');
    expect(amountText(1000000000000000n, -15)).toBe('1');
    expect(amountText(1000000000000000n, -20)).toBe('0.00001');
    expect(amountText(3970260734451929n, -29)).toBe('3970260734451929e-29');
    expect(amountText(1000000000000000n, 0)).toBe('1000000000000000');
    expect(amountText(1000000000000000n, 2)).toBe('1000000000000000e2');
  });
});

describe('readBookSide', () => {
  it('reads the native asset as zero currency and issuer, an issued one with its issuer', () => {
    expect(readBookSide({ taker_pays: { currency: 'XRP' } }, 'taker_pays', xrpl)).toEqual({ currency: new Uint8Array(20), issuer: new Uint8Array(20), native: true });
    const usd = readBookSide({ taker_gets: { currency: 'USD', issuer } }, 'taker_gets', xrpl);
    expect(usd.native).toBe(false);
    expect(Buffer.from(usd.issuer)).toEqual(Buffer.from(xrpl.codec.decodeAccountId(issuer)));
  });

  it.each([
    [{}, 'taker_pays', 'invalidParams'],
    [{ taker_pays: 'XRP' }, 'taker_pays', 'invalidParams'],
    [{ taker_pays: {} }, 'taker_pays', 'srcCurMalformed'],
    [{ taker_pays: { currency: 'US' } }, 'taker_pays', 'srcCurMalformed'],
    [{ taker_pays: { currency: 'USD' } }, 'taker_pays', 'srcIsrMalformed'],
    [{ taker_pays: { currency: 'XRP', issuer } }, 'taker_pays', 'srcIsrMalformed'],
    [{ taker_gets: { currency: 'US' } }, 'taker_gets', 'dstAmtMalformed'],
    [{ taker_gets: { currency: 'USD', issuer: 'rNot' } }, 'taker_gets', 'dstIsrMalformed'],
  ] as const)('refuses %j (%s) with %s', (params, field, token) => {
    expect(() => readBookSide(params, field, xrpl)).toThrow(expect.objectContaining({ token }));
  });
});
