/**
 * The load generator (`-load TPS -load_accounts N`) on a devnet process: it funds its accounts,
 * then its random native and issued payments land in validated ledgers that still verify.
 */
import { stopAll, WsClient, type WsMessage } from '@ledger-node/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type DevnetProcess } from './support/devnet-process';
import { verifyLedger } from './support/verify-ledger';

const TPS = 40;
const ACCOUNTS = 4;

let devnet: DevnetProcess;
let client: WsClient;

beforeAll(async () => {
  devnet = await startDevnet(['-close_ms', '250', '-load', String(TPS), '-load_accounts', String(ACCOUNTS)]);
  client = await WsClient.open(devnet.url);
});

afterAll(async () => {
  await client?.close();
  await devnet?.stop();
  await stopAll();
});

function logLine(pattern: RegExp): WsMessage {
  const line = devnet.process.output().split('\n').find((candidate) => pattern.test(candidate));
  if (!line) throw new Error(`no log line matches ${pattern}`);
  return JSON.parse(line) as WsMessage;
}

describe('devnet -load', () => {
  it('funds its accounts, then logs a summary of the payments it submits', async () => {
    await devnet.process.waitFor(/load generator ready/, 20_000);
    expect(logLine(/load generator ready/)).toMatchObject({ accounts: ACCOUNTS, currency: 'USD', tps: TPS });
    await devnet.process.waitFor(/load summary/, 15_000);
    const summary = logLine(/load summary/);
    expect(summary.submitted).toBeGreaterThan(TPS);
    expect(summary.results.tesSUCCESS).toBeGreaterThan(0);
  });

  it('puts native and issued-currency payments between its accounts into ledgers that verify', async () => {
    const issuer: string = logLine(/load generator ready/).issuer;
    const validated = (await client.request({ command: 'ledger_closed' })).result.ledger_index as number;
    const kinds = new Set<string>();
    let payments = 0;
    for (let ledgerIndex = validated; ledgerIndex > validated - 4; ledgerIndex--) {
      await verifyLedger(async (body) => (await client.request(body)).result, ledgerIndex, 16);
      const ledger = (await client.request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true })).result.ledger;
      for (const tx of ledger.transactions) {
        if (tx.TransactionType !== 'Payment' || tx.Account === issuer) continue;
        payments++;
        kinds.add(typeof tx.Amount === 'string' ? 'native' : `${tx.Amount.currency}/${tx.Amount.issuer}`);
      }
    }
    expect(payments).toBeGreaterThan(0);
    expect([...kinds].sort()).toEqual([`USD/${issuer}`, 'native']);
  });
});
