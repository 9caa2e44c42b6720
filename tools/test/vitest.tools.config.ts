import { defineConfig } from 'vitest/config';
import path from 'node:path';

// The tests of tools/ (the bench's pure parts), which is no Nx project: `npm test` runs them with the unit tier.
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  test: {
    root,
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    reporters: ['default', 'json'],
    outputFile: { json: path.resolve(root, '../test-output/tools.json') },
  },
});
