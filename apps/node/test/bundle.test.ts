/**
 * The bundle the container image runs (`npm run build`, tools/build/build.mjs), built into a
 * temporary folder laid out as the image's /app: the bundle in dist/ beside a node_modules that
 * holds only the production dependencies (links into the workspace's). It runs with plain `node`:
 * neither the workspace's TypeScript sources nor tsx or any other dev dependency is within reach.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childPids, freePort, processesNaming, rpcClient, startProcess, stopAll, tempDir, waitUntil, workspaceRoot } from '@ledger-node/test-utils';

const root = workspaceRoot();
let app: { dir: string; remove: () => void };
/** dist/ledger-node.mjs in the temporary /app. */
let entry: string;
/** No NODE_OPTIONS (no `--import tsx` inherited from the test runner) in any bundle process. */
const plainNode = { NODE_OPTIONS: '' };

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface LockEntry {
  dev?: boolean;
  link?: boolean;
}

/** The lock file's packages (node_modules/… paths, nested ones too), workspace links aside. */
function lockedPackages(): Map<string, LockEntry> {
  const { packages } = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  return new Map(Object.entries(packages).filter(([key, entry]) => key.startsWith('node_modules/') && !entry.link));
}

/** The packages `npm ci --omit=dev` puts at the top of node_modules, by the lock file. */
function productionPackages(): string[] {
  return [...lockedPackages()]
    .filter(([key, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) && !entry.dev)
    .map(([key]) => key.slice('node_modules/'.length));
}

/** The packages the bundle must leave to node_modules (tools/build/build.mjs NODE_MODULES_IMPORTS). */
const leftToNodeModules = (name: string) => name === 'rocksdb' || name === '@grpc/grpc-js' || name.startsWith('@opentelemetry/');

/** esbuild's metafile of the bundle: the sources in it, and each output's imports. */
interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string; external?: boolean }[] }>;
}
const readMetafile = () => JSON.parse(readFileSync(path.join(app.dir, 'dist/meta.json'), 'utf8')) as Metafile;

/** `@scope/name/sub/path` → `@scope/name`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** A fresh data directory; whatever outlives a failed test on it is killed by its pid. */
function dataDir(): string {
  const { dir, remove } = tempDir('bundle-data-');
  cleanups.push(() => processesNaming(dir).forEach((pid) => process.kill(pid, 'SIGKILL')), remove);
  return dir;
}

