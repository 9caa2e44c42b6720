/**
 * `ledger-node -dev` twice on one data directory: the embedded devnet starts a new chain at every
 * start, so the second node sets the first chain's store aside, says so, and proves the new chain
 * from a fresh store, never serving the old chain beside it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEntry, freePort, startProcess, stopAll, tempDir, waitUntil } from '@ledger-node/test-utils';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function status(port: number): Promise<Record<string, any>> {
  return (await fetch(`http://127.0.0.1:${port}/v1/status`)).json() as Promise<Record<string, any>>;
}

describe('ledger-node -dev started again', () => {
  it("sets the previous devnet chain's store aside, says so, and proves the new chain from a fresh store", async () => {
    const { dir, remove } = tempDir('devnet-chain-');
    cleanups.push(remove);
    const port = await freePort();
    const start = () =>
      startProcess([cliEntry(), '-dev', '-close_ms', '200', '-idle_close_ms', '200', '-load', '3', '-load_accounts', '2', '-api', '-apiaddr', '127.0.0.1', '-apiport', String(port), '-data_dir', dir, '-log_format', 'json']);
    const first = start();
    const before = await waitUntil(async () => {
      const current = await status(port).catch(() => undefined);
      return current && current.store.highest_ledger_index >= 20 ? current : undefined;
    }, 60_000, 'the first chain stored to ledger 20', 250);
    expect(before.sync.validator_list.state).toBe('accepted');
    expect(await first.stop('SIGTERM', 15_000)).toBe(0);

    const second = start();
    await second.waitFor(/the embedded devnet starts a new chain at every start: the store of the previous one is set aside at [^\s"]+node\.db\.previous-devnet-chain/, 30_000);
    const after = await waitUntil(async () => {
      const current = await status(port).catch(() => undefined);
      return current && current.store.highest_ledger_index !== null && /validated by/.test(current.sync.anchor_proof) ? current : undefined;
    }, 60_000, 'the new chain proven', 250);
    expect(after.sync.stopped).toBeNull();
    expect(after.store.highest_ledger_index).toBeLessThan(before.store.highest_ledger_index);
    expect(existsSync(path.join(dir, 'node.db.previous-devnet-chain'))).toBe(true);
  });
});
