import { describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { depositAuthorized } from './deposit-authorized';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const roots: Array<Record<string, any>> = fixture.ledger.accountState.filter((entry: Record<string, any>) => entry.LedgerEntryType === 'AccountRoot');
const [open, guarded, preauthorized, stranger] = roots.map((root) => root.Account as string);
const id = (address: string) => Buffer.from(xrpl.codec.decodeAccountId(address));
const ledgerFields = { ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true };

/** Ledger 38129 with DepositAuth set on one account, which preauthorized another. */
const withDepositAuth: FixtureLedger = {
  ledger: {
    ...fixture.ledger,
    accountState: [
      ...fixture.ledger.accountState.map((entry: Record<string, any>) => (entry.Account === guarded && entry.LedgerEntryType === 'AccountRoot' ? { ...entry, Flags: entry.Flags | 0x01000000 } : entry)),
      { LedgerEntryType: 'DepositPreauth', Account: guarded, Authorize: preauthorized, Flags: 0, OwnerNode: '0', PreviousTxnID: '00'.repeat(32), PreviousTxnLgrSeq: 1, index: keylet.depositPreauth(id(guarded!), id(preauthorized!)) },
    ],
  },
};
const chain = new TestChain({ profile: xrpl, ledgers: [withDepositAuth] });
const ask = (source: unknown, destination: unknown, extra: Record<string, unknown> = {}) => depositAuthorized(request({ source_account: source, destination_account: destination, ...extra }), chain.context);

describe('deposit_authorized', () => {
  it("answers as rippled's DepositAuthorized: any source to an account without DepositAuth, only the preauthorized (or itself) to one with it", async () => {
    expect(await ask(stranger, open)).toEqual({ ...ledgerFields, source_account: stranger, destination_account: open, deposit_authorized: true });
    expect(await ask(stranger, guarded)).toMatchObject({ deposit_authorized: false });
    expect(await ask(preauthorized, guarded)).toMatchObject({ deposit_authorized: true });
    expect(await ask(guarded, guarded)).toMatchObject({ deposit_authorized: true });
  });

  it('refuses what rippled refuses, with the ledger beside the account errors', async () => {
    const missing = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
    await expect(ask(missing, open)).rejects.toMatchObject({ token: 'srcActNotFound', code: 67, extra: ledgerFields });
    await expect(ask(open, missing)).rejects.toMatchObject({ token: 'dstActNotFound', code: 50, extra: ledgerFields });
    await expect(ask('not an address', open)).rejects.toMatchObject({ token: 'actMalformed' });
    await expect(ask(7, open)).rejects.toMatchObject({ token: 'invalidParams', message: "Invalid field 'source_account', not a string." });
    await expect(ask(undefined, open)).rejects.toMatchObject({ token: 'invalidParams', message: "Missing field 'source_account'." });
    await expect(ask(open, guarded, { credentials: ['AB'.repeat(32)] })).rejects.toMatchObject({ token: 'notSupported' });
  });
});
