/**
 * LEDGER_NODE_DEVNET_HISTORY=LEDGERSxTXS (the benchmark's history): before it listens, a live devnet
 * funds -load_accounts accounts and closes LEDGERS ledgers of exactly TXS signed payments each,
 * through the same submit path as the load generator, and every one of them verifies.
 */
import { cliEntry, freePort, startProcess, stopAll, type RunningProcess, WsClient } from '@ledger-node/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFlags, parseFlags } from '@ledger-node/config';
import { devnetConfig, historyPlan } from '../src/config';
import { verifyLedger } from './support/verify-ledger';

const LEDGERS = 3;
const PER_LEDGER = 5;
/** Genesis, then the set-up ledgers: funding, trust lines and AccountSet, issued funding. */
const SETUP_LEDGERS = 3;

describe('historyPlan (LEDGER_NODE_DEVNET_HISTORY)', () => {
  it('reads LEDGERSxTRANSACTIONS', () => {
    expect(historyPlan('400x50')).toEqual({ ledgers: 400, transactionsPerLedger: 50 });
    expect(historyPlan(undefined)).toBeUndefined();
    expect(historyPlan('')).toBeUndefined();
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['400', '0x50', '400x0', 'x50', '400x50x2', '-1x5']) {
      expect(() => historyPlan(value), value).toThrow(/LEDGER_NODE_DEVNET_HISTORY must be LEDGERSxTRANSACTIONS/);
    }
  });

  it('cannot be combined with -replay', () => {
    const previous = process.env.LEDGER_NODE_DEVNET_HISTORY;
    process.env.LEDGER_NODE_DEVNET_HISTORY = '2x2';
    try {
      expect(() => devnetConfig(parseFlags(['-replay', '/data'], allFlags).flags)).toThrow(/cannot be combined with -replay/);
    } finally {
      if (previous === undefined) delete process.env.LEDGER_NODE_DEVNET_HISTORY;
      else process.env.LEDGER_NODE_DEVNET_HISTORY = previous;
    }
  });
});

describe('devnet with LEDGER_NODE_DEVNET_HISTORY', () => {
  let devnet: RunningProcess;
  let client: WsClient;

  beforeAll(async () => {
    const port = await freePort();
    devnet = startProcess([cliEntry(), 'devnet', '-port', String(port), '-log_level', 'info', '-load_accounts', '3', '-close_ms', '60000'], {
      env: { LEDGER_NODE_DEVNET_HISTORY: `${LEDGERS}x${PER_LEDGER}` },
    });
    const [, url] = (await devnet.waitFor(/devnet listening on (ws:\/\/[\w.:]+)/, 30_000)) as RegExpMatchArray;
    client = await WsClient.open(url!);
  });

  afterAll(async () => {
    await client?.close();
    await stopAll();
  });

  it('listens with the whole history closed and validated', async () => {
    const { result } = await client.request({ command: 'server_info' });
    expect(result.info.validated_ledger.seq).toBe(1 + SETUP_LEDGERS + LEDGERS);
    expect(result.info.complete_ledgers).toBe(`1-${1 + SETUP_LEDGERS + LEDGERS}`);
  });

  it('closes each history ledger with exactly the payments asked for, all applied, and each ledger verifies', async () => {
    for (let ledgerIndex = 2 + SETUP_LEDGERS; ledgerIndex <= 1 + SETUP_LEDGERS + LEDGERS; ledgerIndex++) {
      await verifyLedger(async (body) => (await client.request(body)).result, ledgerIndex, 16);
      const { ledger } = (await client.request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true })).result;
      expect(ledger.transactions).toHaveLength(PER_LEDGER);
      for (const tx of ledger.transactions) {
        expect(tx.TransactionType).toBe('Payment');
        expect(typeof tx.TxnSignature).toBe('string');
        expect(tx.metaData.TransactionResult).toBe('tesSUCCESS');
      }
    }
  });

  it('logs what it built', () => {
    const line = devnet.output().split('\n').find((candidate) => candidate.includes('"history built"'));
    expect(JSON.parse(line!)).toMatchObject({ ledgers: LEDGERS, transactionsPerLedger: PER_LEDGER, results: { tesSUCCESS: LEDGERS * PER_LEDGER } });
  });
});
