#!/usr/bin/env node
// `npm run soak`: the fault suites at full size (LEDGER_NODE_SOAK=1; about 20 minutes), then their
// figures. LEDGER_NODE_SEED=N replays a run. Every process a suite starts is stopped by its pid.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const figuresFile = path.join(root, 'test-output', 'figures.txt');
/** Project → its fault suites. */
const suites = [
  ['apps/sync', ['test/crash.test.ts', 'test/hostile-upstream.test.ts']],
  ['apps/node', ['test/crash-node.test.ts', 'test/load-while-syncing.test.ts', 'test/ledger-history.test.ts']],
  ['apps/keystore', ['test/faults.test.ts']],
  ['apps/ledger-store', ['test/disk-faults.test.ts']],
];

rmSync(figuresFile, { force: true });
let failed = false;
for (const [project, files] of suites) {
  process.stdout.write(`\n== soak: ${project} ${files.join(' ')}\n`);
  const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', '--config', '../../tools/test/vitest.config.ts', ...files], {
    cwd: path.join(root, project),
    stdio: 'inherit',
    env: { ...process.env, LEDGER_NODE_SOAK: '1', LEDGER_NODE_TEST_TIER: 'e2e' },
  });
  if (result.status !== 0) failed = true;
}
if (existsSync(figuresFile)) process.stdout.write(`\n${readFileSync(figuresFile, 'utf8')}`);
process.exit(failed ? 1 : 0);
