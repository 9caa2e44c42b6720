import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, workspaceRoot } from '@ledger-node/test-utils';
import { allFlags, flagGroups, parseFlags, renderFlagTable } from './index';

const readme = readFileSync(`${workspaceRoot()}/README.md`, 'utf8');

describe('README', () => {
  it('shows the flags table exactly as the flags are declared', () => {
    expect(readme).toContain(renderFlagTable(flagGroups));
  });

  it('shows an example -config file the flags accept', () => {
    const example = /```toml\n(# ledger-node -config [\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const dir = tempDir('readme-config-');
    try {
      const file = path.join(dir.dir, 'ledger-node.toml');
      writeFileSync(file, example!);
      const { flags } = parseFlags(['-config', file], allFlags, { env: {} });
      expect(flags.origin('rpcport')).toEqual({ kind: 'file', file });
      expect(flags.boolean('rpc')).toBe(true);
    } finally {
      dir.remove();
    }
  });
});
