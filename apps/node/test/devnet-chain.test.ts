/**
 * `ledger-node -dev` twice on one data directory. Stopped, the embedded devnet saves its chain
 * (`<data_dir>/devnet/chain.json`), and the second start continues it: the same ledgers, the store
 * kept and followed on without a gap. Without a saved chain (a devnet that stopped without saving)
 * the devnet starts a new chain: the second node sets the first chain's store aside, says so, and
 * proves the new chain from a fresh store, never serving the old chain beside it.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEntry, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil } from '@ledger-node/test-utils';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function status(port: number): Promise<Record<string, any>> {
  return (await fetch(`http://127.0.0.1:${port}/v1/status`)).json() as Promise<Record<string, any>>;
}

/** A data directory, the ports of a node on it, and a way to start `-dev` there, and the first chain stored to ledger 20. */
async function firstRun() {
  const { dir, remove } = tempDir('devnet-chain-');
  cleanups.push(remove);
  const [apiPort, rpcPort] = [await freePort(), await freePort()];
  const start = () =>
    startProcess([
      cliEntry(), '-dev', '-close_ms', '200', '-idle_close_ms', '200', '-load', '3', '-load_accounts', '2', '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
      '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-data_dir', dir, '-log_format', 'json',
    ]);
  const first = start();
  const before = await waitUntil(async () => {
    const current = await status(apiPort).catch(() => undefined);
    return current && current.store.highest_ledger_index >= 20 ? current : undefined;
  }, 60_000, 'the first chain stored to ledger 20', 250);
  expect(before.sync.validator_list.state).toBe('accepted');
  const call = rpcClient(rpcPort);
  const hashOf = async (ledgerIndex: number) => (await call('jt_getBlockByNumber', [String(ledgerIndex), false])).result?.ledger.ledger_hash as string | undefined;
  const hash10 = await hashOf(10);
  expect(hash10).toMatch(/^[0-9A-F]{64}$/);
  expect(await first.stop('SIGTERM', 15_000)).toBe(0);
  return { dir, apiPort, start, before, hashOf, hash10 };
}

describe('ledger-node -dev started again', () => {
  it('continues the chain the devnet saved when it stopped, and the store of it: the same ledgers, followed on without a gap', async () => {
    const { dir, apiPort, start, before, hashOf, hash10 } = await firstRun();
    const saved = path.join(dir, 'devnet', 'chain.json');
    expect(existsSync(saved)).toBe(true);

    const second = start();
    await second.waitFor(/the embedded devnet continues the chain it saved in [^\s"]+chain\.json, and this node its store/, 30_000);
    await second.waitFor(new RegExp(`continuing the chain saved in [^\\s"]+chain\\.json: ledgers 1-\\d+`), 30_000);
    const after = await waitUntil(async () => {
      const current = await status(apiPort).catch(() => undefined);
      return current && current.store.highest_ledger_index >= before.store.highest_ledger_index + 10 && current.sync.lag_ledgers <= 2 ? current : undefined;
    }, 60_000, 'the continued chain followed ten ledgers on', 250);
    expect(after.sync.stopped).toBeNull();
    expect(after.store.complete_ranges).toEqual([`1-${after.store.highest_ledger_index}`]);
    expect(await hashOf(10)).toBe(hash10);
    expect(existsSync(path.join(dir, 'node.db.previous-devnet-chain'))).toBe(false);
    // Taken as it was read: a devnet killed from now on would leave none to continue.
    expect(existsSync(saved)).toBe(false);
    expect(second.output()).not.toMatch(/"level":"(error|fatal)"/);
  });

  it("without a saved chain starts a new one: the previous chain's store is set aside, said so, and the new chain proven from a fresh store", async () => {
    const { dir, apiPort, start, before } = await firstRun();
    rmSync(path.join(dir, 'devnet', 'chain.json'));

    const second = start();
    await second.waitFor(/the embedded devnet starts a new chain \(it saved none when it last stopped\): the store of the previous one is set aside at [^\s"]+node\.db\.previous-devnet-chain/, 30_000);
    const after = await waitUntil(async () => {
      const current = await status(apiPort).catch(() => undefined);
      return current && current.store.highest_ledger_index !== null && /validated by/.test(current.sync.anchor_proof) ? current : undefined;
    }, 60_000, 'the new chain proven', 250);
    expect(after.sync.stopped).toBeNull();
    expect(after.store.highest_ledger_index).toBeLessThan(before.store.highest_ledger_index);
    expect(existsSync(path.join(dir, 'node.db.previous-devnet-chain'))).toBe(true);
  });
});
