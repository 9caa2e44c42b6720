import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contractsSrcRelative, generateContracts, repoRoot } from '../../../tools/gen/contracts.mjs';
import { describeDrift, findDrift, generatedFiles, hasDrift } from '../../../tools/gen/drift.mjs';

const committedSrc = path.join(repoRoot, contractsSrcRelative);
const temporaryDirs: string[] = [];

function temporaryDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'contracts-test-'));
  temporaryDirs.push(dir);
  return dir;
}

/** A copy of the committed generated files, safe to alter. */
function copyOfCommitted(): string {
  const copy = temporaryDir();
  for (const file of generatedFiles(committedSrc)) {
    cpSync(path.join(committedSrc, file), path.join(copy, file));
  }
  return copy;
}

afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('committed contracts', () => {
  it('hold one generated module per proto package and the index barrel', () => {
    expect(generatedFiles(committedSrc)).toEqual([
      'gen/ledgernode/common/v1/common.ts',
      'gen/ledgernode/keystore/v1/keystore.ts',
      'gen/ledgernode/ledgerstore/v1/ledgerstore.ts',
      'gen/ledgernode/submission/v1/submission.ts',
      'gen/ledgernode/sync/v1/sync.ts',
      'index.ts',
    ]);
  });

  it('equal a fresh generation from proto/ byte for byte', () => {
    const freshSrc = generateContracts(temporaryDir());
    const drift = findDrift(freshSrc, committedSrc);
    expect(describeDrift(drift)).toEqual([]);
    expect(hasDrift(drift)).toBe(false);
  });
});

describe('findDrift', () => {
  it('reports a generated file whose content was altered', () => {
    const copy = copyOfCommitted();
    const altered = path.join(copy, 'gen/ledgernode/sync/v1/sync.ts');
    writeFileSync(altered, readFileSync(altered, 'utf8').replace('syncing', 'synching'));

    const drift = findDrift(committedSrc, copy);

    expect(drift).toEqual({ missing: [], extra: [], changed: ['gen/ledgernode/sync/v1/sync.ts'] });
    expect(hasDrift(drift)).toBe(true);
    expect(describeDrift(drift)).toEqual(['changed: gen/ledgernode/sync/v1/sync.ts']);
  });

  it('reports a generated file that is missing from the committed folder', () => {
    const copy = copyOfCommitted();
    unlinkSync(path.join(copy, 'gen/ledgernode/keystore/v1/keystore.ts'));
    unlinkSync(path.join(copy, 'index.ts'));

    const drift = findDrift(committedSrc, copy);

    expect(drift).toEqual({
      missing: ['gen/ledgernode/keystore/v1/keystore.ts', 'index.ts'],
      extra: [],
      changed: [],
    });
    expect(describeDrift(drift)).toEqual(['missing: gen/ledgernode/keystore/v1/keystore.ts', 'missing: index.ts']);
  });

  it('reports a committed file under gen/ that the protos no longer produce', () => {
    const copy = copyOfCommitted();
    writeFileSync(path.join(copy, 'gen/ledgernode/sync/v1/removed.ts'), 'export {};\n');

    expect(findDrift(committedSrc, copy)).toEqual({
      missing: [],
      extra: ['gen/ledgernode/sync/v1/removed.ts'],
      changed: [],
    });
  });

  it('ignores hand-written files beside the generated ones', () => {
    const copy = copyOfCommitted();
    writeFileSync(path.join(copy, 'roundtrip.test.ts'), 'export {};\n');

    expect(hasDrift(findDrift(committedSrc, copy))).toBe(false);
  });
});
