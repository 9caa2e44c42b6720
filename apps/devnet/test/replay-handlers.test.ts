/**
 * The WebSocket handlers over recorded real ledgers, in process: state paging of full-state
 * mainnet ledgers 38129 and 40000 (checked against their recorded account_hash with `xrpl`'s
 * hashStateTree), state reads and account history over ledger 7501326.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { devnetNetworkKeys, getProfile } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { fixturesDir, readFixture, tempDir } from '@ledger-node/test-utils';
import { hashes } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordedLedgers } from '../src/replay/recorded-ledgers';
import { ReplayLedgerSource } from '../src/replay/replay-source';
import { DevnetNetwork } from '../src/network/network';
import { answer } from '../src/ws/server';
import { Subscriber } from '../src/ws/subscriptions';

type Json = Record<string, any>;

const files = ['38129-full-state.json', '40000-full-state.json', '7501326.json'];
const recorded = Object.fromEntries(files.map((file) => [file, readFixture<{ ledger: Json; ledger_hash: string }>(`xrpl/ledgers/mainnet/${file}`)]));

let source: ReplayLedgerSource;
let call: (request: Json) => Json;
const folder = tempDir('devnet-replay-handlers-');

beforeAll(() => {
  for (const file of files) copyFileSync(path.join(fixturesDir(), 'xrpl/ledgers/mainnet', file), path.join(folder.dir, file));
  const profile = getProfile('xrpl');
  const logger = createLogger('devnet-test', 'silent');
  const read = readRecordedLedgers(folder.dir, profile);
  expect(read.failures).toEqual([]);
  source = new ReplayLedgerSource(profile, read.ledgers, { ledgersPerSecond: 1, logger });
  const network = new DevnetNetwork(profile, devnetNetworkKeys());
  const subscriber = new Subscriber(source, network, () => {});
  let id = 0;
  call = (request) => answer(JSON.stringify({ id: ++id, ...request }), { source, network, subscriber, startedAtMs: Date.now(), logger });
});

afterAll(() => {
  source?.stop();
  folder.remove();
});

function readAllState(ledgerIndex: number, limit: number): Json[] {
  const entries: Json[] = [];
  let marker: unknown;
  do {
    const response = call({ command: 'ledger_data', ledger_index: ledgerIndex, limit, marker });
    expect(response.status).toBe('success');
    expect(response.result.state.length).toBeLessThanOrEqual(limit);
    entries.push(...response.result.state);
    marker = response.result.marker;
  } while (marker !== undefined);
  return entries;
}

describe('replayed ledgers through the WebSocket handlers', () => {
  it('reports the ranges it holds, non-contiguous ones separated by commas', () => {
    expect(call({ command: 'server_info' }).result.info.complete_ledgers).toBe('38129,40000,7501326');
  });

  it.each([
    ['38129-full-state.json', 38129],
    ['40000-full-state.json', 40000],
  ])('pages ledger_data of %s with every object once, hashing to the recorded account_hash', (file, ledgerIndex) => {
    const entries = readAllState(ledgerIndex, 50);
    const recordedState: Json[] = recorded[file]!.ledger.accountState;
    expect(entries).toHaveLength(recordedState.length);
    expect(new Set(entries.map((entry) => entry.index)).size).toBe(entries.length);
    expect(hashes.hashStateTree(entries as never)).toBe(recorded[file]!.ledger.account_hash);
  });

  it('returns the recorded header with the first ledger_data page only', () => {
    const first = call({ command: 'ledger_data', ledger_index: 40000, limit: 5 });
    expect(first.result.ledger.ledger_hash).toBe(recorded['40000-full-state.json']!.ledger_hash);
    const second = call({ command: 'ledger_data', ledger_index: 40000, limit: 5, marker: first.result.marker });
    expect(second.result.ledger).toBeUndefined();
    expect(second.result.state[0].index > first.result.state.at(-1).index).toBe(true);
  });

  it('reads an account root at a recorded full-state ledger with account_info and ledger_entry', () => {
    const root = (recorded['38129-full-state.json']!.ledger.accountState as Json[]).find((entry) => entry.LedgerEntryType === 'AccountRoot')!;
    const info = call({ command: 'account_info', account: root.Account, ledger_index: 38129 });
    expect(info.result).toMatchObject({
      account_data: { Account: root.Account, Balance: root.Balance, Sequence: root.Sequence, index: root.index },
      ledger_index: 38129,
      validated: true,
    });
    const entry = call({ command: 'ledger_entry', account_root: root.Account, ledger_index: 38129 });
    expect(entry.result.index).toBe(root.index);
  });

  it('refuses state reads at a recorded ledger that came without its state', () => {
    const response = call({ command: 'ledger_data', ledger_index: 7501326 });
    expect(response).toMatchObject({ status: 'error', error: 'notSupported' });
  });

  it('pages account_tx over recorded transactions with every one of the account once', () => {
    const transactions: Json[] = recorded['7501326.json']!.ledger.transactions;
    const account: string = transactions[0]!.Account;
    const sent = transactions.filter((tx) => tx.Account === account).map((tx) => tx.hash);
    const single = call({ command: 'account_tx', account, limit: 100 });
    const allHashes: string[] = single.result.transactions.map((entry: Json) => entry.tx.hash);
    expect(allHashes).toEqual(expect.arrayContaining(sent));
    for (const entry of single.result.transactions) expect(JSON.stringify(entry)).toContain(account);

    const paged: string[] = [];
    let marker: unknown;
    do {
      const page = call({ command: 'account_tx', account, limit: 1, marker });
      paged.push(...page.result.transactions.map((entry: Json) => entry.tx.hash));
      marker = page.result.marker;
    } while (marker !== undefined);
    expect(paged).toEqual(allHashes);
  });
});
