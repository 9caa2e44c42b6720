/**
 * Disk faults, as figures. Real processes (a devnet under load, ledger-store, sync, the facade) and
 * real kernel faults: the database directory turned read-only under a running store (a read-only
 * bind mount over it: RocksDB meets EROFS at the next file it creates), a store on a small tmpfs
 * that fills up (ENOSPC), and a store whose files were cut mid-write (copied while the store wrote,
 * or its newest WAL / SST / MANIFEST truncated at a seeded point). What must hold: sync and /readyz
 * say "read-only" or "disk full" (not "internal error"), no ledger is stored in part, stored
 * ledgers are read throughout, the node recovers by itself once the disk is writable again (no gap,
 * hash chain intact, every acknowledged ledger still there after a restart), and a cut store is
 * either served and verifies or refused with its reason, never a crash. The first two need mount
 * (root or CAP_SYS_ADMIN); without it they are skipped, saying so.
 * Printed: `figures disk-faults: …`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, statfsSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader, hashLedgerHeader, hashTransaction, transactionTreeRoot } from '@ledger-node/chain';
import { LedgerStoreServiceService, SyncServiceService, TxDetail } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import {
  cliEntry,
  devnetValidatorsFile,
  freePort,
  printFigures,
  quantile,
  runSeed,
  seededRandom,
  soaking,
  startProcess,
  stopAll,
  storedHeaders,
  tempDir,
  waitUntil,
  type RunningProcess,
} from '@ledger-node/test-utils';
import { TEST_WRITE_BUFFER_ENV } from '../src/storage/rocksdb';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  // Last in, first out: a mount goes before the folder it sits in.
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const READ_ONLY_ROUNDS = soaking() ? 6 : 1;
const DISK_FULL_ROUNDS = soaking() ? 6 : 2;
const CUT_STORES = soaking() ? 16 : 4;
/**
 * Through the test hook, RocksDB flushes every few ledgers (instead of every 4 MiB): a fault then
 * meets new files and flushes, not only WAL appends. The default memtable keeps what was written
 * after a fault in the WAL alone until the restart that checks nothing was lost.
 */
const SMALL_MEMTABLE = { [TEST_WRITE_BUFFER_ENV]: String(64 << 10) };
const DEFAULT_MEMTABLE = { [TEST_WRITE_BUFFER_ENV]: '' };
type StoreEnv = typeof SMALL_MEMTABLE;

const seed = runSeed('disk-faults');
/** Fault choices; reads have their own generator, so that how many reads a fault lasts does not change the next fault. */
const random = seededRandom(seed);
const readRandom = seededRandom(seed + 1);
const pick = <T>(choices: readonly T[], from = random): T => choices[Math.floor(from() * choices.length)]!;

const figures = {
  faults: 0,
  read_only: 0,
  disk_full: 0,
  cut_stores: 0,
  cut_served: 0,
  cut_refused: 0,
  partial_ledgers: 0,
  broken_links: 0,
  lost_ledgers: 0,
  wrong_ledgers: 0,
  crashes: 0,
  recoveries: 0,
  reads_during_fault: 0,
  reads_failed_during_fault: 0,
};
const recoverMs: number[] = [];
afterAll(() => printFigures('disk-faults', { seed, mount: mounts ? 'yes' : 'no', ...figures, recover_p50_ms: quantile(recoverMs, 0.5), recover_max_ms: quantile(recoverMs, 1) }));

function run(command: string, ...args: string[]): void {
  execFileSync(command, args, { stdio: 'pipe' });
}

/** Unmounts `dir` if something is mounted there (cleanup after a failure: the mount may be gone already). */
function unmountIfMounted(dir: string): void {
  const mountPoints = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1]);
  if (mountPoints.includes(dir)) run('umount', '-l', dir);
}

/** Whether this machine lets the test mount a tmpfs (root, or CAP_SYS_ADMIN). */
function canMount(): boolean {
  const { dir, remove } = tempDir('ledger-node-mount-probe-');
  try {
    run('mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir);
    run('umount', dir);
    return true;
  } catch (error) {
    process.stdout.write(`disk-faults: mount is not allowed here (${(error as Error).message.split('\n')[0]}); the read-only and disk-full cases are skipped\n`);
    return false;
  } finally {
    remove();
  }
}
const mounts = canMount();

function scratch(prefix: string): string {
  const { dir, remove } = tempDir(prefix);
  cleanups.push(remove);
  return dir;
}

// ---- the processes ----

async function startDevnet(): Promise<{ process: RunningProcess; url: string }> {
  const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-load', '15', '-load_accounts', '5', '-close_ms', '500']);
  return { process: devnet, url: (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/))[1]! };
}

