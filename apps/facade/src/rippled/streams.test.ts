import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { RpcError } from '@ledger-node/rippled-api';
import { readFromLedger, readSubscription } from './streams';

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
