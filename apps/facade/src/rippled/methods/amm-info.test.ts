import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { errorFields } from '@ledger-node/rippled-api';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { ammInfo } from './amm-info';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
/**
 * A recorded AMMDeposit into the XRP/WLFI pool: the AMM, its account, its WLFI trust line, and the
 * depositor's account and LP-token line, as the deposit left them.
 */
const deposit = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions/AMMDeposit-6D85FF2B.json'), 'utf8'));
const nodes = (deposit.meta.AffectedNodes as Array<Record<string, any>>).map((affected) => affected.ModifiedNode ?? affected.CreatedNode);
const entry = (index: string) => {
  const node = nodes.find((candidate) => candidate.LedgerIndex === index)!;
  return { LedgerEntryType: node.LedgerEntryType, ...(node.FinalFields ?? node.NewFields), index };
};
const amm = entry('660E6977E9842140E7310436A362DD276C77EA66CBBC06CBAD53CA83030B9E62') as Record<string, any>;
const ammRoot = entry('501BE541F2A35C3FF167481E543C5CD320F8F221AAC2CB9F9699AEF7A81239C1') as Record<string, any>;
const poolLine = entry('6348E9F846C58DF3587F80E52A68F661094692576D84107686FD871485D9EA63') as Record<string, any>;
const lpLine = entry('FF4C8A2AE9481F513489CBC71216C9BD93AD9A3711F34782706E29DFBF2ED694') as Record<string, any>;
const depositorRoot = entry('F44F6CFB64D54D5B4D320F9A7B0D961291D9197A856ABA8F84F3E6ACED42A5F5') as Record<string, any>;
const pool = [{ ...amm, Asset: { currency: 'XRP' } }, ammRoot, poolLine, { ...lpLine, Flags: 0, LowNode: '0', HighNode: '0' }, depositorRoot];
const chain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, ...pool] } }] });
const ledger = { ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true };
const wlfi = amm.Asset2 as { currency: string; issuer: string };

/** The answer rippled's AMMInfo gives for this state, written out from the recorded entries. */
const expectedAmm = {
  account: 'rn8gn11MeoxnAcSvHiTGDUdvAZydGvXp21',
  amount: '1431840972',
  // The pool's line is kept from the issuer's (low) side: −11339739776.4744 there is the AMM's +11339739776.4744.
  amount2: { ...wlfi, value: '11339739776.4744' },
  asset2_frozen: false,
  auction_slot: {
    account: 'rHPHmsoofHe83Grzkczzar6HaBixZYLi2y',
    discounted_fee: 100,
    // Ripple time 790758222 is 2025-01-21 07:03:42 UTC.
    expiration: '2025-01-21T07:03:42+0000',
    price: { currency: '034326630D65E49CE46381F3DF6C333A24EF9DD5', issuer: 'rn8gn11MeoxnAcSvHiTGDUdvAZydGvXp21', value: '0' },
    // Ledger 38129 closed in 2013, outside the slot's day: rippled prints the interval count.
    time_interval: 20,
  },
  lp_token: { currency: '034326630D65E49CE46381F3DF6C333A24EF9DD5', issuer: 'rn8gn11MeoxnAcSvHiTGDUdvAZydGvXp21', value: '3063668890.262321' },
  trading_fee: 1000,
  vote_slots: [
    { account: 'rHPHmsoofHe83Grzkczzar6HaBixZYLi2y', trading_fee: 1000, vote_weight: 76247 },
    { account: 'rNJkfihfGdQdeB6oAdizUc1naQzJ7SMnhf', trading_fee: 1000, vote_weight: 532 },
    { account: 'rp9T8C1KpaYAk79PSr2wjWQ19B2jFpVoiW', trading_fee: 1000, vote_weight: 8122 },
  ],
};

