/**
 * Bounded history end to end: `ledger-node -dev -ledger_history 50` on a devnet closing every
 * 200 ms under a payment load keeps the newest 50 ledgers (± one removal batch) ending at the tip,
 * answers a removed ledger as one not stored (null block, -32002 for state), and keeps answering
 * state at the lowest kept ledger. The ledger-store owns which ledgers it holds: every ledger it
 * removes leaves sync's ranges on its word (WatchRanges), and sync never asks for one.
 *
 * Once bounded the node runs on for a slice: one look in `npm test`, an hour under
 * `npm run soak` (LEDGER_NODE_SOAK_MINUTES sets another length). Every 15 s the range must still
 * be bounded and the lowest kept ledger answer state; at the end no service may have logged the
 * same warning twice, and the slice's figures (ledgers followed and removed, each service's
 * resident memory at its start and end) are printed.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { childPids, cliEntry, freePort, printFigures, rpcClient, soaking, startProcess, stopAll, tempDir, waitUntil } from '@ledger-node/test-utils';

const KEPT = 50;
/** Ledgers the ledger-store removes per write (apps/ledger-store PRUNE_BATCH). */
const BATCH = 16;
const genesis = getProfile('xrpl').genesis.address;
/** Length of the slice the node runs once bounded. */
const SLICE_MS = Number(process.env.LEDGER_NODE_SOAK_MINUTES ?? (soaking() ? 60 : 0)) * 60_000;
/** Time between two looks during the slice. */
const LOOK_MS = 15_000;

/** Resident memory of a process in MiB; undefined once it is gone. */
function rssMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** The node's log lines of `service` (JSON, one per line; a line broken by another process's write is left out). */
function logLines(output: string, service: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      const record = JSON.parse(line) as Record<string, unknown>;
      return record.service === service ? [record] : [];
    } catch {
      return [];
    }
  });
}

