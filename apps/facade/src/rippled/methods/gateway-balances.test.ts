import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currencyToBytes, getProfile, keylet } from '@ledger-node/chain';
import { errorFields } from '@ledger-node/rippled-api';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { gatewayBalances } from './gateway-balances';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const entries: Array<Record<string, any>> = fixture.ledger.accountState;
/** In mainnet ledger 38129 this account owes 1 USD to each of two accounts. */
const gateway = 'r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx';
const [holderA, holderB] = ['r9duXXmUuhSs6JxKpPCSh2tPUg9AGvE2cG', 'rEA2XzkTXi6sWRzTVQVyUoSX4yJAzNxucd'];
const chain = new TestChain({ profile: xrpl, ledgers: [fixture] });
const ledger = { ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true };

/** The escrows recorded EscrowCreate transactions made (an XRP, an issued and an MPT amount), as the gateway's. */
const escrows = ['EscrowCreate-55B20573.json', 'EscrowCreate-84C9B392.json', 'EscrowCreate-CED2D575.json', 'EscrowCreate-04D33C94.json'].map((file) => {
  const recorded = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions', file), 'utf8'));
  const node = recorded.meta.AffectedNodes.map((affected: Record<string, any>) => affected.CreatedNode).find((created: Record<string, any> | undefined) => created?.LedgerEntryType === 'Escrow');
  return { LedgerEntryType: 'Escrow', Flags: 0, OwnerNode: '0', PreviousTxnID: recorded.hash, PreviousTxnLgrSeq: recorded.ledger_index, ...node.NewFields, Account: gateway, index: node.LedgerIndex };
});

/** Ledger 38129 with the gateway's line to holder B frozen by the gateway, and the escrows in its owner directory. */
function withFreezeAndEscrows(): FixtureLedger {
  const gatewayId = xrpl.codec.decodeAccountId(gateway);
  const lineToB = keylet.rippleState(gatewayId, xrpl.codec.decodeAccountId(holderB), currencyToBytes('USD'));
  const gatewayIsLow = Buffer.compare(Buffer.from(gatewayId), Buffer.from(xrpl.codec.decodeAccountId(holderB))) < 0;
  const state = entries.map((entry) => {
    if (entry.index === lineToB) return { ...entry, Flags: entry.Flags | (gatewayIsLow ? 0x00400000 : 0x00800000) };
    if (entry.index === keylet.ownerDir(gatewayId)) return { ...entry, Indexes: [...entry.Indexes, ...escrows.map((escrow) => escrow.index)] };
    return entry;
  });
  return { ledger: { ...fixture.ledger, accountState: [...state, ...escrows] } };
}

