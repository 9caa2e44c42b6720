import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '@ledger-node/test-utils';
import { flagGroups, renderFlagTable } from './index';

describe('README', () => {
  it('shows the flags table exactly as the flags are declared', () => {
    const readme = readFileSync(`${workspaceRoot()}/README.md`, 'utf8');
    expect(readme).toContain(renderFlagTable(flagGroups));
  });
});
