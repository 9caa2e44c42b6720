/**
 * The WebSocket handlers over the live engine, in process: trust-line paging, ledger_entry by
 * trust line, API v2 ledger shapes, server_info/fee figures and the Jingtum profile's names.
 */
import { devnetNetworkKeys, getProfile, keylet } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { waitUntil } from '@ledger-node/test-utils';
import { Wallet, type Transaction } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetChain } from '../src/engine';
import { LiveLedgerSource } from '../src/ws/live-source';
import { DevnetNetwork } from '../src/network/network';
import { answer } from '../src/ws/server';
import { Subscriber } from '../src/ws/subscriptions';

type Json = Record<string, any>;

const logger = createLogger('devnet-test', 'silent');

function handlersOver(chainId: 'xrpl' | 'jingtum') {
  const profile = getProfile(chainId);
  const source = new LiveLedgerSource(createDevnetChain(profile), { closeMs: 60_000, logger });
  const network = new DevnetNetwork(profile, devnetNetworkKeys());
  const subscriber = new Subscriber(source, network, () => {});
  let id = 0;
  const call = (request: Json): Json => answer(JSON.stringify({ id: ++id, ...request }), { source, network, subscriber, startedAtMs: Date.now(), logger });
  const ok = (request: Json): Json => {
    const response = call(request);
    if (response.status !== 'success') throw new Error(`${JSON.stringify(request)} failed: ${JSON.stringify(response)}`);
    return response.result;
  };
  return { profile, source, call, ok };
}

describe('live handlers (XRP Ledger profile)', () => {
  const { profile, source, call, ok } = handlersOver('xrpl');
  const genesis = Wallet.fromSeed(profile.genesis.secret);
  const holder = Wallet.generate();
  const currencies = ['CNY', 'EUR', 'USD'];

  const submitSigned = (wallet: Wallet, tx: Json) => {
    const sequence = ok({ command: 'account_info', account: wallet.classicAddress, ledger_index: 'current' }).account_data.Sequence;
    const { tx_blob: txBlob } = wallet.sign({ Account: wallet.classicAddress, Fee: '10', Sequence: sequence, ...tx } as Transaction);
    const result = ok({ command: 'submit', tx_blob: txBlob });
    expect(result.engine_result).toBe('tesSUCCESS');
  };

  beforeAll(() => {
    submitSigned(genesis, { TransactionType: 'Payment', Destination: holder.classicAddress, Amount: '100000000' });
    ok({ command: 'ledger_accept' });
    for (const currency of currencies) {
      submitSigned(holder, { TransactionType: 'TrustSet', LimitAmount: { currency, issuer: genesis.classicAddress, value: '500' } });
    }
    ok({ command: 'ledger_accept' });
  });

  afterAll(() => source.stop());

  it('pages account_lines with limit and marker, every line once', () => {
    const all = ok({ command: 'account_lines', account: holder.classicAddress, ledger_index: 'validated' });
    expect(all.lines.map((line: Json) => line.currency).sort()).toEqual(currencies);
    const paged: Json[] = [];
    let marker: unknown;
    do {
      const page = ok({ command: 'account_lines', account: holder.classicAddress, ledger_index: 'validated', limit: 1, marker });
      expect(page.lines.length).toBeLessThanOrEqual(1);
      paged.push(...page.lines);
      marker = page.marker;
    } while (marker !== undefined);
    expect(paged).toEqual(all.lines);
  });

  it('filters account_lines by peer', () => {
    const stranger = Wallet.generate().classicAddress;
    expect(ok({ command: 'account_lines', account: holder.classicAddress, peer: stranger }).lines).toEqual([]);
    expect(ok({ command: 'account_lines', account: holder.classicAddress, peer: genesis.classicAddress }).lines).toHaveLength(3);
  });

  it('reads a trust line with ledger_entry ripple_state, in JSON and binary', () => {
    const request = {
      command: 'ledger_entry',
      ripple_state: { accounts: [holder.classicAddress, genesis.classicAddress], currency: 'EUR' },
      ledger_index: 'validated',
    };
    const json = ok(request);
    expect(json.node).toMatchObject({ LedgerEntryType: 'RippleState', Balance: { currency: 'EUR', value: '0' } });
    const binary = ok({ ...request, binary: true });
    expect(binary.index).toBe(json.index);
    expect(typeof binary.node_binary).toBe('string');
    const badCurrency = call({ ...request, ripple_state: { accounts: [holder.classicAddress, genesis.classicAddress], currency: 'EURO!' } });
    expect(badCurrency).toMatchObject({ status: 'error', error: 'invalidParams', error_message: 'malformedCurrency' });
  });

  it('prints ledger_index as a number and adds close_time_iso for API v2', () => {
    const v1 = ok({ command: 'ledger', ledger_index: 'validated' });
    const v2 = ok({ command: 'ledger', ledger_index: 'validated', api_version: 2 });
    expect(v1.ledger.ledger_index).toBe(String(v1.ledger_index));
    expect(v2.ledger.ledger_index).toBe(v2.ledger_index);
    expect(v2.ledger.close_time_iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(v2.ledger.close_time_iso) / 1000 - 946_684_800).toBe(v2.ledger.close_time);
  });

  it('shows the open ledger for ledger_index "current"', () => {
    const current = ok({ command: 'ledger', ledger_index: 'current' });
    const validated = ok({ command: 'ledger_closed' });
    expect(current).toMatchObject({
      ledger: { closed: false, ledger_index: String(validated.ledger_index + 1), parent_hash: validated.ledger_hash },
      ledger_current_index: validated.ledger_index + 1,
      validated: false,
    });
  });

  it('reports the profile fees in server_info (native units) and fee (drops)', () => {
    const info = ok({ command: 'server_info' }).info;
    expect(info.validated_ledger).toMatchObject({
      base_fee_xrp: Number(profile.baseFee) / 1e6,
      reserve_base_xrp: Number(profile.reserveBase) / 1e6,
      reserve_inc_xrp: Number(profile.reserveIncrement) / 1e6,
    });
    expect(info.complete_ledgers).toBe(`1-${info.validated_ledger.seq}`);
    expect(info.network_id).toBe(0);
    const fee = ok({ command: 'fee' });
    expect(fee.drops).toMatchObject({ base_fee: profile.baseFee.toString(), open_ledger_fee: profile.baseFee.toString() });
    expect(fee.ledger_current_index).toBe(info.validated_ledger.seq + 1);
  });
});

