#!/usr/bin/env node
// The `ledger-node` command of a checkout (`npx ledger-node`, `npm start`): the JavaScript bundle of
// `npm run build` in dist/, run by plain Node with no TypeScript loader, as the container image runs
// it. A checkout with no bundle yet (a fresh `npm ci`), or whose sources or installed packages
// changed since it was built, is built first (esbuild, under a second). The tests run the sources
// instead (ledger-node-sources.js).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dist = path.join(root, 'dist');
const entry = path.join(dist, 'ledger-node.mjs');
/** Written last by the build: its time is the build's. */
const metafile = path.join(dist, 'meta.json');

/**
 * The newest modification time of what the bundle is built from: the sources (apps/*\/src,
 * libs/*\/src; tests aside), and the npm packages it holds — the lock file, and what was installed
 * from it (npm writes node_modules/.package-lock.json at each install).
 */
function newestSourceMs() {
  let newest = 0;
  for (const file of ['package-lock.json', 'node_modules/.package-lock.json']) {
    if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  }
  for (const top of ['apps', 'libs']) {
    for (const project of readdirSync(path.join(root, top))) {
      const sources = path.join(root, top, project, 'src');
      if (!existsSync(sources)) continue;
      for (const file of readdirSync(sources, { recursive: true, withFileTypes: true })) {
        if (!file.isFile() || file.name.endsWith('.test.ts')) continue;
        newest = Math.max(newest, statSync(path.join(file.parentPath, file.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/**
 * Builds into a folder of its own, then puts it in place of dist/: two commands started at once in
 * a changed checkout never write into one folder.
 */
function build(reason) {
  // As `npm run build`: only a folder a previous build wrote (it holds meta.json) is replaced.
  if (existsSync(dist) && !existsSync(metafile) && readdirSync(dist).length > 0) {
    process.stderr.write(`ledger-node: ${dist} holds no bundle (no meta.json) and is not empty: move it away, then run again\n`);
    process.exit(1);
  }
  const work = path.join(root, 'node_modules/.cache/ledger-node');
  mkdirSync(work, { recursive: true });
  const fresh = path.join(work, `build-${process.pid}`);
  const previous = path.join(work, `previous-${process.pid}`);
  rmSync(fresh, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [path.join(root, 'tools/build/build.mjs'), '--outdir', fresh], { stdio: ['ignore', 'pipe', 2], encoding: 'utf8' });
  if (run.status !== 0) {
    process.stderr.write('ledger-node: building the bundle failed (npm run build shows why)\n');
    process.exit(1);
  }
  // Its line ("built …") on stderr, naming where the bundle goes: stdout is the command's own (`account list -json`).
  const shown = run.stdout.replaceAll(fresh, dist).replaceAll(path.relative(process.cwd(), fresh), path.relative(process.cwd(), dist));
  process.stderr.write(`ledger-node: ${reason}: ${shown}`);
  try {
    renameSync(dist, previous);
  } catch (error) {
    if (error.code === 'EXDEV') rmSync(dist, { recursive: true, force: true });
    else if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(fresh, dist);
  } catch (error) {
    // node_modules on another file system than the checkout: copied instead.
    if (error.code === 'EXDEV') cpSync(fresh, dist, { recursive: true });
    // Another command's build was put in place first: it is as new as this one.
    else if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  }
  rmSync(fresh, { recursive: true, force: true });
  rmSync(previous, { recursive: true, force: true });
}

if (!existsSync(entry) || !existsSync(metafile)) build('no bundle yet');
else if (newestSourceMs() > statSync(metafile).mtimeMs) build('the sources or the installed packages changed since the bundle was built');
// The services and the transient keystore this command starts are forked from the bundle itself (src/cli-entry.ts).
process.argv[1] = entry;
await import(pathToFileURL(entry).href);
