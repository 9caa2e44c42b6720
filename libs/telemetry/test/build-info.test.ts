import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '@ledger-node/test-utils';
import { buildInfo, buildVersion } from '../src/build-info';
import { initMetrics, metricsText } from '../src/metrics';

/** The checkout's HEAD as git tells it, or undefined where git cannot. */
function gitHead(): string | undefined {
  const result = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: workspaceRoot(), encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

describe('buildInfo from the sources', () => {
  it("gives the workspace package.json's version", () => {
    const { version } = JSON.parse(readFileSync(path.join(workspaceRoot(), 'package.json'), 'utf8')) as { version: string };
    expect(buildInfo().version).toBe(version);
  });

  it("gives the checkout's git commit (unknown where git cannot tell)", () => {
    expect(buildInfo().commit).toBe(gitHead() ?? 'unknown');
    expect(buildInfo().commit).toMatch(/^([0-9a-f]{40}|[0-9a-f]{64}|unknown)$/);
  });

  it('gives the Node.js version that runs it', () => {
    expect(buildInfo().nodeVersion).toBe(process.version);
  });
});

describe('buildVersion', () => {
  it('is the version with the commit as semver build metadata', () => {
    expect(buildVersion({ version: '1.2.3', commit: '0123456789abcdef0123456789abcdef01234567', nodeVersion: 'v20.19.0' })).toBe('1.2.3+0123456789ab');
  });

  it('is the version alone when the commit is unknown', () => {
    expect(buildVersion({ version: '1.2.3', commit: 'unknown', nodeVersion: 'v20.19.0' })).toBe('1.2.3');
  });
});

describe('ledger_node_build_info', () => {
  it('is 1, labelled with the version, the commit and the Node.js version, once a service starts its metrics', async () => {
    initMetrics('ledger-store');
    const { version, commit, nodeVersion } = buildInfo();
    const lines = (await metricsText()).body.split('\n').filter((line) => line.startsWith('ledger_node_build_info'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ 1$/);
    for (const label of [`version="${version}"`, `commit="${commit}"`, `node_version="${nodeVersion}"`, 'ledger_node_service="ledger-store"']) expect(lines[0]).toContain(label);
  });
});
