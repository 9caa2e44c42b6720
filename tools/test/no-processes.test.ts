import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Runs in the unit tier, where no-processes.ts is set up.
describe('a unit test', () => {
  it('cannot start a process: each way it tries throws, naming where such a test belongs', () => {
    for (const start of [() => spawnSync('true'), () => spawn('true'), () => execFileSync('true')]) {
      expect(start).toThrow(/a unit test started a process \(child_process\.\w+ true\): a test that starts processes belongs in its project's test\/ folder/);
    }
  });
});