describe('amm_info', () => {
  it('answers the pool by its two assets', async () => {
    expect(await ammInfo(request({ asset: { currency: 'XRP' }, asset2: wlfi }), chain.context)).toEqual({ ...ledger, amm: expectedAmm });
  });

  it('answers the pool by its account, the same', async () => {
    expect(await ammInfo(request({ amm_account: expectedAmm.account }), chain.context)).toEqual({ ...ledger, amm: expectedAmm });
  });

  it('orders the amounts as the request names the assets', async () => {
    const answer = (await ammInfo(request({ asset: wlfi, asset2: { currency: 'XRP' } }), chain.context)).amm as Record<string, unknown>;
    expect(answer).toMatchObject({ amount: expectedAmm.amount2, amount2: expectedAmm.amount, asset_frozen: false });
    expect(answer).not.toHaveProperty('asset2_frozen');
  });

  it("gives `account`'s LP tokens from its line with the AMM account", async () => {
    const answer = (await ammInfo(request({ amm_account: expectedAmm.account, account: depositorRoot.Account }), chain.context)).amm as Record<string, unknown>;
    // The LP line is kept from the AMM's (low) side: −4279342.399292 there is the depositor's +4279342.399292.
    expect(answer.lp_token).toEqual({ ...expectedAmm.lp_token, value: '4279342.399292' });
  });

  it('counts the auction interval at the parent close time within the slot day', async () => {
    const inSlot = { ...fixture.ledger, parent_close_time: 790758222 - 86400 + 3 * 4320 + 1, accountState: [...fixture.ledger.accountState, ...pool] };
    const slotChain = new TestChain({ profile: xrpl, ledgers: [{ ledger: inSlot }] });
    // A changed header has another hash; the answer still names the ledger read.
    const answer = await ammInfo(request({ amm_account: expectedAmm.account }), slotChain.context);
    expect((answer.amm as Record<string, any>).auction_slot.time_interval).toBe(3);
  });

  it.each([
    [{}, 'invalidParams'],
    [{ asset: { currency: 'XRP' } }, 'invalidParams'],
    [{ asset: { currency: 'XRP' }, asset2: wlfi, amm_account: expectedAmm.account }, 'invalidParams'],
    [{ asset: 'XRP', asset2: wlfi }, 'issueMalformed'],
    [{ asset: { currency: 'XRP', issuer: wlfi.issuer }, asset2: wlfi }, 'issueMalformed'],
    [{ asset: { currency: 'XRP' }, asset2: { currency: wlfi.currency } }, 'issueMalformed'],
    [{ asset: { currency: 'XRP' }, asset2: { currency: 'not a code', issuer: wlfi.issuer } }, 'issueMalformed'],
    [{ amm_account: 'rNot' }, 'actMalformed'],
    [{ amm_account: 'rrrrrrrrrrrrrrrrrrrrBZbvji' }, 'actMalformed'],
    // An account without AMMID is no AMM's.
    [{ amm_account: depositorRoot.Account }, 'actNotFound'],
    [{ amm_account: expectedAmm.account, account: 'rrrrrrrrrrrrrrrrrrrrBZbvji' }, 'actMalformed'],
    [{ asset: { currency: 'XRP' }, asset2: { currency: 'USD', issuer: wlfi.issuer } }, 'actNotFound'],
  ])('refuses %j with %s beside the ledger', async (params, token) => {
    const error = await ammInfo(request(params), chain.context).catch((thrown: unknown) => thrown);
    expect(errorFields(error)).toMatchObject({ ...ledger, error: token });
  });

  it('refuses a pool of MPT assets as not read, never answering it as native', async () => {
    const mptPool = { ...amm, Asset2: { mpt_issuance_id: '000000014FF15D0B970E3DA867E1A3F714F1E7E6D67B3B79' } };
    const mptChain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, accountState: [...fixture.ledger.accountState, mptPool, ammRoot] } }] });
    await expect(ammInfo(request({ amm_account: expectedAmm.account }), mptChain.context)).rejects.toMatchObject({ token: 'notSupported' });
  });

  it('refuses a ledger not stored', async () => {
    await expect(ammInfo(request({ amm_account: expectedAmm.account, ledger_index: 4 }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
  });
});
