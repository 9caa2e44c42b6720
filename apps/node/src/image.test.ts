/**
 * The container image's rules, read from the Dockerfile and .dockerignore at the workspace root
 * (no container engine runs where the tests do): a multi-stage build on pinned bases, the bundle
 * of `npm run build` with production dependencies only and no sources or TypeScript loader, a
 * non-root runtime whose entrypoint is the CLI, and nothing secret or stored copied in.
 * apps/node/test/bundle.test.ts runs that bundle.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Copy, DockerfileParser, type Instruction } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '@ledger-node/test-utils';
import { LTS_NODE_MAJOR } from '@ledger-node/telemetry';

const root = workspaceRoot();
const dockerfile = DockerfileParser.parse(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const instructions = dockerfile.getInstructions();
const froms = dockerfile.getFROMs();
/** The instructions of the last stage: what the running container is. */
const runtime = instructions.slice(instructions.indexOf(froms.at(-1)!));
const keyword = (instruction: Instruction) => instruction.getKeyword().toUpperCase();
const runsOf = (stage: Instruction[]) => stage.filter((instruction) => keyword(instruction) === 'RUN').map((instruction) => instruction.getArgumentsContent() ?? '');
/** The instructions of the stage named `name` (`FROM … AS name`). */
function stageNamed(name: string): Instruction[] {
  const at = froms.findIndex((from) => from.getBuildStage() === name);
  expect(at, `a stage named ${name}`).toBeGreaterThanOrEqual(0);
  return instructions.slice(instructions.indexOf(froms[at]!), at + 1 < froms.length ? instructions.indexOf(froms[at + 1]!) : undefined);
}
/** The stage the runtime copies `destination` from (`COPY --from=<stage> … <destination>`). */
function stageCopiedTo(destination: RegExp): Instruction[] {
  const copy = runtime.find((instruction): instruction is Copy => instruction instanceof Copy && destination.test(instruction.getArguments().at(-1)!.getValue()));
  expect(copy, `a COPY to ${destination}`).toBeDefined();
  return stageNamed(copy!.getFromFlag()!.getValue()!);
}
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  engines: { node: string };
};
/**
 * Whether `version` (`26.12.1`) is in `range`, package.json's `engines.node`: caret ranges
 * (`^20.19.0`) joined by `||`, the one form it is written in; any other form fails the test.
 */
function inEngines(version: string, range: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number);
  return range.split('||').some((alternative) => {
    const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(alternative.trim());
    expect(caret, `engines.node alternative "${alternative.trim()}" is a caret range`).not.toBeNull();
    const [floorMajor, floorMinor, floorPatch] = caret!.slice(1).map(Number);
    return major === floorMajor && (minor! > floorMinor! || (minor === floorMinor && patch! >= floorPatch!));
  });
}
const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

/** Paths that hold secrets or stored data (a keystore directory, but not the keystore app's sources in apps/keystore). */
const SECRET_OR_DATA = /(^|\/)(\.data|run|\.env)(\/|$)|(?<!^apps)(^|\/)keystore(\/|$)|\.pem$|\.key$|password|token|secret/i;

