import { describe, expect, it } from 'vitest';
import { Unavailable } from '@ledger-node/errors';
import { writeFailure } from './kv';

describe('writeFailure', () => {
  it('says "disk full" for RocksDB\'s no-space error, and read-only for a directory it may not write', () => {
    const full = writeFailure(new Error('IO error: No space left on device: While appending to file: /data/node.db/000012.log'), '/data/node.db');
    expect(full).toBeInstanceOf(Unavailable);
    expect((full as Error).message).toBe('disk full: the store at /data/node.db cannot write (IO error: No space left on device: While appending to file: /data/node.db/000012.log)');
    const readOnly = writeFailure(new Error('IO error: While open a file for appending: /data/node.db/000013.log: Read-only file system'), '/data/node.db');
    expect((readOnly as Error).message).toMatch(/^the store at \/data\/node.db cannot write: its directory is read-only/);
  });

  it('passes any other failure on as it is', () => {
    const other = new Error('Corruption: block checksum mismatch');
    expect(writeFailure(other, '/data/node.db')).toBe(other);
  });
});