/** Ledger indexes of `ranges`, as a set. */
function indexesOf(ranges: readonly { first: number; last: number }[]): Set<number> {
  const indexes = new Set<number>();
  for (const { first, last } of ranges) for (let ledgerIndex = first; ledgerIndex <= last; ledgerIndex++) indexes.add(ledgerIndex);
  return indexes;
}

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('ledger-node -dev -ledger_history 50', () => {
  it('keeps the newest 50 ledgers ending at the tip and answers below them as for a ledger not stored', async () => {
    const { dir, remove } = tempDir('ledger-history-');
    cleanups.push(remove);
    const [rpcPort, apiPort] = [await freePort(), await freePort()];
    const node = startProcess(
      [
        cliEntry(), '-dev', '-close_ms', '200', '-load', '5', '-load_accounts', '3', '-ledger_history', String(KEPT),
        '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
        '-data_dir', dir, '-thread_count', '2', '-log_level', 'debug',
      ],
      { env: { LEDGER_NODE_PASSWORD: 'ledger history test passphrase' } },
    );
    for (const service of ['ledger-store', 'sync', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`), 60_000);
    const call = rpcClient(rpcPort);
    const storedRanges = async () => {
      const response = await fetch(`http://127.0.0.1:${apiPort}/v1/status`);
      const body = (await response.json()) as { store: { complete_ranges: string[] } };
      return body.store.complete_ranges.map((text) => text.split('-').map(Number) as [number, number]);
    };

    await waitUntil(async () => {
      const answer = await call('jt_blockNumber');
      return typeof answer.result === 'number' && answer.result >= 150;
    }, 90_000, 'the tip to pass ledger 150');
    // Removal runs in the background: a look may come between a store and the next removal.
    const ranges = await waitUntil(async () => {
      const current = await storedRanges();
      return current.length === 1 && current[0]![1] - current[0]![0] + 1 <= KEPT + BATCH && current;
    }, 20_000, `one stored range of at most ${KEPT + BATCH} ledgers`);
    const [lowest, highest] = ranges[0]!;
    const tip = (await call('jt_blockNumber')).result as number;
    // /v1/status names the floor bounded history keeps: the highest stored minus N, plus one, at a look.
    const { store } = (await (await fetch(`http://127.0.0.1:${apiPort}/v1/status`)).json()) as { store: { retention_floor: number | null; highest_ledger_index: number } };
    expect(store.retention_floor).toBeGreaterThanOrEqual(store.highest_ledger_index - KEPT + 1 - BATCH);
    expect(store.retention_floor).toBeLessThanOrEqual(store.highest_ledger_index - KEPT + 1);
    expect(highest).toBeGreaterThanOrEqual(150);
    expect(tip - highest).toBeLessThanOrEqual(5);
    expect(highest - lowest + 1).toBeGreaterThanOrEqual(KEPT - 1);

    // A removed ledger is answered as one not stored.
    const removed = lowest - 10;
    expect(await call('jt_getBlockByNumber', [String(removed), false])).toMatchObject({ result: null });
    const stateBelow = await call('jt_getBalance', [genesis, String(removed)]);
    expect(stateBelow.error).toMatchObject({ code: -32002 });

    // The lowest kept ledger answers state; removal may overtake the ask, so ask again at the new lowest then.
    const balance = await waitUntil(async () => {
      const [[first]] = (await storedRanges()) as [[number, number]];
      const answer = await call('jt_getBalance', [genesis, String(first)]);
      if (answer.error?.code === -32002) return undefined;
      return answer;
    }, 20_000, 'a balance at the lowest kept ledger');
    expect(balance.error).toBeUndefined();
    expect(balance.result).toMatchObject({ account: genesis });

    // The slice: still bounded, and state answered at the lowest kept ledger, as the tip moves on.
    const rssAtStart = new Map([...childPids(node)].map(([service, pid]) => [service, rssMb(pid)]));
    const sliceEnd = Date.now() + SLICE_MS;
    let looks = 0;
    let later: [number, number][];
    do {
      const before = (await call('jt_blockNumber')).result as number;
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOOK_MS, Math.max(0, sliceEnd - Date.now()))));
      await waitUntil(async () => ((await call('jt_blockNumber')).result as number) >= before + 25, 30_000, 'the tip to move on');
      later = await waitUntil(async () => {
        const current = await storedRanges();
        return current.length === 1 && current[0]![1] - current[0]![0] + 1 <= KEPT + BATCH && current;
      }, 20_000, 'the range to stay bounded');
      const lowestBalance = await waitUntil(async () => {
        const [[first]] = (await storedRanges()) as [[number, number]];
        const answer = await call('jt_getBalance', [genesis, String(first)]);
        return answer.error?.code === -32002 ? undefined : answer;
      }, 20_000, 'a balance at the lowest kept ledger');
      expect(lowestBalance.error).toBeUndefined();
      looks++;
    } while (Date.now() < sliceEnd);
    expect(later[0]![0]).toBeGreaterThan(lowest);
    const rssAtEnd = new Map([...childPids(node)].map(([service, pid]) => [service, rssMb(pid)]));

    // Every ledger the ledger-store removed left sync's ranges on the store's word (sync drops those
    // below the floor it announces even before their batch is written).
    const removedByStore = () => indexesOf(logLines(node.output(), 'ledger-store').filter((line) => /^removed ledgers/.test(String(line.msg))).map((line) => line as unknown as { first: number; last: number }));
    const leftSync = () => indexesOf(logLines(node.output(), 'sync').flatMap((line) => (/left the stored ranges/.test(String(line.msg)) ? (line.left as { first: number; last: number }[]) : [])));
    const removedLedgers = removedByStore();
    expect(removedLedgers.size).toBeGreaterThanOrEqual(100);
    await waitUntil(() => {
      const left = leftSync();
      return [...removedLedgers].every((ledgerIndex) => left.has(ledgerIndex)) || undefined;
    }, 10_000, 'every ledger the store removed to have left sync\'s ranges');

    const output = node.output();
    expect(output).not.toMatch(/could not remove the lowest ledgers|"level":"(error|fatal)"|\b(crashed|restarted)\b/);
    // Sync never asks the store for a ledger it removed, and proves none.
    expect(output).not.toMatch(/does not hold ledger \d+, which sync asked for|is in the complete ranges but not stored|removed by the ledger-store while its state was proven|not stored; its state changes are not taken/);
    // No warning loop: sync warns about nothing here, and no service says anything twice.
    const warnings = (service: string) => logLines(output, service).filter((line) => line.level === 'warn').map((line) => String(line.msg));
    const services = ['ledger-store', 'sync', 'facade', 'submission', 'keystore'];
    for (const service of services) expect(warnings(service), service).toEqual([...new Set(warnings(service))]);
    expect(warnings('sync').filter((warning) => /state proofs|ledger-store|stored ranges/.test(warning))).toEqual([]);
    printFigures('ledger-history', {
      slice_minutes: Math.round(SLICE_MS / 6_000) / 10,
      looks,
      tip: (await call('jt_blockNumber')).result as number,
      kept_first: later[0]![0],
      removed_ledgers: removedByStore().size,
      warnings: services.reduce((sum, service) => sum + warnings(service).length, 0),
      ...Object.fromEntries(services.flatMap((service) => [[`rss_mb_start.${service}`, rssAtStart.get(service) ?? 'gone'], [`rss_mb_end.${service}`, rssAtEnd.get(service) ?? 'gone']])),
    });
    expect(await node.stop('SIGTERM', 15_000)).toBe(0);
  }, 240_000 + SLICE_MS * 1.5);
});