describe('live handlers (Jingtum profile)', () => {
  const { profile, source, ok } = handlersOver('jingtum');
  afterAll(() => source.stop());

  it('names fees after SWT in server_info and shows j-addresses', () => {
    const info = ok({ command: 'server_info' }).info;
    expect(info.validated_ledger).toMatchObject({ base_fee_swt: Number(profile.baseFee) / 1e6, reserve_base_swt: Number(profile.reserveBase) / 1e6 });
    const root = ok({ command: 'account_info', account: profile.genesis.address, ledger_index: 'validated' });
    expect(root.account_data.Account).toBe(profile.genesis.address);
    expect(profile.genesis.address.startsWith('j')).toBe(true);
  });
});

describe('ledger closing on the live chain', () => {
  it('closes after closeMs when a transaction is pending, and only every idleCloseMs when none is', async () => {
    const profile = getProfile('xrpl');
    const source = new LiveLedgerSource(createDevnetChain(profile), { closeMs: 100, idleCloseMs: 1000, logger });
    const closes: Array<{ atMs: number; txCount: number }> = [];
    const stopFollowing = source.followLedgers((ledger) => closes.push({ atMs: Date.now(), txCount: ledger.transactions.length }));
    const startedAtMs = Date.now();
    source.startClosing();
    try {
      await waitUntil(() => closes.length >= 2, 5000, 'two ledger closes', 20);
      // Idle: nothing is pending, so no close comes before the idle interval has passed.
      expect(closes[0]!.atMs - startedAtMs).toBeGreaterThanOrEqual(1000);
      expect(closes[1]!.atMs - closes[0]!.atMs).toBeGreaterThanOrEqual(1000);
      expect(closes.map((close) => close.txCount)).toEqual([0, 0]);

      const genesis = Wallet.fromSeed(profile.genesis.secret);
      const sequence = source.stateEntry(accountIndexOf(profile, genesis.classicAddress), source.openLedgerIndex())!.json.Sequence as number;
      const { tx_blob: txBlob } = genesis.sign({
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: Wallet.generate().classicAddress,
        Amount: '10000000',
        Fee: '10',
        Sequence: sequence,
      });
      const submittedAtMs = Date.now();
      expect(source.submit(txBlob).engineResult).toBe('tesSUCCESS');
      await waitUntil(() => closes.some((close) => close.txCount === 1), 5000, 'a close with the transaction', 20);
      const withTx = closes.find((close) => close.txCount === 1)!;
      // Pending: the close comes on the short interval, long before the idle one would.
      expect(withTx.atMs - submittedAtMs).toBeLessThan(900);
    } finally {
      stopFollowing();
      source.stop();
    }
  });
});

function accountIndexOf(profile: ReturnType<typeof getProfile>, address: string): string {
  return keylet.account(profile.codec.decodeAccountId(address));
}

