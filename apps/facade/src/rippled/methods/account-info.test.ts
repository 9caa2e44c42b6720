import { describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { accountInfo } from './account-info';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
const root = entries.find((entry) => entry.LedgerEntryType === 'AccountRoot' && entry.Flags === 0)!;
const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });

describe('account_info', () => {
  it("answers the account's root as recorded, its flags, at the validated ledger", async () => {
    expect(await accountInfo(request({ account: root.Account }), chain.context)).toEqual({
      account_data: root,
      account_flags: {
        defaultRipple: false,
        depositAuth: false,
        disableMasterKey: false,
        disallowIncomingXRP: false,
        globalFreeze: false,
        noFreeze: false,
        passwordSpent: false,
        requireAuthorization: false,
        requireDestinationTag: false,
      },
      ledger_hash: fixture.ledger.ledger_hash,
      ledger_index: 38129,
      validated: true,
    });
  });

  it('takes `ident` for `account` and names the ledger by index or hash', async () => {
    const byIdent = await accountInfo(request({ ident: root.Account, ledger_hash: fixture.ledger.ledger_hash }), chain.context);
    expect(byIdent.account_data).toEqual(root);
  });

  it('lists signer lists inside account_data in API v1 and beside it in v2 (none here)', async () => {
    const v1 = await accountInfo(request({ account: root.Account, signer_lists: true }), chain.context);
    expect((v1.account_data as Record<string, unknown>).signer_lists).toEqual([]);
    const v2 = await accountInfo(request({ account: root.Account, signer_lists: true }, 2), chain.context);
    expect(v2.signer_lists).toEqual([]);
    expect((v2.account_data as Record<string, unknown>).signer_lists).toBeUndefined();
    await expect(accountInfo(request({ account: root.Account, signer_lists: 'yes' }, 2), chain.context)).rejects.toMatchObject({ token: 'invalidParams' });
  });

  it('answers actNotFound naming the account and the ledger', async () => {
    const unfunded = xrpl.codec.encodeAccountId(new Uint8Array(20).fill(7));
    expect(keylet.account(new Uint8Array(20).fill(7))).not.toBe(root.index);
    await expect(accountInfo(request({ account: unfunded }), chain.context)).rejects.toMatchObject({
      token: 'actNotFound',
      code: 19,
      extra: { account: unfunded, ledger_index: 38129, ledger_hash: fixture.ledger.ledger_hash, validated: true },
    });
  });

  it.each([
    [{}, 'invalidParams'],
    [{ account: 'rNot' }, 'actMalformed'],
    [{ account: 5 }, 'invalidParams'],
    [{ account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', queue: true }, 'invalidParams'],
    [{ account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', ledger_index: 3 }, 'lgrNotFound'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(accountInfo(request(params), chain.context)).rejects.toMatchObject({ token });
  });

  it('answers notSupported for a stored ledger whose state is not held', async () => {
    const noState = new TestChain({ profile: xrpl, ledgers: [fixture], stateHeld: () => false });
    await expect(accountInfo(request({ account: root.Account }), noState.context)).rejects.toMatchObject({ token: 'notSupported' });
  });
});
