import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * `npm test` (tools/test/run.mjs): one vitest run per tier over every project of the workspace, so
 * that files of all projects share one pool of workers instead of one project at a time.
 *
 * - LEDGER_NODE_TEST_TIER=unit: `src/**` tests (each of one module, in this process, starting no
 *   other: no-processes.ts) and tools/;
 *   files in parallel, one worker per core, each worker keeping the modules it loaded from file to
 *   file (isolate off: a test reads process-wide state, such as the metrics registry, from its own
 *   start).
 * - LEDGER_NODE_TEST_TIER=e2e: `test/**` tests, which start real processes; LEDGER_NODE_TEST_WORKERS
 *   files at a time (default 2: the tier keeps two cores busy, and a third such file at once only
 *   slows the others past their time limits), and the files that mostly wait beside them (below).
 *   Each file already has its own ports and data directories; each worker also gets a port range of its own (worker-ports.ts), so that two files never pick
 *   the same free port at the same moment. A worker keeps the modules it loaded from file to file
 *   too (test-utils and the libraries it imports: some seconds of CPU a file when each file loaded
 *   its own).
 * - LEDGER_NODE_TEST_LANE (e2e only) splits the tier in two vitest runs that npm test runs at once:
 *   `main`, every end-to-end file but the waiting ones, LEDGER_NODE_TEST_WORKERS at a time, and
 *   `waiting`, the files of WAITING_FILES one at a time (output `e2e-waiting.json`). Unset: every
 *   file in one run. The waiting lane's worker takes a port slice after the main lane's.
 *
 * LEDGER_NODE_TEST_PROJECTS (comma-separated project names) limits the run. A project's own
 * `vitest run --config ../../tools/test/vitest.config.ts` (its `test` target) runs it alone.
 */
const root = path.resolve(import.meta.dirname, '../..');
const outputDir = path.join(root, 'test-output');
const tier = process.env.LEDGER_NODE_TEST_TIER;
if (tier !== 'unit' && tier !== 'e2e') throw new Error(`LEDGER_NODE_TEST_TIER must be unit or e2e, got ${tier}`);
const workers = Number(process.env.LEDGER_NODE_TEST_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1) throw new Error(`LEDGER_NODE_TEST_WORKERS must be a positive integer, got ${process.env.LEDGER_NODE_TEST_WORKERS}`);
const lane = tier === 'e2e' ? (process.env.LEDGER_NODE_TEST_LANE ?? 'all') : 'all';
if (lane !== 'all' && lane !== 'main' && lane !== 'waiting') throw new Error(`LEDGER_NODE_TEST_LANE must be main or waiting, got ${lane}`);
const only = process.env.LEDGER_NODE_TEST_PROJECTS ? new Set(process.env.LEDGER_NODE_TEST_PROJECTS.split(',')) : undefined;

/**
 * End-to-end files whose time is mostly waiting (list expiries, reconnects, retry backoffs, paced
 * loads, a devnet closing ledgers at its pace): measured on two cores, 0.2–0.65 s of CPU a second
 * of their wall time, where the others keep a core busy or nearly. Beside two files of the main
 * lane they leave no core idle (docs/internals.md, "Files that wait, in a lane of their own").
 * Not here though they wait as much: streams (its resume test counts the store's reads, and a
 * read of another client's lands in its count when the machine is slowest) and disk-faults (a full
 * disk said within 30 s), which beside two busy files ran past those bounds.
 */
const WAITING_FILES = [
  'apps/devnet/test/network.test.ts',
  'apps/facade/test/fuzz.test.ts',
  'apps/node/test/ledger-history.test.ts',
  'apps/node/test/logs.test.ts',
  'apps/submission/test/send.test.ts',
  'apps/sync/test/evidence.test.ts',
  'apps/sync/test/hostile-upstream.test.ts',
  'apps/sync/test/live.test.ts',
  'apps/sync/test/one-chain.test.ts',
  'apps/sync/test/reconnect.test.ts',
  'apps/sync/test/trust.test.ts',
];
/** Files at a time: one in the waiting lane, LEDGER_NODE_TEST_WORKERS in the others. */
const laneWorkers = lane === 'waiting' ? 1 : workers;
// Port slices (worker-ports.ts): the main lane's workers first, then the waiting lane's.
const portSlices = { LEDGER_NODE_TEST_LANE_WORKERS: String(laneWorkers), LEDGER_NODE_TEST_PORT_SLICES: String(lane === 'all' ? workers : workers + 1), LEDGER_NODE_TEST_FIRST_SLICE: String(lane === 'waiting' ? workers : 0) };
const shared = { testTimeout: 60_000, hookTimeout: 60_000, ...(tier === 'e2e' ? { env: portSlices } : {}) };
const projectDirs = ['apps', 'libs'].flatMap((top) =>
  readdirSync(path.join(root, top))
    .map((name) => path.join(root, top, name))
    .filter((dir) => existsSync(path.join(dir, 'project.json'))),
);
/** A project's waiting files, relative to its folder. */
const waitingIn = (dir: string) => WAITING_FILES.filter((file) => path.join(root, file).startsWith(`${dir}${path.sep}`)).map((file) => path.relative(dir, path.join(root, file)));
const projects: TestProjectInlineConfiguration[] = projectDirs
  .filter((dir) => only === undefined || only.has(path.basename(dir)))
  .map((dir) => ({
    test: {
      ...shared,
      name: path.basename(dir),
      root: dir,
      include: tier === 'unit' ? ['src/**/*.test.ts'] : lane === 'waiting' ? waitingIn(dir) : ['test/**/*.test.ts'],
      exclude: lane === 'main' ? [...configDefaults.exclude, ...waitingIn(dir)] : configDefaults.exclude,
      setupFiles: [path.join(import.meta.dirname, tier === 'e2e' ? 'worker-ports.ts' : 'no-processes.ts')],
      isolate: false,
    },
  }));
// tools/ is no Nx project: its tests (the bench's pure parts) run with the unit tier.
if (tier === 'unit' && only === undefined) {
  projects.push({
    test: { ...shared, name: 'tools', root: path.join(root, 'tools'), include: ['**/*.test.ts'], exclude: ['**/node_modules/**'], setupFiles: [path.join(import.meta.dirname, 'no-processes.ts')] },
  });
}

export default defineConfig({
  // Each lane keeps its own record of file durations (vitest runs the longest known first), as both write it at once.
  ...(lane === 'waiting' ? { cacheDir: path.join(root, 'node_modules/.vite/e2e-waiting') } : {}),
  test: {
    root,
    projects,
    fileParallelism: true,
    // vitest's own default leaves a core free (one worker on two cores): unit files take every core.
    maxWorkers: tier === 'e2e' ? laneWorkers : availableParallelism(),
    reporters: ['default', 'json'],
    outputFile: { json: path.join(outputDir, `${tier}${lane === 'waiting' ? '-waiting' : ''}.json`) },
    passWithNoTests: true,
  },
});
