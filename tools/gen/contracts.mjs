// The contracts pipeline shared by `npm run gen` (generate.mjs) and the drift check (check.mjs):
// buf lint + buf generate (npm @bufbuild/buf with the local ts-proto plugin), then the index barrel.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root; buf and the plugin paths in proto/buf.gen.yaml are relative to it. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Where the committed contracts live, relative to an output base (the repo root for `npm run gen`). */
export const contractsSrcRelative = path.join('libs', 'contracts', 'src');

const bufBinary = path.join(repoRoot, 'node_modules', '.bin', 'buf');

// Names ts-proto emits in every file; a flat re-export of them would clash, the namespaces keep them.
const perFileSymbols = new Set(['protobufPackage', 'protobufFileName', 'DeepPartial', 'Exact', 'MessageFns']);

function runBuf(args) {
  try {
    execFileSync(bufBinary, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new Error(`buf ${args[0]} failed${output ? `:\n${output}` : `: ${error.message}`}`, { cause: error });
  }
}

/** Fails with buf's findings when a proto file breaks the lint rules of proto/buf.yaml. */
export function lintProtos() {
  runBuf(['lint', 'proto']);
}

/**
 * The contracts as released: `proto/release/ledgernode-<version>.binpb`, buf images written when a
 * version is released (`npx buf build proto --exclude-source-info -o proto/release/ledgernode-<version>.binpb`).
 */
export const releaseDir = path.join(repoRoot, 'proto', 'release');

/** The image of the newest release (by version), or undefined when none is recorded. */
export function lastRelease() {
  const versionOf = (file) => file.match(/^ledgernode-(\d+)\.(\d+)\.(\d+)\.binpb$/)?.slice(1).map(Number);
  const releases = listFiles(releaseDir).filter((file) => versionOf(file) !== undefined);
  releases.sort((a, b) => {
    const [x, y] = [versionOf(a), versionOf(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return releases.length === 0 ? undefined : path.join(releaseDir, releases.at(-1));
}

/**
 * Fails with buf's findings when the proto files under `protoDir` (default: proto/) break a client
 * or server of the release image `against` (buf's FILE rules, proto/buf.yaml): a removed or renamed
 * rpc, message, field or enum value, a changed type or number.
 */
export function checkBreaking(against, protoDir = 'proto') {
  runBuf(['breaking', protoDir, '--against', against]);
}

/** Relative paths (POSIX separators, sorted) of every file under a directory; none when it is absent. */
export function listFiles(directory) {
  let entries;
  try {
    entries = readdirSync(directory, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Runs buf generate so that the contracts land in `<outputBase>/libs/contracts/src/gen`, after emptying
 * that folder, then writes `<outputBase>/libs/contracts/src/index.ts`. Returns the contracts src folder.
 */
export function generateContracts(outputBase) {
  const contractsSrc = path.join(outputBase, contractsSrcRelative);
  const genDir = path.join(contractsSrc, 'gen');
  // Stale files of a removed or renamed proto must not survive a regeneration.
  rmSync(genDir, { recursive: true, force: true });
  mkdirSync(genDir, { recursive: true });
  runBuf(['generate', 'proto', '--template', path.join('proto', 'buf.gen.yaml'), '--output', outputBase]);
  writeFileSync(path.join(contractsSrc, 'index.ts'), renderIndex(genDir));
  return contractsSrc;
}

/** Top-level names a generated file exports, split into values and type-only names. */
function exportedNames(source) {
  const values = new Set();
  const types = new Set();
  for (const match of source.matchAll(/^export (const|function|enum|class|interface|type) (\w+)/gm)) {
    const [, kind, name] = match;
    if (kind === 'interface' || kind === 'type') types.add(name);
    else values.add(name);
  }
  // ts-proto pairs each message interface with a same-named const: such a name is a value.
  for (const name of values) types.delete(name);
  return { values, types };
}

/** The barrel: one namespace per proto package, plus flat re-exports of every name no two files share. */
export function renderIndex(genDir) {
  const modules = listFiles(genDir)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => {
      // gen/ledgernode/<package>/v1/<file>.ts: the namespace is the package's own name segment.
      const segments = file.split('/');
      const namespace = segments.length >= 3 ? segments[segments.length - 3] : path.basename(file, '.ts');
      return { namespace, specifier: `./gen/${file.replace(/\.ts$/, '')}`, ...exportedNames(readFileSync(path.join(genDir, file), 'utf8')) };
    });

  const namespaces = new Set();
  for (const module of modules) {
    if (namespaces.has(module.namespace)) {
      throw new Error(`two generated files map to namespace "${module.namespace}": keep one .proto file per package`);
    }
    namespaces.add(module.namespace);
  }

  const fileCountByName = new Map();
  for (const module of modules) {
    for (const name of [...module.values, ...module.types]) fileCountByName.set(name, (fileCountByName.get(name) ?? 0) + 1);
  }
  const isFlat = (name) => !perFileSymbols.has(name) && fileCountByName.get(name) === 1;

  const lines = [
    '// Code generated by tools/gen/generate.mjs from proto/. DO NOT EDIT: run `npm run gen`.',
    '',
  ];
  for (const module of modules) lines.push(`export * as ${module.namespace} from '${module.specifier}';`);
  for (const module of modules) {
    const values = [...module.values].filter(isFlat).sort();
    const types = [...module.types].filter(isFlat).sort();
    lines.push('');
    if (values.length > 0) lines.push(`export {\n${values.map((name) => `  ${name},`).join('\n')}\n} from '${module.specifier}';`);
    if (types.length > 0) lines.push(`export type {\n${types.map((name) => `  ${name},`).join('\n')}\n} from '${module.specifier}';`);
  }
  return `${lines.join('\n')}\n`;
}
