/**
 * The container image's rules, read from the Dockerfile and .dockerignore at the workspace root
 * (no container engine runs where the tests do): a multi-stage build on pinned bases, production
 * dependencies only, a non-root runtime whose entrypoint is the CLI, and nothing secret or stored
 * copied in.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '@ledger-node/test-utils';

const root = workspaceRoot();
const dockerfile = DockerfileParser.parse(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const instructions = dockerfile.getInstructions();
const froms = dockerfile.getFROMs();
/** The instructions of the last stage: what the running container is. */
const runtime = instructions.slice(instructions.indexOf(froms.at(-1)!));
const keyword = (instruction: Instruction) => instruction.getKeyword().toUpperCase();
const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

/** Paths that hold secrets or stored data. */
const SECRET_OR_DATA = /(^|\/)(\.data|keystore|run|\.env)(\/|$)|\.pem$|\.key$|password|token|secret/i;

describe('the Dockerfile', () => {
  it('builds in stages on bases pinned to an exact version (or digest), the runtime on a slim one', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const pinned = from.getImageDigest() !== undefined || /^\d+\.\d+\.\d+(-[a-z0-9.-]+)?$/.test(from.getImageTag() ?? '');
      expect(pinned, `FROM ${from.getArgumentsContent()}`).toBe(true);
    }
    expect(froms.at(-1)!.getImageTag()).toMatch(/slim/);
  });

  it('installs the production dependencies only, from the lock file', () => {
    const runs = instructions.filter((instruction) => keyword(instruction) === 'RUN').map((instruction) => instruction.getArgumentsContent() ?? '');
    expect(runs.some((run) => /\bnpm ci\b.*--omit=dev\b/.test(run))).toBe(true);
    expect(runs.some((run) => /\bnpm (install|i)\b/.test(run))).toBe(false);
  });

  it('runs as a user other than root, set after the last RUN of the runtime stage', () => {
    const users = runtime.filter((instruction) => keyword(instruction) === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.getArgumentsContent()!.trim();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const lastRun = runtime.map(keyword).lastIndexOf('RUN');
    expect(runtime.indexOf(users.at(-1)!)).toBeGreaterThan(lastRun);
  });

  it('has the CLI as its entrypoint, in exec form, and the CLI exists', () => {
    const entrypoint = runtime.filter((instruction) => keyword(instruction) === 'ENTRYPOINT').at(-1);
    expect(JSON.parse(entrypoint!.getArgumentsContent()!)).toEqual(['ledger-node']);
    const bin = JSON.parse(readFileSync(path.join(root, 'apps/node/package.json'), 'utf8')).bin['ledger-node'];
    expect(existsSync(path.join(root, 'apps/node', bin))).toBe(true);
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
  it.each([['node_modules'], ['.git'], ['.data'], ['keystore'], ['**/*.pem'], ['**/*.key'], ['**/*password*'], ['test-output']])('leaves out %s', (pattern) => {
    expect(ignored).toContain(pattern);
  });
});
