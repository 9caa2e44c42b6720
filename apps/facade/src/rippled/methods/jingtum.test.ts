/**
 * The same methods on `-chain jingtum`: j-addresses, SWT, SkywellState trust lines printed with
 * `no_skywell`, through the profile.
 */
import { describe, expect, it } from 'vitest';
import { currencyToBytes, getProfile, keylet } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { accountInfo } from './account-info';
import { accountLines } from './account-lines';
import { ledgerEntry } from './ledger-entry';
import { serverInfo } from './server-info';
import { request, TestChain, type FixtureLedger } from './test-context';

const jingtum = getProfile('jingtum');
const header = readFixture<FixtureLedger>('jingtum/ledgers/2838718-header.json');
const genesis = jingtum.genesis.address;
const peer = jingtum.codec.encodeAccountId(new Uint8Array(20).fill(9));
const [low, high] = [genesis, peer].sort((a, b) => Buffer.compare(Buffer.from(jingtum.codec.decodeAccountId(a)), Buffer.from(jingtum.codec.decodeAccountId(b))));
const id = (address: string) => jingtum.codec.decodeAccountId(address);

const root = {
  Account: genesis,
  Balance: '599999999999999990',
  Flags: 0,
  LedgerEntryType: 'AccountRoot',
  OwnerCount: 1,
  PreviousTxnID: '00'.repeat(32),
  PreviousTxnLgrSeq: 2838700,
  Sequence: 2,
  index: keylet.account(id(genesis)),
};
const line = {
  // The balance is kept from the low account's side: genesis holds 5 CNY of its peer's.
  Balance: { currency: 'CNY', issuer: 'jjjjjjjjjjjjjjjjjjjjBZbvri', value: low === genesis ? '5' : '-5' },
  Flags: low === genesis ? 0x00010000 : 0x00020000,
  HighLimit: { currency: 'CNY', issuer: high, value: high === genesis ? '100' : '0' },
  HighNode: '0000000000000000',
  LedgerEntryType: 'SkywellState',
  LowLimit: { currency: 'CNY', issuer: low, value: low === genesis ? '100' : '0' },
  LowNode: '0000000000000000',
  PreviousTxnID: '00'.repeat(32),
  PreviousTxnLgrSeq: 2838700,
  index: keylet.rippleState(id(low), id(high), currencyToBytes('CNY', 'SWT')),
};
const chain = new TestChain({ profile: jingtum, ledgers: [{ ledger: { ...header.ledger, accountState: [root, line] } }] });

describe('rippled methods on a Jingtum chain', () => {
  it("server_info names the fees after SWT", async () => {
    const { info } = (await serverInfo(request({}), chain.context)) as { info: Record<string, any> };
    expect(info.validated_ledger).toMatchObject({ seq: 2838718, base_fee_swt: Number(jingtum.baseFee) / 1e6 });
    expect(info.validated_ledger.base_fee_xrp).toBeUndefined();
  });

  it('account_info answers a j-address, and refuses an r-address as malformed', async () => {
    expect((await accountInfo(request({ account: genesis }), chain.context)).account_data).toEqual(root);
    await expect(accountInfo(request({ account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' }), chain.context)).rejects.toMatchObject({ token: 'actMalformed' });
  });

  it('account_lines reads SkywellState lines and prints no_skywell', async () => {
    const { lines } = await accountLines(request({ account: genesis }), chain.context);
    expect(lines).toEqual([
      { account: peer, balance: '5', currency: 'CNY', limit: '100', limit_peer: '0', no_skywell: false, no_skywell_peer: false, quality_in: 0, quality_out: 0 },
    ]);
  });

  it('ledger_entry ripple_state finds a SkywellState by j-addresses', async () => {
    const answer = await ledgerEntry(request({ ripple_state: { accounts: [genesis, peer], currency: 'CNY' } }), chain.context);
    expect(answer.node).toEqual(line);
  });
});