function storeClient(address: string) {
  const client = createGrpcClient(LedgerStoreServiceService, address, { deadlineMs: 10_000, serviceLabel: 'ledger-store' });
  cleanups.push(() => client.close());
  return client;
}
type StoreClient = ReturnType<typeof storeClient>;

function startStore(dataDir: string, env: StoreEnv = SMALL_MEMTABLE): RunningProcess {
  return startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dataDir], { env });
}

/** ledger-store, sync and (unless told not to) the facade on `dataDir`, following the devnet; the validators file lives in `configDir`. */
async function startNode(dataDir: string, configDir: string, devnetUrl: string, options: { facade?: boolean; storeEnv?: StoreEnv } = {}) {
  let store = startStore(dataDir, options.storeEnv);
  await store.waitFor(/"msg":"serving"/);
  const sync = startProcess([
    cliEntry(), 'serve', 'sync', '-data_dir', dataDir, '-endpoint', devnetUrl, '-validators', devnetValidatorsFile(configDir), '-thread_count', '2',
  ]);
  const port = await freePort();
  const facade = options.facade !== false ? startProcess([cliEntry(), 'serve', 'facade', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-data_dir', dataDir]) : undefined;
  await Promise.all([sync.waitFor(/"msg":"serving"/), facade?.waitFor(/facade serving/)]);
  const syncClient = createGrpcClient(SyncServiceService, `unix:${dataDir}/run/sync.sock`, { deadlineMs: 10_000, serviceLabel: 'sync' });
  cleanups.push(() => syncClient.close());
  return {
    dataDir,
    sync,
    get store() {
      return store;
    },
    storeClient: storeClient(`unix:${dataDir}/run/ledger-store.sock`),
    syncClient,
    async readyz(): Promise<{ status: number; body: string }> {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      return { status: response.status, body: await response.text() };
    },
    /** Stops ledger-store cleanly and starts it again on the same database (sync retries meanwhile). */
    async restartStore(env?: StoreEnv): Promise<void> {
      expect(await store.stop('SIGTERM')).toBe(0);
      store = startStore(dataDir, env);
      await store.waitFor(/"msg":"serving"/);
    },
  };
}
type Node = Awaited<ReturnType<typeof startNode>>;

// ---- what a store serves must verify ----

async function storedRanges(client: StoreClient) {
  return (await client.getStatus({})).completeRanges.map(({ first, last }) => ({ first, last }));
}

interface Verdict {
  ledgers: number;
  /** Ledgers a complete range claims that are not stored. */
  missing: number;
  /** A header that does not hash to its hash, or transactions that are not its whole transaction tree. */
  partial: number;
  /** A ledger whose parent hash is not the stored hash of the ledger below it (within a range). */
  brokenLinks: number;
  headers: Map<number, string>;
}

/**
 * Reads every ledger of every complete range the store claims, with its transactions, and checks
 * it as sync did before storing it: the header hashes to the ledger's hash, the transactions hash
 * to their hashes and are exactly the header's transaction tree, and each names the one below.
 */
async function verifyStore(client: StoreClient): Promise<Verdict> {
  const verdict: Verdict = { ledgers: 0, missing: 0, partial: 0, brokenLinks: 0, headers: new Map() };
  for (const range of await storedRanges(client)) {
    let below: string | undefined;
    for (let ledgerIndex = range.first; ledgerIndex <= range.last; ledgerIndex++) {
      const { ledger } = await client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.FULL });
      if (!ledger) {
        verdict.missing++;
        below = undefined;
        continue;
      }
      verdict.ledgers++;
      const ledgerHash = ledger.ledgerHash.toString('hex').toUpperCase();
      verdict.headers.set(ledgerIndex, ledgerHash);
      const header = decodeLedgerHeader(ledger.headerBlob);
      const transactions = ledger.transactions.map((tx) => ({ hash: tx.hash.toString('hex').toUpperCase(), txBlob: tx.txBlob, metaBlob: tx.metaBlob }));
      const whole =
        hashLedgerHeader(header).toUpperCase() === ledgerHash &&
        transactions.length === ledger.transactionCount &&
        transactions.every((tx) => hashTransaction(tx.txBlob).toUpperCase() === tx.hash) &&
        transactionTreeRoot(transactions).toUpperCase() === header.transactionHash.toUpperCase();
      if (!whole) verdict.partial++;
      if (below !== undefined && header.parentHash.toUpperCase() !== below) verdict.brokenLinks++;
      below = ledgerHash;
    }
  }
  return verdict;
}

