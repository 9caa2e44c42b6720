import { describe, expect, it } from 'vitest';
import { AccountNotFound, Internal, OutOfRange, RateLimited, UpstreamUnavailable } from '@ledger-node/errors';
import { errorFields, RpcError } from '@ledger-node/rippled-api';
import { getProfile } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { commandRunner } from '../commands';
import type { RippledContext } from '../method';
import { rippledErrorOf, rippledMethods, rippledMethodsFor } from './index';
import { request } from './test-context';
import { random } from './ping';

describe('rippledMethods', () => {
  it('serves the read API, manifest, submit and the forwarded commands; subscriptions are the transport\'s', () => {
    expect(Object.keys(rippledMethods).sort()).toEqual([
      'account_channels',
      'account_currencies',
      'account_info',
      'account_lines',
      'account_nfts',
      'account_objects',
      'account_offers',
      'account_tx',
      'amm_info',
      'book_changes',
      'book_offers',
      'channel_verify',
      'deposit_authorized',
      'feature',
      'fee',
      'gateway_balances',
      'get_aggregate_price',
      'ledger',
      'ledger_closed',
      'ledger_current',
      'ledger_data',
      'ledger_entry',
      'ledger_index',
      'manifest',
      'nft_buy_offers',
      'nft_history',
      'nft_info',
      'nft_sell_offers',
      'noripple_check',
      'path_find',
      'ping',
      'random',
      'ripple_path_find',
      'server_definitions',
      'server_info',
      'server_state',
      'simulate',
      'submit',
      'submit_multisigned',
      'transaction_entry',
      'tx',
      'vault_info',
      'version',
    ]);
  });

  it('leaves out on Jingtum the methods over objects its ledger does not have, and keeps the rest', () => {
    expect(rippledMethodsFor(getProfile('xrpl'))).toBe(rippledMethods);
    const jingtum = Object.keys(rippledMethodsFor(getProfile('jingtum')));
    for (const command of ['account_nfts', 'amm_info', 'get_aggregate_price', 'nft_buy_offers', 'nft_history', 'nft_info', 'nft_sell_offers', 'vault_info']) expect(jingtum).not.toContain(command);
    for (const command of ['gateway_balances', 'noripple_check', 'account_lines']) expect(jingtum).toContain(command);
  });

  it("answers unknownCmd on Jingtum for the NFT, AMM, vault and oracle methods, as the Jingtum node does", async () => {
    const runner = commandRunner({ methods: rippledMethodsFor(getProfile('jingtum')), context: {} as RippledContext, logger: createLogger('methods-test', 'silent') });
    for (const command of ['account_nfts', 'amm_info', 'get_aggregate_price', 'nft_buy_offers', 'nft_history', 'nft_info', 'nft_sell_offers', 'vault_info']) {
      expect(await runner.run(command, {}, 1, 'ws')).toEqual({ error: { error: 'unknownCmd', error_code: 32, error_message: 'Unknown method.' } });
    }
  });

  it('ping answers an empty result', async () => {
    expect(await rippledMethods.ping(request({}), {} as never)).toEqual({});
  });

  it('random answers 256 fresh random bits as uppercase hex', async () => {
    const [first, second] = [await random(request({}), {} as never), await random(request({}), {} as never)];
    expect(first.random).toMatch(/^[0-9A-F]{64}$/);
    expect(second.random).not.toBe(first.random);
  });

  it("version answers the API versions as rippled's setVersion prints them, per API version", async () => {
    expect(await rippledMethods.version(request({}), {} as never)).toEqual({ version: { first: '1.0.0', good: '1.0.0', last: '1.0.0' } });
    expect(await rippledMethods.version(request({}, 2), {} as never)).toEqual({ version: { first: 1, last: 2 } });
  });
});

describe('rippledErrorOf', () => {
  it("names the node's errors in rippled's terms, with the node's message", () => {
    expect(errorFields(rippledErrorOf(new RateLimited('too many sends')))).toEqual({ error: 'slowDown', error_code: 10, error_message: 'too many sends' });
    expect(rippledErrorOf(new UpstreamUnavailable('no upstream'))).toMatchObject({ token: 'noNetwork', code: 17 });
    expect(rippledErrorOf(new OutOfRange('not stored'))).toMatchObject({ token: 'lgrNotFound' });
    expect(rippledErrorOf(new AccountNotFound('no account'))).toMatchObject({ token: 'actNotFound' });
  });

  it('keeps a rippled error as it is and leaves internal errors to the transport', () => {
    const error = new RpcError('txnNotFound');
    expect(rippledErrorOf(error)).toBe(error);
    expect(rippledErrorOf(new Internal('boom'))).toBeUndefined();
    expect(rippledErrorOf(new Error('boom'))).toBeUndefined();
  });
});
