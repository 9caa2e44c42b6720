import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allFlags, parseFlags } from '@ledger-node/config';
import { tempDir } from '@ledger-node/test-utils';
import { facadeConfig } from './config';

const { dir, remove } = tempDir('facade-config-');
afterAll(remove);

function tokenFile(name: string, token: string, mode = 0o600): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${token}\n`, { mode });
  chmodSync(file, mode);
  return file;
}

const configOf = (...argv: string[]) => facadeConfig(parseFlags(['-data_dir', dir, ...argv], allFlags).flags);

describe('the facade tokens', () => {
  it('-rpc_token_file takes a token of 16 characters or more from an owner-only file', () => {
    expect(configOf('-rpc_token_file', tokenFile('rpc-token', 'sixteen-chars-ok')).rpcToken).toBe('sixteen-chars-ok');
  });

  it('-rpc_token_file refuses a 5-character token, naming the file and the rule, never the token', () => {
    const file = tokenFile('short-token', 'abcde');
    expect(() => configOf('-rpc_token_file', file)).toThrow(`-rpc_token_file ${file} holds a token shorter than 16 characters`);
    expect(() => configOf('-rpc_token_file', file)).not.toThrow(/abcde/);
  });

  it('-rpc_token_file and -keystore_token_file refuse a file others may read', () => {
    const file = tokenFile('open-token', 'a-token-others-may-read', 0o644);
    for (const flag of ['rpc_token_file', 'keystore_token_file']) {
      expect(() => configOf(`-${flag}`, file)).toThrow(`-${flag} ${file} has mode 0644: a secret file must be readable by its owner only`);
    }
  });
});
