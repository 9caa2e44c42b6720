/**
 * Set up before each unit file (vitest.workspace.config.ts): a unit test tests one module in this
 * process and starts no other. Every way node:child_process starts one throws here, naming where
 * such a test belongs: its project's test/ folder, the end-to-end tier. Set once per worker (a
 * worker runs many files).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const starters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const refused = Symbol.for('ledger-node.no-processes');
const patched = childProcess as unknown as Record<string | symbol, unknown>;
if (patched[refused] === undefined) {
  for (const name of starters) {
    patched[name] = (command: unknown) => {
      throw new Error(`a unit test started a process (child_process.${name} ${String(command)}): a test that starts processes belongs in its project's test/ folder, the end-to-end tier`);
    };
  }
  patched[refused] = true;
  syncBuiltinESMExports();
}
