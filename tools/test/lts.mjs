#!/usr/bin/env node
// `npm run test:lts`, and a step of CI after `npm test`: the bundle on the Node.js the container
// image runs (the LTS, its version read from the Dockerfile's FROM lines), whatever Node.js runs
// this script. It fetches that runtime from the npm registry (the node-<platform>-<arch> package:
// bin/node and the headers in include/node), installs the production dependencies with it as the
// image's deps stage does (`npm ci --omit=dev` from the lock file and the workspaces'
// package.json; the RocksDB binding compiles against those headers where its prebuilt one cannot
// load), builds the bundle, and under that Node.js runs `--version`, then `-dev -rpc` until the
// node answers jt_blockNumber with a stored ledger, then stops it (SIGTERM, exit 0). Runtime and
// dependencies are kept in ~/.cache/ledger-node/lts (XDG_CACHE_HOME), the latter by the lock
// file's hash: a later run with the same lock reuses them (the first compiles the RocksDB binding).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from './apt.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const say = (line) => process.stdout.write(`== lts: ${line} (${seconds()} s)\n`);
function fail(message) {
  process.stderr.write(`== lts: FAILED: ${message}\n`);
  process.exit(1);
}

const versions = new Set([...readFileSync(path.join(root, 'Dockerfile'), 'utf8').matchAll(/^FROM\s+node:(\d+\.\d+\.\d+)-/gm)].map((match) => match[1]));
if (versions.size !== 1) fail(`the Dockerfile's FROM lines name ${versions.size} Node.js versions, not one: ${[...versions].join(', ')}`);
const [version] = versions;
const runtimePackage = `node-${process.platform}-${process.arch}`;
const cache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'ledger-node', 'lts');
const runtime = path.join(cache, `${runtimePackage}-${version}`);
const node = path.join(runtime, 'bin', 'node');

// The runtime, from the npm registry.
if (!existsSync(path.join(runtime, 'include', 'node', 'node_api.h')) || !existsSync(node)) {
  mkdirSync(cache, { recursive: true });
  const packed = spawnSync('npm', ['pack', `${runtimePackage}@${version}`, '--pack-destination', cache, '--silent'], { cwd: cache, encoding: 'utf8' });
  if (packed.status !== 0) fail(`npm pack ${runtimePackage}@${version}: ${packed.stderr.trim()}`);
  const tarball = path.join(cache, packed.stdout.trim().split('\n').at(-1));
  rmSync(runtime, { recursive: true, force: true });
  mkdirSync(runtime, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', runtime, '--strip-components=1']);
  rmSync(tarball);
}
const shownVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
if (shownVersion !== `v${version}`) fail(`${node} is ${shownVersion}, not v${version}`);
say(`Node.js ${shownVersion} at ${runtime}`);

// The production dependencies, installed by that runtime as the image's deps stage installs them.
const workspaces = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces.flatMap((pattern) =>
  readdirSync(path.join(root, path.dirname(pattern)))
    .map((name) => `${path.dirname(pattern)}/${name}/package.json`)
    .filter((file) => existsSync(path.join(root, file))),
);
const manifests = ['package.json', 'package-lock.json', ...workspaces];
// Keyed by the runtime and the lock file, which pins every package (the workspaces' dependencies
// included): a change of package.json's scripts reuses the install.
const hash = createHash('sha256').update(version).update(readFileSync(path.join(root, 'package-lock.json')));
const app = path.join(cache, `app-${hash.digest('hex').slice(0, 16)}`);
const installed = path.join(app, '.installed');
const runtimeEnv = { ...process.env, PATH: `${path.join(runtime, 'bin')}${path.delimiter}${process.env.PATH}`, NODE_OPTIONS: '' };
if (!existsSync(installed)) {
  // Where the RocksDB binding's prebuilt one cannot load, npm compiles it: with g++, make and Python 3.
  const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
  if (!ensureDebianPackages('lts', ['g++', 'make', 'python3'], () => ['g++', 'make', 'python3'].every(onPath))) fail('no C++ tool chain to compile the RocksDB binding with');
  rmSync(app, { recursive: true, force: true });
  for (const file of manifests) cpSync(path.join(root, file), path.join(app, file));
  say(`npm ci --omit=dev in ${app}`);
  const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: app,
    stdio: 'inherit',
    env: { ...runtimeEnv, npm_config_nodedir: runtime, JOBS: 'max' },
  });
  if (install.status !== 0) fail(`npm ci --omit=dev under Node.js ${version} (exit ${install.status ?? install.signal})`);
  // As in the image: the workspace's own packages are in the bundle.
  rmSync(path.join(app, 'node_modules', '@ledger-node'), { recursive: true, force: true });
  rmSync(path.join(app, 'node_modules', '.bin', 'ledger-node'), { force: true });
  writeFileSync(installed, `${new Date().toISOString()}\n`);
  // Older installs of this cache (other lock files) go.
  for (const name of readdirSync(cache).filter((name) => name.startsWith('app-') && path.join(cache, name) !== app)) rmSync(path.join(cache, name), { recursive: true, force: true });
}
say('production dependencies installed');

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
const rpcPort = await freePort();
// Its own process group: whatever is left of it when the smoke fails is killed at once.
const child = spawn(node, [entry, '-dev', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-data_dir', dataDir], { env: runtimeEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
