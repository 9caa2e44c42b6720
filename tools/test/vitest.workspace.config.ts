import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

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
 *   files at a time (default 2: the tier keeps two cores busy, and a third file at once only slows
 *   the others past their time limits). Each file already has its own ports and data directories;
 *   each worker also gets a port range of its own (worker-ports.ts), so that two files never pick
 *   the same free port at the same moment. A worker keeps the modules it loaded from file to file
 *   too (test-utils and the libraries it imports: some seconds of CPU a file when each file loaded
 *   its own).
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
const only = process.env.LEDGER_NODE_TEST_PROJECTS ? new Set(process.env.LEDGER_NODE_TEST_PROJECTS.split(',')) : undefined;

const shared = { testTimeout: 60_000, hookTimeout: 60_000 };
const projectDirs = ['apps', 'libs'].flatMap((top) =>
  readdirSync(path.join(root, top))
    .map((name) => path.join(root, top, name))
    .filter((dir) => existsSync(path.join(dir, 'project.json'))),
);
const projects: TestProjectInlineConfiguration[] = projectDirs
  .filter((dir) => only === undefined || only.has(path.basename(dir)))
  .map((dir) => ({
    test: {
      ...shared,
      name: path.basename(dir),
      root: dir,
      include: [tier === 'unit' ? 'src/**/*.test.ts' : 'test/**/*.test.ts'],
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
  test: {
    root,
    projects,
    fileParallelism: true,
    // vitest's own default leaves a core free (one worker on two cores): unit files take every core.
    maxWorkers: tier === 'e2e' ? workers : availableParallelism(),
    reporters: ['default', 'json'],
    outputFile: { json: path.join(outputDir, `${tier}.json`) },
    passWithNoTests: true,
  },
});