function tally(verdict: Verdict): void {
  figures.partial_ledgers += verdict.partial + verdict.missing;
  figures.broken_links += verdict.brokenLinks;
}

const storedCount = async (client: StoreClient) => Number((await client.getStatus({})).ledgerCount);

/** Reads stored ledgers (chosen by the seed) until `stop`, each checked against the hash it had before the fault. */
function readWhile(client: StoreClient, known: Map<number, string>, stop: { done: boolean }): Promise<void> {
  const indexes = [...known.keys()];
  return (async () => {
    while (!stop.done) {
      const ledgerIndex = pick(indexes, readRandom);
      figures.reads_during_fault++;
      try {
        const { ledger } = await client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.HASHES });
        if (ledger?.ledgerHash.toString('hex').toUpperCase() !== known.get(ledgerIndex)) figures.reads_failed_during_fault++;
      } catch {
        figures.reads_failed_during_fault++;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
}

/**
 * One fault: injects it once the node is storing ledgers, checks what the node says and serves
 * while it lasts, lifts it and checks that sync resumes by itself, then that the store holds one
 * verified chain and keeps every ledger across a restart.
 */
async function faultRound(node: Node, fault: Fault): Promise<void> {
  try {
    await faultRoundSteps(node, fault);
  } catch (error) {
    // What the processes said is what explains a failure here.
    const tail = (process: RunningProcess) => process.output().split('\n').slice(-25).join('\n');
    (error as Error).message += `\n--- ledger-store:\n${tail(node.store)}\n--- sync:\n${tail(node.sync)}`;
    throw error;
  }
}

interface Fault {
  name: string;
  says: RegExp;
  inject: () => void;
  lift: () => void;
  /** The memtable of the ledger-store started by the restart that ends the round. */
  restartWith?: StoreEnv;
}

async function faultRoundSteps(node: Node, fault: Fault): Promise<void> {
  const countBefore = await storedCount(node.storeClient);
  await waitUntil(async () => ((await storedCount(node.storeClient)) >= countBefore + 5 ? true : undefined), 60_000, 'ledgers stored before the fault');
  const known = (await verifyStore(node.storeClient)).headers;

  fault.inject();
  figures.faults++;
  const stop = { done: false };
  const reads = readWhile(node.storeClient, known, stop);
  try {
    // Sync says why it stopped, in words an operator acts on; /readyz fails with the same reason.
    const stopped = await waitUntil(async () => {
      const status = await node.syncClient.getSyncStatus({});
      return status.stopped !== undefined && fault.says.test(status.stopped) ? status.stopped : undefined;
    }, 30_000, `sync saying ${fault.says}`);
    expect(stopped).not.toMatch(/internal error/i);
    const readyz = await waitUntil(async () => {
      const answer = await node.readyz();
      return answer.status === 503 && fault.says.test(answer.body) ? answer : undefined;
    }, 10_000, `/readyz failing with ${fault.says}`);
    expect(JSON.parse(readyz.body).status).toBe('not ready');
    expect(node.sync.output()).toMatch(new RegExp(`sync stopped at ledger \\d+: .*${fault.says.source}`));
  } finally {
    fault.lift();
    stop.done = true;
    await reads;
  }
  // Reads of stored ledgers were answered, and right, all along; ledger-store never went down.
  expect(figures.reads_failed_during_fault).toBe(0);
  expect(node.store.child.exitCode).toBeNull();
  const liftedAt = Date.now();
  const countAtLift = await storedCount(node.storeClient);
  await waitUntil(async () => {
    const status = await node.syncClient.getSyncStatus({});
    return status.stopped === undefined && (await storedCount(node.storeClient)) > countAtLift ? true : undefined;
  }, 60_000, `sync resuming after ${fault.name} without operator action`);
  recoverMs.push(Date.now() - liftedAt);
  figures.recoveries++;
  await waitUntil(async () => {
    const answer = await node.readyz();
    if (answer.status !== 200) throw new Error(answer.body);
    return true;
  }, 60_000, '/readyz ready again');

  // One complete range from genesis, every ledger whole and linked; none lost by a restart.
  const ranges = await waitUntil(async () => {
    const status = await node.syncClient.getSyncStatus({});
    return status.completeRanges.length === 1 && status.completeRanges[0]!.first === 1 && status.backfillRemainingLedgers === 0n ? status.completeRanges : undefined;
  }, 60_000, 'one complete range from genesis');
  const verdict = await verifyStore(node.storeClient);
  tally(verdict);
  expect({ partial: verdict.partial, missing: verdict.missing, brokenLinks: verdict.brokenLinks }).toEqual({ partial: 0, missing: 0, brokenLinks: 0 });
  expect(verdict.ledgers).toBeGreaterThanOrEqual(ranges[0]!.last);
  for (const [ledgerIndex, ledgerHash] of known) if (verdict.headers.get(ledgerIndex) !== ledgerHash) figures.wrong_ledgers++;

  const acknowledged = await storedRanges(node.storeClient);
  await node.restartStore(fault.restartWith);
  const afterRestart = await storedRanges(node.storeClient);
  let lost = 0;
  for (const range of acknowledged) {
    for (let ledgerIndex = range.first; ledgerIndex <= range.last; ledgerIndex++) {
      if (!afterRestart.some((kept) => kept.first <= ledgerIndex && ledgerIndex <= kept.last)) lost++;
    }
  }
  figures.lost_ledgers += lost;
  expect(lost).toBe(0);
  expect(figures.wrong_ledgers).toBe(0);
}

/**
 * Copies a database file by file while ledger-store writes it, as a naive backup would: files are
 * copied at different moments, the newest perhaps half written, and one a compaction removed
 * meanwhile is missing from the copy.
 */
function copyWhileWritten(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    try {
      copyFileSync(path.join(from, name), path.join(to, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

// ---- the suites ----

describe('disk faults', () => {
  it.skipIf(!mounts)(
    `the database directory turned read-only under a running store (${READ_ONLY_ROUNDS}×): sync and /readyz say read-only, reads go on, sync resumes by itself once it is writable`,
    async () => {
      const { url: devnetUrl } = await startDevnet();
      const dataDir = scratch('ledger-node-ro-');
      const node = await startNode(dataDir, scratch('ledger-node-ro-config-'), devnetUrl);
      const databaseDir = path.join(dataDir, 'node.db');
      for (let round = 0; round < READ_ONLY_ROUNDS; round++) {
        figures.read_only++;
        cleanups.push(() => unmountIfMounted(databaseDir));
        await faultRound(node, {
          name: 'a read-only directory',
          says: /read-only/,
          // A read-only bind mount over the directory: files open for writing stay writable, every new file is EROFS.
          inject: () => run('mount', '--bind', '-o', 'ro', databaseDir, databaseDir),
          // Lazily: RocksDB may hold files opened for reading through the read-only mount.
          lift: () => run('umount', '-l', databaseDir),
        });
      }
    },
    soaking() ? 1_200_000 : 120_000,
  );

  it.skipIf(!mounts)(
    `a store on a small disk that fills up (${DISK_FULL_ROUNDS}×): sync and /readyz say disk full, reads go on, sync resumes by itself once space returns and nothing stored is lost`,
    async () => {
      const { url: devnetUrl } = await startDevnet();
      const dataDir = scratch('ledger-node-full-');
      run('mount', '-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dataDir);
      cleanups.push(() => unmountIfMounted(dataDir));
      // Rounds alternate the memtable: a full disk met by WAL appends (what was written after it stays
      // in the WAL until the restart that ends the round), then by flushes and compactions.
      const node = await startNode(dataDir, scratch('ledger-node-full-config-'), devnetUrl, { storeEnv: DEFAULT_MEMTABLE });
      const ballast = path.join(dataDir, 'ballast');
      for (let round = 0; round < DISK_FULL_ROUNDS; round++) {
        figures.disk_full++;
        await faultRound(node, {
          name: `a full disk (${round % 2 === 0 ? 'default' : 'small'} memtable)`,
          restartWith: round % 2 === 0 ? SMALL_MEMTABLE : DEFAULT_MEMTABLE,
          says: /disk full/,
          // Fills the disk but for a seeded margin (0-128 KiB): the next WAL append, flush or compaction meets ENOSPC.
          inject: () => {
            const { bavail, bsize } = statfsSync(dataDir);
            try {
              writeFileSync(ballast, Buffer.alloc(Math.max(0, bavail * bsize - Math.floor(random() * (128 << 10)))));
            } catch (error) {
              // The store took some of the space meanwhile: the disk is full all the same.
              if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
            }
          },
          lift: () => rmSync(ballast),
        });
      }
    },
    soaking() ? 1_200_000 : 120_000,
  );

  it(`a store whose files were cut mid-write (${CUT_STORES} copies) is served and verifies, or is refused with its reason; never a crash`, async () => {
    const devnet = await startDevnet();
    const dataDir = scratch('ledger-node-cut-');
    const node = await startNode(dataDir, scratch('ledger-node-cut-config-'), devnet.url, { facade: false });
    const databaseDir = path.join(dataDir, 'node.db');
    await waitUntil(async () => ((await storedCount(node.storeClient)) >= 20 ? true : undefined), 60_000, 'ledgers stored');

    // The copies are taken while sync stores ledgers, a few ledgers apart; then the writing stops so that opening them has the machine.
    const copies: { copyDir: string; what: string }[] = [];
    for (let cut = 0; cut < CUT_STORES; cut++) {
      const before = await storedCount(node.storeClient);
      await waitUntil(async () => ((await storedCount(node.storeClient)) >= before + 3 ? true : undefined), 60_000, 'ledgers stored between copies');
      const copyDir = scratch('ledger-node-cut-copy-');
      const copyDatabase = path.join(copyDir, 'node.db');
      copyWhileWritten(databaseDir, copyDatabase);
      const kind = pick(['copied while written', 'newest WAL cut', 'newest SST cut', 'MANIFEST cut'] as const);
      const pattern = { 'copied while written': undefined, 'newest WAL cut': /\.log$/, 'newest SST cut': /\.sst$/, 'MANIFEST cut': /^MANIFEST-/ }[kind];
      let cutFile = '';
      if (pattern) {
        const newest = readdirSync(copyDatabase)
          .filter((name) => pattern.test(name))
          .sort()
          .at(-1);
        if (newest) {
          const size = statSync(path.join(copyDatabase, newest)).size;
          const cutAt = Math.floor(random() * size);
          truncateSync(path.join(copyDatabase, newest), cutAt);
          cutFile = `: ${newest} at ${cutAt} of ${size} bytes`;
        }
      }
      copies.push({ copyDir, what: `${kind}${cutFile}` });
      figures.cut_stores++;
      figures.faults++;
    }
    await node.sync.stop('SIGTERM');
    await devnet.process.stop('SIGTERM');
    const originalHashes = new Map(
      (await storedHeaders(node.storeClient, 1, (await node.storeClient.getStatus({})).highestLedgerIndex ?? 1)).map((ledger) => [
        ledger.ledgerIndex,
        ledger.ledgerHash.toString('hex').toUpperCase(),
      ]),
    );

    for (const { copyDir, what } of copies) {
      mkdirSync(path.join(copyDir, 'run'), { recursive: true });
      const store = startStore(copyDir);
      const outcome = await Promise.race([store.waitFor(/"msg":"serving"/, 30_000).then(() => 'serving' as const), store.exited]);
      if (outcome === 'serving') {
        figures.cut_served++;
        const verdict = await verifyStore(storeClient(`unix:${copyDir}/run/ledger-store.sock`));
        tally(verdict);
        // Every ledger it serves is the ledger the original store holds at that index.
        const wrong = [...verdict.headers].filter(([ledgerIndex, ledgerHash]) => originalHashes.get(ledgerIndex) !== ledgerHash).length;
        figures.wrong_ledgers += wrong;
        expect({ what, partial: verdict.partial, missing: verdict.missing, brokenLinks: verdict.brokenLinks, wrong }).toEqual({ what, partial: 0, missing: 0, brokenLinks: 0, wrong: 0 });
        const stopped = await store.stop('SIGTERM');
        if (stopped !== 0) figures.crashes++;
        expect({ what, stopped }).toEqual({ what, stopped: 0 });
      } else {
        figures.cut_refused++;
        // Refused: exit 1 with one line naming the database and why; no stack trace.
        const refusedClearly = outcome === 1 && /cannot open the database at \S+: \S/.test(store.output()) && !/^\s+at /m.test(store.output());
        if (!refusedClearly) figures.crashes++;
        expect({ what, outcome, refusedClearly, output: refusedClearly ? '' : store.output() }).toEqual({ what, outcome: 1, refusedClearly: true, output: '' });
      }
    }
    expect(figures.crashes).toBe(0);
  }, soaking() ? 1_200_000 : 120_000);
});
