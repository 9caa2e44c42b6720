#!/usr/bin/env node
// `npm run build [-- [--outdir DIR] [--sourcemap]]`: the CLI and every service bundled into JavaScript in DIR
// (default dist/), which the container image runs with plain `node`, no TypeScript loader:
//   ledger-node.mjs   the entry (apps/node/src/launch.ts), executable;
//   chunks/           the code it imports dynamically: the CLI, each service, shared code;
//   meta.json         esbuild's metafile: which source went into which output, and how imported;
//   *.mjs.map         with --sourcemap (the bench's CPU profiles): where each line came from.
// The version (package.json) and the git commit are written into the bundle (libs/telemetry's
// build-info.ts), so that the image answers `ledger-node version` without package.json or git:
// the commit is `--commit SHA` when given (the image's build has no .git: `docker build
// --build-arg COMMIT=$(git rev-parse HEAD)`), else `git rev-parse HEAD`, else "unknown".
// The workspace's own packages (@ledger-node/*) and the pure-JavaScript npm packages are bundled:
// a process then loads a few files instead of some hundreds, none of them looked up in node_modules
// or scanned for the names a CommonJS module exports (a service started in 0.55 to 0.76 s of CPU
// instead of 0.70 to 1.2 s). The packages in NODE_MODULES_IMPORTS stay imports of node_modules.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entryName = 'ledger-node';

const { values } = parseArgs({
  options: { outdir: { type: 'string', default: path.join(root, 'dist') }, commit: { type: 'string' }, sourcemap: { type: 'boolean', default: false } },
});
const outdir = path.resolve(values.outdir);

const commitPattern = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The commit the bundle is built from: --commit (a full hash, or "unknown"), else the checkout's HEAD, else "unknown". */
function buildCommit() {
  if (values.commit !== undefined) {
    const given = values.commit.trim().toLowerCase();
    if (given === '' || given === 'unknown') return 'unknown';
    if (!commitPattern.test(given)) throw new Error(`--commit ${values.commit}: expected a full git commit hash (40 or 64 hex digits) or "unknown"`);
    return given;
  }
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim();
    return commitPattern.test(head) ? head : 'unknown';
  } catch (error) {
    // No git here (ENOENT) or no repository (the image's build context leaves .git out): unknown.
    if (error instanceof Error) return 'unknown';
    throw error;
  }
}

/**
 * The npm packages a bundle cannot hold, left to Node as imports of node_modules:
 * - rocksdb: a native binding, which node-gyp-build finds beside the package's own files;
 * - @grpc/grpc-js and @opentelemetry/*: OpenTelemetry patches @grpc/grpc-js as Node loads it
 *   (libs/telemetry start.ts), which it cannot do to code inside a bundle; the SDK is loaded only
 *   when tracing is on, and with the API it shares the one @grpc/grpc-js every service uses.
 * A name ending in / stands for every package of that scope.
 */
const NODE_MODULES_IMPORTS = ['rocksdb', '@grpc/grpc-js', '@opentelemetry/'];
const leftToNodeModules = (name) => NODE_MODULES_IMPORTS.some((kept) => (kept.endsWith('/') ? name.startsWith(kept) : name === kept));

/**
 * The folders (`node_modules/…`, nested ones too) of the packages the image installs (`npm ci
 * --omit=dev`), by the lock file. A package outside them is not bundled either: a bundled package's
 * optional import of one (debug's supports-color, ws's bufferutil, pg's pg-native, each inside a
 * try block) fails in the bundle as it fails in the image.
 */
function productionPackageDirs() {
  const { packages } = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  return new Set(Object.entries(packages).filter(([key, entry]) => key.startsWith('node_modules/') && !entry.dev).map(([key]) => key));
}

/**
 * Node builtins, NODE_MODULES_IMPORTS and the packages the image does not install stay imports,
 * left to Node; every other bare import is bundled. A subpath of a package left to Node without an
 * `exports` map gets the file name Node's ES module resolver needs (tsx finds `pkg/dist/file`, Node
 * wants `….js`).
 */
const nodeModulesImports = {
  name: 'node-modules-imports',
  setup(build) {
    const production = productionPackageDirs();
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData?.resolvingExternal || args.path.startsWith('@ledger-node/')) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const { name, subpath } = splitSpecifier(args.path);
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { resolvingExternal: true } });
      // Not installed: an optional import inside a try block, which fails at run time as it would in the image.
      if (resolved.errors.length > 0) return subpath === '' ? { path: args.path, external: true } : { errors: resolved.errors };
      const inNodeModules = resolved.path.lastIndexOf(nodeModules);
      if (inNodeModules < 0) return { errors: [{ text: `${args.path} resolves outside node_modules: ${resolved.path}` }] };
      const packageDir = resolved.path.slice(0, inNodeModules + nodeModules.length + name.length);
      // The lock file's key of the package: its path from the first node_modules on (a checkout may link node_modules elsewhere).
      const lockKey = packageDir.slice(packageDir.indexOf(nodeModules) + 1).split(path.sep).join('/');
      if (!leftToNodeModules(name) && production.has(lockKey)) return undefined;
      if (subpath === '') return { path: args.path, external: true };
      const { exports } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
      const file = path.relative(packageDir, resolved.path).split(path.sep).join('/');
      return { path: exports === undefined ? `${name}/${file}` : args.path, external: true };
    });
  },
};

