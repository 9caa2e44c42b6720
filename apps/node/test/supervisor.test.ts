import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { alive, childPids, cliEntry, freePort, processesNaming, startProcess, stopAll, supervisorStatus, tempDir, waitUntil } from '@ledger-node/test-utils';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function rpc(port: number, body: unknown): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

/** A node without sync; resolves once each of its four services has said it is ready (in any order). */
async function startNode() {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  const port = await freePort();
  const node = startProcess([cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(port)]);
  for (const service of ['ledger-store', 'keystore', 'submission', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`));
  return { node, port, dir };
}

describe('ledger-node (supervisor)', () => {
  it('answers jt_blockNumber from ledger-store over gRPC, in the seed shape', async () => {
    const { port } = await startNode();
    const answer = await rpc(port, { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 1 });
    expect(JSON.stringify(answer)).toBe('{"id":1,"jsonrpc":"2.0","result":0,"status":"success"}');
  });

  it('with -read_only starts no keystore and no submission: reads answer, and what would sign or send says the node is read-only', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const [port, apiPort] = [await freePort(), await freePort()];
    const node = startProcess([cliEntry(), '-rpc', '-api', '-sync=false', '-read_only', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-apiaddr', '127.0.0.1', '-apiport', String(apiPort)]);
    await node.waitFor(/facade\s+ready/);
    expect([...childPids(node).keys()].sort()).toEqual(['facade', 'ledger-store']);
    expect(await rpc(port, { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 1 })).toMatchObject({ result: 0 });
    const readOnly = expect.stringContaining('this node is read-only (-read_only)');
    expect(await rpc(port, { jsonrpc: '2.0', method: 'jt_accounts', params: [], id: 2 })).toMatchObject({ error: { message: readOnly } });
    const payment = { from: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', to: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', value: '1000' };
    expect(await rpc(port, { jsonrpc: '2.0', method: 'jt_sendTransaction', params: [payment], id: 3 })).toMatchObject({ error: { message: readOnly } });
    const submitted = await fetch(`http://127.0.0.1:${apiPort}/v1/transactions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_blob: '1200' }) });
    expect(submitted.status).toBe(501);
    expect(await submitted.json()).toMatchObject({ error: { code: 'unimplemented', message: readOnly } });
    expect(await node.stop('SIGTERM', 12_000)).toBe(0);
  });

  it('starts each service as its own process and stops them all on SIGTERM, exiting 0', async () => {
    const { node } = await startNode();
    const pids = childPids(node);
    expect([...pids.keys()].sort()).toEqual(['facade', 'keystore', 'ledger-store', 'submission']);
    expect(new Set(pids.values()).size).toBe(4);
    expect([...pids.values()].every(alive)).toBe(true);
    const code = await node.stop('SIGTERM', 12_000);
    expect(code).toBe(0);
    expect(node.output()).toContain('all services stopped');
    expect([...pids.values()].filter(alive)).toEqual([]);
  });

  it('stops on SIGINT too', async () => {
    const { node } = await startNode();
    const pids = [...childPids(node).values()];
    expect(await node.stop('SIGINT', 12_000)).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  });

  it("says the facade is ready only once the services it calls are ready too", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const port = await freePort();
    const node = startProcess([cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(port)]);
    const submissionPid = Number((await node.waitFor(/submission\s+starting\s+pid (\d+)/))[1]);
    process.kill(submissionPid, 'SIGSTOP');
    try {
      await node.waitFor(/facade serving/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(node.output()).not.toMatch(/facade\s+ready/);
    } finally {
      process.kill(submissionPid, 'SIGCONT');
    }
    await node.waitFor(/facade\s+ready/);
    const statuses = supervisorStatus(node);
    const readyAt = (service: string) => statuses.findIndex((status) => status.child === service && status.state === 'ready');
    expect(readyAt('submission')).toBeGreaterThan(-1);
    expect(readyAt('facade')).toBeGreaterThan(readyAt('submission'));
  });

  it('restarts a crashed child and keeps serving', async () => {
    const { node, port } = await startNode();
    const storePid = childPids(node).get('ledger-store')!;
    process.kill(storePid, 'SIGKILL');
    await node.waitFor(/ledger-store\s+crashed\s+pid \d+\s+signal SIGKILL; restart #1/);
    await node.waitFor(/ledger-store\s+ready.*\n(.|\n)*ledger-store\s+ready/);
    const newPid = childPids(node).get('ledger-store')!;
    expect(newPid).not.toBe(storePid);
    const answer = await rpc(port, { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 7 });
    expect(answer).toEqual({ id: 7, jsonrpc: '2.0', result: 0, status: 'success' });
  });

  it('gives the keystore passphrase from LEDGER_NODE_PASSWORD to the keystore only, not to the other services', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const passphrase = 'a passphrase for the keystore alone';
    const node = startProcess([cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(await freePort())], {
      env: { LEDGER_NODE_PASSWORD: passphrase },
    });
    for (const service of ['ledger-store', 'keystore', 'submission', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`));
    const holding = [...childPids(node)].filter(([, pid]) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`LEDGER_NODE_PASSWORD=${passphrase}`));
    expect(holding.map(([service]) => service)).toEqual(['keystore']);
  });

  it('children stop by themselves when the supervisor is killed outright', async () => {
    const { node } = await startNode();
    const pids = [...childPids(node).values()];
    process.kill(node.pid, 'SIGKILL');
    await node.exited;
    const deadline = Date.now() + 10_000;
    while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(pids.filter(alive)).toEqual([]);
  });

  it('refuses to start beside an earlier node still running on the same data directory, and says so', async () => {
    const { node, port, dir } = await startNode();
    const second = startProcess([cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(await freePort())]);
    expect(await second.exited).toBe(2);
    expect(second.output()).toMatch(new RegExp(`${dir} is in use: .*ledger-store.* of an earlier node still answer under ${dir}/run; stop that node first`));
    expect(await rpc(port, { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 1 })).toMatchObject({ id: 1 });
    expect(alive(node.pid)).toBe(true);
  });

  it('children killed with the supervisor in its first moments, while they load, stop by themselves too', async () => {
    const { dir, remove } = tempDir();
    // Whatever outlives a failure of this test is killed by its pid.
    cleanups.push(() => processesNaming(dir).forEach((pid) => process.kill(pid, 'SIGKILL')), remove);
    const node = startProcess([cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(await freePort())]);
    await waitUntil(() => processesNaming(dir).length > 1 || undefined, 10_000, 'children started');
    process.kill(node.pid, 'SIGKILL');
    await node.exited;
    await waitUntil(() => processesNaming(dir).length === 0 || undefined, 20_000, 'no process of that node left');
  });

  it('runs a whole node on an embedded devnet, shows ledgers arriving, and stops every service with code 0, each after those started after it', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const port = await freePort();
    const node = startProcess([cliEntry(), '-dev', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-data_dir', dir]);
    for (const service of ['devnet', 'ledger-store', 'keystore', 'submission', 'sync', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`));
    // Sync's summary of the ledgers it stored (sync-summary.ts).
    await node.waitFor(/"service":"sync".*"msg":"at ledger \d+/, 30_000);
    expect([...childPids(node).keys()].sort()).toEqual(['devnet', 'facade', 'keystore', 'ledger-store', 'submission', 'sync']);
    expect(await node.stop('SIGTERM', 12_000)).toBe(0);
    const stopped = supervisorStatus(node).filter((status) => status.state === 'stopped');
    expect(stopped.map((status) => status.child)).toEqual(['facade', 'sync', 'submission', 'keystore', 'ledger-store', 'devnet']);
    // Each child ends on the supervisor's SIGTERM: by its own clean exit, or by the signal itself; never by a timeout or a kill.
    expect(stopped.filter((status) => !/(code 0|signal SIGTERM)$/.test(status.msg))).toEqual([]);
    expect(node.output()).not.toMatch(/did not stop|killed/);
  }, 60_000);

  it('gives up with exit code 1 when a service cannot start', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const port = await freePort();
    // The REST listener and the JSON-RPC listener on one port: the facade cannot bind the second.
    const node = startProcess([cliEntry(), '-rpc', '-api', '-sync=false', '-data_dir', dir, '-rpcport', String(port), '-apiport', String(port)]);
    expect(await node.exited).toBe(1);
    expect(node.output()).toMatch(/facade\s+failed .*giving up/);
  }, 90_000);
});