beforeAll(() => {
  app = tempDir('bundle-app-');
  for (const name of productionPackages().filter((name) => existsSync(path.join(root, 'node_modules', name)))) {
    mkdirSync(path.dirname(path.join(app.dir, 'node_modules', name)), { recursive: true });
    symlinkSync(path.join(root, 'node_modules', name), path.join(app.dir, 'node_modules', name));
  }
  const build = spawnSync(process.execPath, [path.join(root, 'tools/build/build.mjs'), '--outdir', path.join(app.dir, 'dist')], { encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  process.stdout.write(`bundle: ${build.stdout}`);
  entry = path.join(app.dir, 'dist/ledger-node.mjs');
});

afterAll(() => app?.remove());

describe('the bundle (npm run build)', () => {
  it('holds the workspace code and the production dependencies written in JavaScript, and imports nothing but Node builtins and the dependencies a bundle cannot hold', () => {
    const meta = readMetafile();
    const inputs = Object.keys(meta.inputs);
    const workspace = inputs.filter((input) => !input.startsWith('node_modules/'));
    expect(workspace.filter((input) => !/^(apps|libs)\/[^/]+\/src\//.test(input) || /\.test\.ts$/.test(input))).toEqual([]);
    expect(workspace.length).toBeGreaterThan(100);
    // Each bundled file of node_modules is of a package the image installs (no dev dependency).
    const locked = lockedPackages();
    const packageDirOf = (input: string) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)![1]!;
    const bundledPackages = new Set(inputs.filter((input) => input.startsWith('node_modules/')).map(packageDirOf));
    expect([...bundledPackages].filter((dir) => locked.get(dir) === undefined || locked.get(dir)!.dev === true)).toEqual([]);
    expect([...bundledPackages].filter((dir) => leftToNodeModules(dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length)))).toEqual([]);
    for (const name of ['koa', 'ripple-binary-codec', 'zod']) expect(bundledPackages).toContain(`node_modules/${name}`);

    const production = new Set(productionPackages());
    const externals = new Set(Object.values(meta.outputs).flatMap(({ imports }) => imports.filter((each) => each.external).map((each) => each.path)));
    // Besides: the optional packages required inside a try block, which the image does not install.
    const optional = ['bufferutil', 'utf-8-validate', 'pg-native', 'supports-color'];
    expect(optional.filter((name) => production.has(name))).toEqual([]);
    expect([...externals].filter((specifier) => !isBuiltin(specifier) && !optional.includes(specifier) && !(production.has(packageOf(specifier)) && leftToNodeModules(packageOf(specifier))))).toEqual([]);
    expect([...externals].map(packageOf)).toEqual(expect.arrayContaining(['rocksdb', '@grpc/grpc-js']));
    expect(production.has('tsx')).toBe(false);
  });

  it("imports @grpc/grpc-js only after OpenTelemetry started, and only where a command uses it: neither the entry, the telemetry start-up, the flags it reads nor the CLI's command table do", () => {
    const meta = readMetafile();
    const outputOf = (entryPoint: string) => Object.keys(meta.outputs).find((output) => meta.outputs[output]!.entryPoint === entryPoint)!;
    /** The packages an output loads before it runs: its static imports, followed through the chunks. */
    const loadedWith = (output: string, seen = new Set<string>()): Set<string> => {
      const packages = new Set<string>();
      for (const { path: imported, external } of meta.outputs[output]!.imports.filter((each) => each.kind === 'import-statement')) {
        if (external) packages.add(packageOf(imported));
        else if (!seen.has(imported)) loadedWith(imported, seen.add(imported)).forEach((name) => packages.add(name));
      }
      return packages;
    };
    for (const entryPoint of ['apps/node/src/launch.ts', 'libs/telemetry/src/start.ts', 'libs/config/src/index.ts', 'apps/node/src/main.ts']) {
      expect([...loadedWith(outputOf(entryPoint))], entryPoint).not.toContain('@grpc/grpc-js');
    }
    // A service does, when the command that runs it is loaded: the check sees a static import.
    expect([...loadedWith(outputOf('apps/ledger-store/src/main.ts'))]).toContain('@grpc/grpc-js');
  });

  it('shows the CLI help with plain node, exit 0', () => {
    const help = spawnSync(process.execPath, [entry, '--help'], { encoding: 'utf8', env: { ...process.env, ...plainNode } });
    expect(help.status, help.stderr).toBe(0);
    for (const usage of ['serve <service>', '-data_dir DIR', '-rpcport PORT', '-dev[=true|false]']) expect(help.stdout).toContain(usage);
  });

  describe('its version', () => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const versionText = (commit: string) => `ledger-node ${version}\ncommit: ${commit}\nnode: ${process.version} (${process.platform}-${process.arch})\n`;
    /** `--version` of a bundle run where neither git nor the workspace's package.json can be reached. */
    const shownVersion = (bundle: string) => spawnSync(process.execPath, [bundle, '--version'], { encoding: 'utf8', cwd: app.dir, env: { ...process.env, ...plainNode, PATH: '' } });

    it("is the version and the checkout's commit, written in at build time", () => {
      const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
      expect(shownVersion(entry)).toMatchObject({ status: 0, stdout: versionText(head.status === 0 ? head.stdout.trim() : 'unknown'), stderr: '' });
    });

    it('takes the commit from --commit, as the image build does (its context has no .git), and refuses a malformed one', () => {
      const commit = '0123456789abcdef0123456789abcdef01234567';
      const outdir = path.join(app.dir, 'dist-commit');
      const build = spawnSync(process.execPath, [path.join(root, 'tools/build/build.mjs'), '--outdir', outdir, '--commit', commit], { encoding: 'utf8' });
      expect(build.status, build.stderr).toBe(0);
      expect(shownVersion(path.join(outdir, 'ledger-node.mjs'))).toMatchObject({ status: 0, stdout: versionText(commit) });
      const refused = spawnSync(process.execPath, [path.join(root, 'tools/build/build.mjs'), '--outdir', path.join(app.dir, 'dist-bad'), '--commit', 'main'], { encoding: 'utf8' });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('--commit main: expected a full git commit hash');
    });
  });

  it('serves ledger-store, which `ledger-node probe ledger-store` from the bundle finds SERVING', async () => {
    const dir = dataDir();
    const store = startProcess([entry, 'serve', 'ledger-store', '-data_dir', dir], { env: plainNode });
    await store.waitFor(/"msg":"serving"/);
    const probe = spawnSync(process.execPath, [entry, 'probe', 'ledger-store', '-data_dir', dir], { encoding: 'utf8', env: { ...process.env, ...plainNode } });
    expect(probe).toMatchObject({ status: 0, stdout: 'ledger-store SERVING\n' });
    expect(await store.stop('SIGTERM')).toBe(0);
  });

  describe('the supervisor', () => {
    /** OTLP/HTTP receiver: `<service.name> <instrumentation scope>` of every span exported to it. */
    const exported = new Set<string>();
    let receiver: Server;
    let receiverPort: number;

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (body += chunk));
        request.on('end', () => {
          if (request.url === '/v1/traces') {
            for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
              const service = resourceSpans.resource?.attributes?.find((attribute: { key: string }) => attribute.key === 'service.name')?.value?.stringValue;
              for (const scopeSpans of resourceSpans.scopeSpans ?? []) exported.add(`${service} ${scopeSpans.scope?.name}`);
            }
          }
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      });
      receiverPort = await freePort();
      await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
    });

    afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

    it('forks every service from the bundle, answers jt_blockNumber and the status page, and exports gRPC spans', async () => {
      const dir = dataDir();
      const [rpcPort, apiPort] = [await freePort(), await freePort()];
      const node = startProcess([entry, '-dev', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort), '-data_dir', dir], {
        env: { ...plainNode, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '200' },
      });
      for (const service of ['devnet', 'ledger-store', 'keystore', 'submission', 'sync', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`), 45_000);

      // Each child is `node --max-semi-space-size=16 <the bundle's entry> serve <service> …`: no loader flag, no source file.
      for (const [service, pid] of childPids(node)) {
        const [, youngGeneration, script, command, name] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        expect({ youngGeneration, script, command, name }).toEqual({ youngGeneration: '--max-semi-space-size=16', script: entry, command: 'serve', name: service });
      }

      const call = rpcClient(rpcPort);
      const blockNumber = await waitUntil(async () => {
        const answer = await call('jt_blockNumber');
        return typeof answer.result === 'number' && answer.result > 0 && answer.result;
      }, 30_000, 'a stored ledger');
      expect(blockNumber).toBeGreaterThan(0);

      // The facade's status page, a file beside the bundle's code.
      const page = await fetch(`http://127.0.0.1:${apiPort}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/^<!doctype html>/i);

      // The grpc instrumentation, registered from the bundle's telemetry chunk, patched @grpc/grpc-js.
      await waitUntil(() => exported.has('ledger-node-ledger-store @opentelemetry/instrumentation-grpc'), 20_000, `gRPC spans of ledger-store (got ${[...exported].join(', ')})`);

      expect(await node.stop('SIGTERM', 12_000)).toBe(0);
      expect(node.output()).not.toMatch(/did not stop|killed/);
    }, 120_000);
  });
});
