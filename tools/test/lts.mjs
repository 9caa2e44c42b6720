#!/usr/bin/env node
// `npm run test:lts`, and a step of CI after `npm test`: the bundle on the Node.js the container
// image runs (the LTS, made ready by image-runtime.mjs), whatever Node.js runs this script. It
// builds the bundle beside that runtime's production dependencies, and under that Node.js runs
// `--version`, then `-dev -rpc` until its services are ready (each having written V8's compile
// cache) and the node answers jt_blockNumber with a stored ledger, then stops it (SIGTERM, exit 0).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageRuntime } from './image-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const say = (line) => process.stdout.write(`== lts: ${line} (${seconds()} s)\n`);
function fail(message) {
  process.stderr.write(`== lts: FAILED: ${message}\n`);
  process.exit(1);
}

let runtime;
try {
  runtime = imageRuntime('lts', say);
} catch (error) {
  fail(error.message);
}
const { node, version, app, env: runtimeEnv } = runtime;

// The bundle, built beside them.
const build = spawnSync(process.execPath, [path.join(root, 'tools/build/build.mjs'), '--outdir', path.join(app, 'dist')], { encoding: 'utf8' });
if (build.status !== 0) fail(`the build: ${build.stderr}`);
const entry = path.join(app, 'dist', 'ledger-node.mjs');

const versionRun = spawnSync(node, [entry, '--version'], { encoding: 'utf8', env: runtimeEnv });
if (versionRun.status !== 0 || !versionRun.stdout.includes(`\nnode: v${version} `)) fail(`--version: exit ${versionRun.status}\n${versionRun.stdout}${versionRun.stderr}`);
say(`--version: ${versionRun.stdout.trim().split('\n').join('; ')}`);

/** A port nothing listens on now. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ledger-node-lts-'));
// V8's compile cache (apps/node/src/compile-cache.ts), in a folder of this run's own.
const compileCacheDir = path.join(dataDir, 'compile-cache');
const rpcPort = await freePort();
// Its own process group: whatever is left of it when the smoke fails is killed at once.
const child = spawn(node, [entry, '-dev', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-data_dir', path.join(dataDir, 'node')], {
  env: { ...runtimeEnv, NODE_COMPILE_CACHE: compileCacheDir },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
let exitCode;
child.once('exit', (code, signal) => (exitCode = code ?? signal));

async function smoke() {
  const deadline = Date.now() + 90_000;
  while (!/all \d+ services ready/.test(output)) {
    if (exitCode !== undefined) throw new Error(`the node exited (${exitCode}) before its services were ready`);
    if (Date.now() > deadline) throw new Error('its services were not ready within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  say('all services ready');
  // Each service wrote what it compiled at its start into the compile cache.
  const cached = readdirSync(compileCacheDir, { recursive: true }).length;
  if (cached === 0) throw new Error(`the services left nothing in the compile cache ${compileCacheDir}`);
  say(`compile cache: ${cached} entries`);
  // The LTS is no end-of-life runtime: the supervisor's warning of one is not there.
  if (/end of life/.test(output)) throw new Error('the supervisor warned of an end-of-life runtime');
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'jt_blockNumber', params: [] }),
    });
    const answer = await response.json();
    if (typeof answer.result === 'number' && answer.result > 0) {
      say(`jt_blockNumber: ${answer.result}`);
      break;
    }
    if (Date.now() > deadline) throw new Error(`no stored ledger within 90 s: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('no exit within 15 s'), 15_000))]);
  if (code !== 0) throw new Error(`stopped by SIGTERM: ${code}, not exit 0`);
  say('stopped, exit 0');
}

let failure;
try {
  await smoke();
} catch (error) {
  failure = error;
} finally {
  if (exitCode === undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
if (failure) {
  process.stderr.write(`${output}\n`);
  fail(failure.message);
}
say(`the bundle runs on Node.js ${version}`);
// fetch's idle connection pool would keep this process some 15 s more.
process.exit(0);
