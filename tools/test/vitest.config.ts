import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Shared by every project: `vitest run --config ../../tools/test/vitest.config.ts` from the project folder.
const projectRoot = process.cwd();
const projectName = path.basename(projectRoot);
const outputDir = path.resolve(import.meta.dirname, '../../test-output');

/**
 * LEDGER_NODE_TEST_TIER picks a tier (tools/test/run.mjs sets it): `unit` runs `src/**` tests, each
 * of one module in this process, files in parallel; `e2e` runs `test/**` tests, which start real
 * processes, one file at a time so that 2 cores stay responsive. Unset: both, one file at a time.
 */
const tier = process.env.LEDGER_NODE_TEST_TIER;
if (tier !== undefined && tier !== 'unit' && tier !== 'e2e') throw new Error(`LEDGER_NODE_TEST_TIER must be unit or e2e, got ${tier}`);

export default defineConfig({
  test: {
    root: projectRoot,
    include: tier === 'unit' ? ['src/**/*.test.ts'] : tier === 'e2e' ? ['test/**/*.test.ts'] : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: tier === 'unit',
    reporters: ['default', 'json'],
    outputFile: { json: path.join(outputDir, `${projectName}${tier === undefined ? '' : `.${tier}`}.json`) },
    passWithNoTests: true,
  },
});