describe('the Dockerfile', () => {
  it('builds in stages on bases pinned to an exact version (or digest), the runtime on a slim one', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const pinned = from.getImageDigest() !== undefined || /^\d+\.\d+\.\d+(-[a-z0-9.-]+)?$/.test(from.getImageTag() ?? '');
      expect(pinned, `FROM ${from.getArgumentsContent()}`).toBe(true);
    }
    expect(froms.at(-1)!.getImageTag()).toMatch(/slim/);
  });

  it('builds and runs on one Node.js, the LTS that ledger-node is built for', () => {
    const tags = froms.map((from) => `${from.getImageName()}:${from.getImageTag()}`);
    const versions = new Set(tags.map((tag) => /^node:(\d+\.\d+\.\d+)-/.exec(tag)?.[1]));
    expect([...versions], tags.join(', ')).toHaveLength(1);
    expect([...versions][0], tags.join(', ')).toMatch(new RegExp(`^${LTS_NODE_MAJOR}\\.`));
  });

  it("builds on a Node.js that package.json's engines admits", () => {
    const [version] = new Set(froms.map((from) => /^(\d+\.\d+\.\d+)-/.exec(from.getImageTag() ?? '')?.[1]));
    expect(inEngines(version!, packageJson.engines.node), `${version} in ${packageJson.engines.node}`).toBe(true);
    // The check itself: a line engines leaves out, and a release below a line's floor.
    expect(inEngines('25.1.0', packageJson.engines.node)).toBe(false);
    expect(inEngines('20.18.3', packageJson.engines.node)).toBe(false);
  });

  it("compiles the RocksDB binding, where its prebuilt one cannot load, against the image's own Node.js headers: nothing downloaded", () => {
    const env = stageCopiedTo(/^node_modules\/?$/)
      .filter((instruction) => keyword(instruction) === 'ENV')
      .map((instruction) => instruction.getArgumentsContent() ?? '');
    expect(env.some((line) => /\bnpm_config_nodedir=\/usr\/local\b/.test(line))).toBe(true);
  });

  it('runs each service with the young generation the supervisor gives its services (--max-semi-space-size=16)', () => {
    const env = instructions
      .slice(instructions.indexOf(froms.at(-1)!))
      .filter((instruction) => keyword(instruction) === 'ENV')
      .map((instruction) => instruction.getArgumentsContent() ?? '');
    expect(env.some((line) => /\bNODE_OPTIONS=--max-semi-space-size=16\b/.test(line))).toBe(true);
  });

  it("installs the dependencies from the manifests alone: every workspace's package.json, nothing of the sources", () => {
    const copied = stageCopiedTo(/^node_modules\/?$/)
      .filter((instruction): instruction is Copy => instruction instanceof Copy)
      .flatMap((copy) => copy.getArguments().slice(0, -1).map((argument) => argument.getValue()));
    const workspaces = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces as string[])
      .flatMap((pattern) => readdirSync(path.join(root, path.dirname(pattern))).map((name) => `${path.dirname(pattern)}/${name}/package.json`))
      .filter((file) => existsSync(path.join(root, file)));
    expect(copied.sort()).toEqual(['package-lock.json', 'package.json', ...workspaces].sort());
  });

  it('installs the production dependencies only, from the lock file, into the runtime', () => {
    expect(runsOf(stageCopiedTo(/^node_modules\/?$/)).some((run) => /\bnpm ci\b.*--omit=dev\b/.test(run))).toBe(true);
    expect(runsOf(instructions).some((run) => /\bnpm (install|i)\b/.test(run))).toBe(false);
  });

  it('runs the bundle of `npm run build`, built in a stage of its own: no sources, no TypeScript loader', () => {
    expect(runsOf(stageCopiedTo(/^dist\/?$/)).some((run) => /\bnpm ci\b(?!.*--omit=dev).*&& npm run build\b/.test(run))).toBe(true);
    expect(existsSync(path.join(root, packageJson.scripts.build!.replace(/^node /, '')))).toBe(true);
    // The runtime copies from the other stages only: node_modules and the bundle.
    const copies = runtime.filter((instruction): instruction is Copy => instruction instanceof Copy);
    expect(copies.map((copy) => `${copy.getFromFlag()?.getValue()} ${copy.getArguments().map((argument) => argument.getValue()).join(' ')}`)).toEqual([
      'deps /app/node_modules node_modules/',
      'build /app/dist dist/',
    ]);
    expect(runtime.map((instruction) => instruction.getTextContent()).join('\n')).not.toMatch(/\btsx\b|\.ts\b/);
    // So the production dependencies hold neither the loader nor the bundler.
    for (const tool of ['tsx', 'esbuild', 'typescript']) {
      expect(packageJson.dependencies, tool).not.toHaveProperty(tool);
      expect(packageJson.devDependencies, tool).toHaveProperty(tool);
    }
  });

  it('runs as a user other than root, set after the last RUN of the runtime stage', () => {
    const users = runtime.filter((instruction) => keyword(instruction) === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.getArgumentsContent()!.trim();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const lastRun = runtime.map(keyword).lastIndexOf('RUN');
    expect(runtime.indexOf(users.at(-1)!)).toBeGreaterThan(lastRun);
  });

  it('has the CLI as its entrypoint, in exec form: `ledger-node` on PATH is the entry of the bundle', () => {
    const entrypoint = runtime.filter((instruction) => keyword(instruction) === 'ENTRYPOINT').at(-1);
    expect(JSON.parse(entrypoint!.getArgumentsContent()!)).toEqual(['ledger-node']);
    expect(runsOf(runtime).some((run) => /\bln -s \/app\/dist\/ledger-node\.mjs \/usr\/local\/bin\/ledger-node\b/.test(run))).toBe(true);
  });

  it('copies nothing secret or stored, only paths of the repository, and sets no secret', () => {
    for (const instruction of instructions.filter((each) => ['COPY', 'ADD'].includes(keyword(each)))) {
      const fromStage = instruction.getArgumentsContent() !== undefined && /--from=/.test(instruction.getTextContent());
      const sources = instruction.getArguments().map((argument) => argument.getValue()).slice(0, -1);
      for (const source of sources) {
        expect(source, instruction.getTextContent()).not.toMatch(SECRET_OR_DATA);
        if (!fromStage) expect(existsSync(path.join(root, source)), `${source} (${instruction.getTextContent()})`).toBe(true);
      }
      expect(keyword(instruction), 'ADD fetches and unpacks: COPY is what is meant').toBe('COPY');
    }
    for (const instruction of instructions.filter((each) => ['ENV', 'ARG'].includes(keyword(each)))) {
      expect(instruction.getArgumentsContent(), instruction.getTextContent()).not.toMatch(/PASSWORD|TOKEN|SECRET|PRIVATE/i);
    }
  });
});

describe('the .dockerignore', () => {
  it.each([['node_modules'], ['.git'], ['.data'], ['keystore'], ['**/*.pem'], ['**/*.key'], ['**/*password*'], ['test-output'], ['dist']])('leaves out %s', (pattern) => {
    expect(ignored).toContain(pattern);
  });

  it('keeps the build script, which the build stage runs, though the other tools stay out', () => {
    expect(ignored.indexOf('!tools/build')).toBeGreaterThan(ignored.indexOf('tools'));
  });
});
