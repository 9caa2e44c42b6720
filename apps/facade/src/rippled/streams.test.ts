import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { RpcError } from '@ledger-node/rippled-api';
import { createLogger } from '@ledger-node/telemetry';
import type { LedgerFollower } from '../streams/follower';
import { metricSample } from '../streams/metric-sample';
import { readFromLedger, readSubscription, RippledSubscriptions } from './streams';

const profile = getProfile('xrpl');
const genesis = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

function tokenOf(read: () => unknown): string | undefined {
  try {
    read();
  } catch (error) {
    return error instanceof RpcError ? `${error.token}: ${error.message}` : String(error);
  }
  return undefined;
}

describe('subscribe and unsubscribe requests', () => {
  it('reads the streams served and the accounts of both account lists', () => {
    expect(readSubscription({ streams: ['ledger', 'transactions'], accounts: [genesis], accounts_proposed: [genesis] }, profile)).toEqual({
      streams: ['ledger', 'transactions'],
      accounts: [genesis, genesis],
    });
    expect(readSubscription({}, profile)).toEqual({ streams: [], accounts: [] });
  });

  it("refuses what rippled refuses, with rippled's errors", () => {
    expect(tokenOf(() => readSubscription({ streams: 'ledger' }, profile))).toMatch(/^invalidParams: Invalid field 'streams'/);
    expect(tokenOf(() => readSubscription({ streams: ['ledgers'] }, profile))).toBe('malformedStream: Stream malformed.');
    expect(tokenOf(() => readSubscription({ streams: [7] }, profile))).toBe('malformedStream: Stream malformed.');
    expect(tokenOf(() => readSubscription({ accounts: ['rNotAnAddress'] }, profile))).toBe('actMalformed: Account malformed.');
    expect(tokenOf(() => readSubscription({ accounts: genesis }, profile))).toMatch(/^invalidParams: Invalid field 'accounts'/);
  });

  it('says plainly which streams a node without consensus or peers does not carry', () => {
    expect(readSubscription({ streams: ['server', 'ledger'] }, profile).streams).toEqual(['server', 'ledger']);
    for (const stream of ['validations', 'manifests', 'peer_status', 'consensus', 'book_changes']) {
      expect(tokenOf(() => readSubscription({ streams: [stream] }, profile))).toBe(
        `notSupported: The '${stream}' stream is not served: this node follows validated ledgers from its store.`,
      );
    }
    expect(tokenOf(() => readSubscription({ books: [] }, profile))).toMatch(/^notSupported: Order book streams/);
    expect(tokenOf(() => readSubscription({ url: 'http://example.com' }, profile))).toMatch(/^notSupported: Subscriptions by URL/);
  });

  it('reads from_ledger as an unsigned 32-bit ledger index', () => {
    expect(readFromLedger({})).toBeUndefined();
    expect(readFromLedger({ from_ledger: 0 })).toBe(0);
    expect(readFromLedger({ from_ledger: 4_294_967_295 })).toBe(4_294_967_295);
    for (const bad of [-1, 1.5, 4_294_967_296, '12', null, true]) {
      expect(tokenOf(() => readFromLedger({ from_ledger: bad }))).toMatch(/^invalidParams: Invalid field 'from_ledger', not an unsigned integer/);
    }
  });
});

describe('subscriber metrics', () => {
  /** A follower with no ledger yet: subscriptions are made, and no feed is started here. */
  const follower = { current: async () => undefined, checkResume: async () => undefined, admitResume: () => ({ release() {} }) } as unknown as LedgerFollower;
  const connection = { peer: '192.0.2.1', send: () => true, drained: async () => undefined };
  const server = { random: 'R', serverStatus: async () => 'full' };
  const subscribers = (stream: string) => metricSample('ledger_node_stream_subscribers', { api: 'rippled', stream });

  it('counts the subscriptions open by stream, accounts as one while a connection follows any, until unsubscribed or closed', async () => {
    const streams = ['ledger', 'transactions', 'server', 'accounts'];
    const before = Object.fromEntries(await Promise.all(streams.map(async (stream) => [stream, await subscribers(stream)] as const)));
    const subscriptions = new RippledSubscriptions(follower, { profile, networkId: undefined }, connection, createLogger('streams-test', 'silent'), server);
    await subscriptions.subscribe({ streams: ['ledger', 'transactions'], accounts: [genesis] }, 1);
    // The same streams again count once.
    await subscriptions.subscribe({ streams: ['ledger'], accounts: [genesis] }, 1);
    await subscriptions.subscribe({ streams: ['server'] }, 1);
    expect(await subscribers('ledger')).toBe(before.ledger! + 1);
    expect(await subscribers('transactions')).toBe(before.transactions! + 1);
    expect(await subscribers('server')).toBe(before.server! + 1);
    expect(await subscribers('accounts')).toBe(before.accounts! + 1);
    await subscriptions.unsubscribe({ streams: ['transactions'], accounts: [genesis] });
    expect(await subscribers('transactions')).toBe(before.transactions!);
    expect(await subscribers('accounts')).toBe(before.accounts!);
    expect(await subscribers('ledger')).toBe(before.ledger! + 1);
    subscriptions.close();
    for (const stream of streams) expect(await subscribers(stream), stream).toBe(before[stream]);
    // A subscribe read after the connection closed counts nothing.
    await subscriptions.subscribe({ streams: ['ledger'] }, 1);
    expect(await subscribers('ledger')).toBe(before.ledger!);
  });
});
