import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { workspaceRoot } from '@ledger-node/test-utils';

const root = workspaceRoot();
let eslint: ESLint;

beforeAll(() => {
  // The boundary rule reads Nx's project graph: let Nx see every project first.
  spawnSync(path.join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, env: { ...process.env, NX_DAEMON: 'false' } });
  eslint = new ESLint({ cwd: root });
});

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
}

describe('module-boundary lint', () => {
  it('fails when an app imports another app', async () => {
    const errors = await boundaryErrors('apps/facade/src/bad.ts', "import { start } from '@ledger-node/ledger-store/main';\nexport { start };\n");
    expect(errors.join('\n')).toMatch(/Imports of apps are forbidden|type:app/);
  });

  it('fails when a lib imports an app', async () => {
    const errors = await boundaryErrors('libs/grpc/src/bad.ts', "import { start } from '@ledger-node/sync/main';\nexport { start };\n");
    expect(errors.join('\n')).toMatch(/Imports of apps are forbidden|type:app/);
  });

  it('fails when shared code imports the test utilities', async () => {
    const errors = await boundaryErrors('libs/chain/src/bad.ts', "import { freePort } from '@ledger-node/test-utils';\nexport { freePort };\n");
    expect(errors.join('\n')).toMatch(/scope:testing/);
  });

  it('passes an app importing libs', async () => {
    expect(await boundaryErrors('apps/facade/src/good.ts', "import { getProfile } from '@ledger-node/chain';\nexport { getProfile };\n")).toEqual([]);
  });
});
