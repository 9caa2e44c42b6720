import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Shared by every project: `vitest run --config ../../tools/test/vitest.config.ts` from the project folder.
const projectRoot = process.cwd();
const projectName = path.basename(projectRoot);
const outputDir = path.resolve(import.meta.dirname, '../../test-output');

export default defineConfig({
  test: {
    root: projectRoot,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end tests start real processes; one file at a time keeps 2 cores responsive.
    fileParallelism: false,
    reporters: ['default', 'json'],
    outputFile: { json: path.join(outputDir, `${projectName}.json`) },
    passWithNoTests: true,
  },
});
