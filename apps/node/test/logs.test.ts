/**
 * What an operator sees: a node started as the README says, without a terminal (JSON lines, as a
 * log collector reads them) and on one (pretty lines), from start to stop.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeEndOfLife } from '@ledger-node/telemetry';
import { cliEntry, freePort, processesNaming, startProcess, stopAll, tempDir, waitUntil } from '@ledger-node/test-utils';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A fresh data directory; whatever outlives a failed test on it is killed by its pid. */
function dataDir(): string {
  const { dir, remove } = tempDir('logs-test-');
  cleanups.push(() => processesNaming(dir).forEach((pid) => process.kill(pid, 'SIGKILL')), remove);
  return dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the node\'s output', () => {
  it('is JSON without a terminal, and a clean start of a -dev node logs no warning (but an end-of-life Node.js), no error and no stack in any service', async () => {
    const dir = dataDir();
    // `npm start` (ledger-node -dev -rpc -api), on free ports and a data directory of its own.
    const node = startProcess([cliEntry(), '-dev', '-rpc', '-api', '-data_dir', dir, '-rpcport', String(await freePort()), '-apiport', String(await freePort())]);
    await node.waitFor(/"msg":"all 6 services ready, /, 90_000);
    // Sync summarises the ledgers it stores every few seconds at info (sync-summary.ts).
    await node.waitFor(/"service":"sync".*"msg":"at ledger \d+, /, 30_000);
    await sleep(3_000);
    expect(await node.stop('SIGTERM', 15_000)).toBe(0);

    const lines = node.output().split('\n').filter((line) => line !== '');
    const records = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    const services = new Set(records.map((record) => record.service));
    expect([...services].sort()).toEqual(['devnet', 'facade', 'keystore', 'ledger-node', 'ledger-store', 'submission', 'sync']);
    // The supervisor's one warning of a Node.js that is end of life, exactly when the node runs on one (Node.js 20).
    const endOfLife = runtimeEndOfLife();
    expect(records.filter((record) => !['debug', 'info'].includes(record.level as string))).toEqual(
      endOfLife === undefined ? [] : [expect.objectContaining({ service: 'ledger-node', level: 'warn', node: process.version, msg: endOfLife })],
    );
    expect(lines.filter((line) => /"stack"|\n\s+at /.test(line))).toEqual([]);
    // One line per stored ledger only at debug.
    expect(records.filter((record) => record.service === 'sync' && /^stored validated ledger/.test(record.msg as string))).toEqual([]);
    expect(records.at(-1)).toMatchObject({ service: 'ledger-node', msg: 'all services stopped' });
  }, 180_000);

  it('is pretty on a terminal, the supervisor\'s lines and the services\' alike, and Ctrl-C stops the node', async () => {
    const dir = dataDir();
    const command = [process.execPath, cliEntry(), '-dev', '-rpc', '-data_dir', dir, '-rpcport', String(await freePort()), '-log_level', 'debug'];
    // util-linux `script` runs the node on a pseudo-terminal of its own and copies what it prints.
    // `exec`: the node replaces script's shell, which (dash as /bin/sh) would itself die of the Ctrl-C.
    const terminal = spawn('script', ['-qefc', `exec ${command.map((word) => `'${word}'`).join(' ')}`, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // No colours, and nothing asking for them (Node warns when FORCE_COLOR, set by some test runners, overrides NO_COLOR).
      env: { ...process.env, FORCE_COLOR: undefined, NO_COLOR: '1' },
    });
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    terminal.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => terminal.once('exit', (code) => resolve(code)));
    cleanups.push(() => terminal.kill('SIGKILL'));
    const seen = (pattern: RegExp) => waitUntil(() => pattern.test(output) || undefined, 90_000, `${pattern} in:\n${output.slice(-3000)}`);

    await seen(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: ledger-node +all 6 services ready, /m);
    await seen(/^\[[\d:.]+\] INFO: ledger-node +devnet +ready +pid \d+ +ws:\/\/127\.0\.0\.1:\d+ \(started in [\d.]+ s\)/m);
    // At -log_level debug, each stored ledger has its line; at info, the summary.
    await seen(/^\[[\d:.]+\] DEBUG: sync +stored validated ledger \d+ \(\d+ transactions\)/m);
    await seen(/^\[[\d:.]+\] INFO: sync +at ledger \d+, /m);
    terminal.stdin.write('\u0003');
    expect(await exited).toBe(0);

    // The terminal echoes the Ctrl-C as "^C".
    const lines = output.replace(/\r/g, '').replace(/\^C/g, '').split('\n').filter((line) => line !== '');
    // The supervisor's warning of an end-of-life Node.js aside (the JSON test above checks when it is there).
    const endOfLife = runtimeEndOfLife();
    const isEndOfLife = (line: string) => endOfLife !== undefined && /^\[[\d:.]+\] WARN: ledger-node /.test(line) && line.endsWith(endOfLife);
    expect(lines.filter((line) => !/^\[\d\d:\d\d:\d\d\.\d{3}\] (DEBUG|INFO): (ledger-node|devnet|ledger-store|keystore|submission|sync|facade) /.test(line) && !isEndOfLife(line))).toEqual([]);
    expect(lines.at(-1)).toMatch(/INFO: ledger-node +all services stopped$/);
  }, 180_000);
});
