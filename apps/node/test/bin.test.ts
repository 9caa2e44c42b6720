/**
 * The `ledger-node` command of a checkout (apps/node/bin/ledger-node.js, what `npx ledger-node` and
 * `npm start` run): the bundle of `npm run build`, built when there is none or the sources or the
 * installed packages changed, run with no TypeScript loader, services included. It runs here in a
 * copy of a checkout laid out in a temporary folder (its own dist/; the sources, node_modules and the build script linked or
 * copied from the workspace), so that the workspace's own dist/ is never touched.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childPids, freePort, processesNaming, startProcess, stopAll, tempDir, workspaceRoot } from '@ledger-node/test-utils';

const root = workspaceRoot();
let checkout: { dir: string; remove: () => void };
let bin: string;
/** No NODE_OPTIONS (no `--import tsx` inherited from the test runner). */
const plainNode = { NODE_OPTIONS: '' };

beforeAll(() => {
  checkout = tempDir('bin-checkout-');
  for (const top of ['apps', 'libs']) {
    for (const project of readdirSync(path.join(root, top))) {
      mkdirSync(path.join(checkout.dir, top, project), { recursive: true });
      for (const entry of readdirSync(path.join(root, top, project)).filter((name) => name !== 'bin' && name !== 'node_modules')) {
        symlinkSync(path.join(root, top, project, entry), path.join(checkout.dir, top, project, entry));
      }
    }
  }
  // The command and the build script are copies: each finds the checkout from where it lies.
  mkdirSync(path.join(checkout.dir, 'apps/node/bin'));
  copyFileSync(path.join(root, 'apps/node/bin/ledger-node.js'), path.join(checkout.dir, 'apps/node/bin/ledger-node.js'));
  mkdirSync(path.join(checkout.dir, 'tools/build'), { recursive: true });
  copyFileSync(path.join(root, 'tools/build/build.mjs'), path.join(checkout.dir, 'tools/build/build.mjs'));
  mkdirSync(path.join(checkout.dir, 'node_modules'));
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.json']) copyFileSync(path.join(root, file), path.join(checkout.dir, file));
  // node_modules of its own (the command builds in node_modules/.cache, beside the checkout's dist/), its packages the workspace's.
  for (const name of readdirSync(path.join(root, 'node_modules')).filter((each) => each !== '.cache')) {
    symlinkSync(path.join(root, 'node_modules', name), path.join(checkout.dir, 'node_modules', name));
  }
  bin = path.join(checkout.dir, 'apps/node/bin/ledger-node.js');
});

afterAll(() => checkout?.remove());

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: checkout.dir, env: { ...process.env, ...plainNode } });

describe('the ledger-node command of a checkout', () => {
  it('builds the bundle when there is none, runs it, and builds it again only when the sources or the installed packages changed', () => {
    const dist = path.join(checkout.dir, 'dist');
    expect(existsSync(dist)).toBe(false);
    const first = run('--help');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('ledger-node serve <service> [flags]');
    expect(first.stderr).toMatch(/^ledger-node: no bundle yet: built dist\/ledger-node\.mjs .*: \d+ files, /);
    expect(existsSync(path.join(dist, 'ledger-node.mjs'))).toBe(true);
    const builtAt = statSync(path.join(dist, 'meta.json')).mtimeMs;

    const again = run('--help');
    expect(again).toMatchObject({ status: 0, stderr: '' });
    expect(statSync(path.join(dist, 'meta.json')).mtimeMs).toBe(builtAt);

    // A bundle older than the newest source (as after an edit): built again before it runs.
    utimesSync(path.join(dist, 'meta.json'), new Date(0), new Date(0));
    const rebuilt = run('--help');
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/^ledger-node: the sources or the installed packages changed since the bundle was built: built dist\/ledger-node\.mjs /);
    expect(statSync(path.join(dist, 'meta.json')).mtimeMs).toBeGreaterThan(0);

    // The bundle holds npm packages too: a lock file newer than it (as after `npm ci` of another lock) builds it again.
    const lockFile = path.join(checkout.dir, 'package-lock.json');
    const later = new Date(statSync(path.join(dist, 'meta.json')).mtimeMs + 60_000);
    utimesSync(lockFile, later, later);
    const afterInstall = run('--help');
    expect(afterInstall.status, afterInstall.stderr).toBe(0);
    expect(afterInstall.stderr).toMatch(/^ledger-node: the sources or the installed packages changed since the bundle was built: /);
  });

  it('starts every service from the bundle with plain node: no TypeScript loader in any process', async () => {
    const { dir, remove } = tempDir('bin-data-');
    cleanups.push(() => processesNaming(dir).forEach((pid) => process.kill(pid, 'SIGKILL')), remove);
    const node = startProcess([bin, '-rpc', '-sync=false', '-rpcaddr', '127.0.0.1', '-rpcport', String(await freePort()), '-data_dir', dir], { env: plainNode, cwd: checkout.dir });
    await node.waitFor(/"msg":"all 4 services ready, /, 60_000);
    const entry = path.join(checkout.dir, 'dist/ledger-node.mjs');
    for (const [service, pid] of childPids(node)) {
      const [, youngGeneration, script, command, name] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect({ youngGeneration, script, command, name }).toEqual({ youngGeneration: '--max-semi-space-size=16', script: entry, command: 'serve', name: service });
    }
    for (const pid of [node.pid, ...childPids(node).values()]) {
      const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environment.filter((variable) => /^NODE_OPTIONS=.*tsx/.test(variable))).toEqual([]);
    }
    expect(await node.stop('SIGTERM', 12_000)).toBe(0);
  }, 90_000);
});