describe('gateway_balances', () => {
  it('sums what the account owes per currency', async () => {
    expect(await gatewayBalances(request({ account: gateway }), chain.context)).toEqual({ ...ledger, account: gateway, obligations: { USD: '2' } });
  });

  it('lists what hot wallets hold apart, as a string or an array', async () => {
    const expected = { ...ledger, account: gateway, obligations: { USD: '1' }, balances: { [holderA]: [{ currency: 'USD', value: '1' }] } };
    expect(await gatewayBalances(request({ account: gateway, hotwallet: holderA }), chain.context)).toEqual(expected);
    expect(await gatewayBalances(request({ account: gateway, hotwallet: [holderA] }), chain.context)).toEqual(expected);
    expect(await gatewayBalances(request({ account: gateway, hotwallet: null }), chain.context)).toMatchObject({ obligations: { USD: '2' } });
  });

  it('lists lines the account froze apart, and what its escrows lock per currency (MPT escrows left out)', async () => {
    const frozen = new TestChain({ profile: xrpl, ledgers: [withFreezeAndEscrows()] });
    expect(await gatewayBalances(request({ account: gateway }), frozen.context)).toEqual({
      ...ledger,
      account: gateway,
      obligations: { USD: '1' },
      frozen_balances: { [holderB]: [{ currency: 'USD', value: '1' }] },
      locked: { XRP: String(10000 + 4683767), ZZZ: '1' },
    });
  });

  it('lists what others owe the account as its assets, from the holder side', async () => {
    expect(await gatewayBalances(request({ account: holderA }), chain.context)).toEqual({ ...ledger, account: holderA, assets: { [gateway]: [{ currency: 'USD', value: '1' }] } });
  });

  it('answers for an account not there in API v1, and refuses it in v2 with the ledger and account', async () => {
    const absent = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
    expect(await gatewayBalances(request({ account: absent }), chain.context)).toEqual({ ...ledger, account: absent });
    const error = await gatewayBalances(request({ account: absent }, 2), chain.context).catch((thrown: unknown) => thrown);
    expect(errorFields(error)).toEqual({ ...ledger, account: absent, error: 'actNotFound', error_code: 19, error_message: 'Account not found.' });
  });

  it('refuses a malformed hotwallet: invalidHotWallet in API v1, invalidParams in v2', async () => {
    for (const hotwallet of ['rNot', [holderA, 'rNot'], 7, { account: holderA }]) {
      await expect(gatewayBalances(request({ account: gateway, hotwallet }), chain.context)).rejects.toMatchObject({ token: 'invalidHotWallet', code: 30, message: 'Invalid hotwallet.' });
      await expect(gatewayBalances(request({ account: gateway, hotwallet }, 2), chain.context)).rejects.toMatchObject({ token: 'invalidParams', message: 'Invalid parameters.' });
    }
  });

  it.each([
    [{}, 'invalidParams', "Missing field 'account'."],
    [{ account: 'rNot' }, 'actMalformed', 'Account malformed.'],
    [{ account: 42 }, 'actMalformed', 'Account malformed.'],
    [{ account: gateway, ledger_index: 12 }, 'lgrNotFound', 'ledgerNotFound'],
  ])('refuses %j with %s', async (params, token, message) => {
    await expect(gatewayBalances(request(params), chain.context)).rejects.toMatchObject({ token, message });
  });

  it('takes the account as `ident` too', async () => {
    expect(await gatewayBalances(request({ ident: gateway }), chain.context)).toMatchObject({ account: gateway, obligations: { USD: '2' } });
  });
});

describe('gateway_balances on a Jingtum chain', () => {
  it('reads SkywellState lines', async () => {
    const jingtum = getProfile('jingtum');
    const header = readFixture<FixtureLedger>('jingtum/ledgers/2838718-header.json');
    const issuer = jingtum.genesis.address;
    const holder = jingtum.codec.encodeAccountId(new Uint8Array(20).fill(9));
    const [issuerId, holderId] = [issuer, holder].map((address) => jingtum.codec.decodeAccountId(address));
    const issuerIsLow = Buffer.compare(Buffer.from(issuerId!), Buffer.from(holderId!)) < 0;
    const lineKey = keylet.rippleState(issuerId!, holderId!, currencyToBytes('CNY', 'SWT'));
    const amount = (who: string, value: string) => ({ currency: 'CNY', issuer: who, value });
    const state = [
      { LedgerEntryType: 'AccountRoot', Account: issuer, Balance: '599999999999999990', Flags: 0, OwnerCount: 0, PreviousTxnID: '00'.repeat(32), PreviousTxnLgrSeq: 2838700, Sequence: 2, index: keylet.account(issuerId!) },
      { LedgerEntryType: 'DirectoryNode', Flags: 0, Owner: issuer, RootIndex: keylet.ownerDir(issuerId!), Indexes: [lineKey], index: keylet.ownerDir(issuerId!) },
      {
        LedgerEntryType: 'SkywellState',
        // The holder holds 12.5 CNY of the issuer's: kept from the low account's side.
        Balance: amount('jjjjjjjjjjjjjjjjjjjjBZbvri', issuerIsLow ? '-12.5' : '12.5'),
        Flags: issuerIsLow ? 0x00020000 : 0x00010000,
        LowLimit: issuerIsLow ? amount(issuer, '0') : amount(holder, '100'),
        HighLimit: issuerIsLow ? amount(holder, '100') : amount(issuer, '0'),
        LowNode: '0',
        HighNode: '0',
        PreviousTxnID: '00'.repeat(32),
        PreviousTxnLgrSeq: 2838700,
        index: lineKey,
      },
    ];
    const jingtumChain = new TestChain({ profile: jingtum, ledgers: [{ ledger: { ...header.ledger, accountState: state } }] });
    expect(await gatewayBalances(request({ account: issuer }), jingtumChain.context)).toMatchObject({ account: issuer, obligations: { CNY: '12.5' } });
  });
});