const nodeModules = `${path.sep}node_modules${path.sep}`;

/** `@scope/name/sub/path` → `@scope/name` and `sub/path` ('' for the package itself). */
function splitSpecifier(specifier) {
  const parts = specifier.split('/');
  const nameParts = specifier.startsWith('@') ? 2 : 1;
  return { name: parts.slice(0, nameParts).join('/'), subpath: parts.slice(nameParts).join('/') };
}

/**
 * Files the sources read beside themselves, `new URL('./page.html', import.meta.url)`, are copied
 * beside the output that holds that source, under the same relative path: the code stays as it is
 * and the asset stays a file (the status page is read once, at start-up). A path that leaves the
 * output folder, or two different files for one path, fail the build.
 */
function copyAssets(metafile) {
  const copied = new Map();
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    for (const input of Object.keys(inputs).filter((file) => /\.[cm]?ts$/.test(file))) {
      const source = readFileSync(path.join(root, input), 'utf8');
      for (const [, relative] of source.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)) {
        const from = path.resolve(root, path.dirname(input), relative);
        const to = path.resolve(root, path.dirname(output), relative);
        if (!to.startsWith(outdir + path.sep)) throw new Error(`${input}: ${relative} would be outside ${outdir}`);
        if (copied.has(to) && copied.get(to) !== from) throw new Error(`${to} is both ${copied.get(to)} and ${from}`);
        copied.set(to, from);
        mkdirSync(path.dirname(to), { recursive: true });
        copyFileSync(from, to);
      }
    }
  }
  return copied.size;
}

/** Only a folder a previous build wrote (it holds meta.json) is emptied: `--outdir .` must not wipe the workspace. */
function prepareOutdir() {
  if (!existsSync(outdir)) return;
  if (existsSync(path.join(outdir, 'meta.json'))) rmSync(outdir, { recursive: true });
  else if (readdirSync(outdir).length > 0) throw new Error(`${outdir} is not empty and holds no previous build (meta.json)`);
}

try {
  const started = Date.now();
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const build = { version: String(version), commit: buildCommit() };
  prepareOutdir();
  const { metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [{ in: 'apps/node/src/launch.ts', out: entryName }],
    outdir,
    bundle: true,
    // Each dynamic import (telemetry, the CLI, each service) becomes a chunk loaded when imported:
    // a service's code is read by the process that runs it only, and nothing imports
    // @grpc/grpc-js before OpenTelemetry started (launch.ts).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // .mjs: ES modules wherever the folder is, with no package.json beside it.
    outExtension: { '.js': '.mjs' },
    plugins: [nodeModulesImports],
    metafile: true,
    // The sources' paths only (no copy of their text): what tools/bench/request-profile.ts maps frames to.
    ...(values.sourcemap ? { sourcemap: 'linked', sourcesContent: false } : {}),
    logLevel: 'warning',
    // A bundled CommonJS module's require() of a Node builtin (or of a package left to
    // node_modules) goes to Node's own require, made for each output file.
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
    // libs/telemetry/src/build-info.ts reads this instead of package.json and git.
    define: { __LEDGER_NODE_VERSION__: JSON.stringify(build.version), __LEDGER_NODE_COMMIT__: JSON.stringify(build.commit) },
  });
  const entry = path.join(outdir, `${entryName}.mjs`);
  writeFileSync(entry, `#!/usr/bin/env node\n${readFileSync(entry, 'utf8')}`);
  chmodSync(entry, 0o755);
  const assets = copyAssets(metafile);
  writeFileSync(path.join(outdir, 'meta.json'), JSON.stringify(metafile));
  const outputs = Object.values(metafile.outputs);
  const bytes = outputs.reduce((sum, output) => sum + output.bytes, 0);
  const shown = path.relative(process.cwd(), entry).startsWith('..') ? entry : path.relative(process.cwd(), entry);
  console.log(
    `built ${shown} (${build.version}, commit ${build.commit}): ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB, ${assets} assets, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  // esbuild has printed its own errors already.
  if (!(error instanceof Error && 'errors' in error)) console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
