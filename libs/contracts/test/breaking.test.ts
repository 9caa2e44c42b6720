/**
 * The contracts stay compatible with their last release: `buf breaking` compares proto/ with the
 * image recorded in proto/release (the contract check of `npm test` runs the same comparison).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBreaking, lastRelease, repoRoot } from '../../../tools/gen/contracts.mjs';

const temporaryDirs: string[] = [];
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of proto/ with one file's text changed by `edit`. */
function protoWith(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'contracts-breaking-'));
  temporaryDirs.push(dir);
  const copy = path.join(dir, 'proto');
  cpSync(path.join(repoRoot, 'proto'), copy, { recursive: true, filter: (source) => !source.includes(`${path.sep}release`) });
  const target = path.join(copy, file);
  const before = readFileSync(target, 'utf8');
  const after = edit(before);
  expect(after, 'the edit changes the file').not.toBe(before);
  writeFileSync(target, after);
  return copy;
}

const ledgerStoreProto = 'ledgernode/ledgerstore/v1/ledgerstore.proto';

describe('the contracts against their last release', () => {
  const release = lastRelease();

  it('have a release recorded', () => {
    expect(release).toMatch(/proto\/release\/ledgernode-\d+\.\d+\.\d+\.binpb$/);
  });

  it('break no client or server of it', () => {
    expect(() => checkBreaking(release!)).not.toThrow();
  });

  it('would be refused with an rpc removed, naming it', () => {
    const changed = protoWith(ledgerStoreProto, (text) => text.replace(/^\s*rpc GetStatus\(.*$/m, ''));
    expect(() => checkBreaking(release!, changed)).toThrow(/GetStatus/);
  });

  it('would be refused with a field renumbered, naming the field', () => {
    const changed = protoWith(ledgerStoreProto, (text) => text.replace(/(message GetStatusResponse \{[^}]*?\n\s*repeated [\w.]+ complete_ranges = )(\d+);/, (_whole, head: string, number: string) => `${head}${Number(number) + 90};`));
    expect(() => checkBreaking(release!, changed)).toThrow(/complete_ranges/);
  });

  it('may grow: a new rpc keeps them compatible', () => {
    const changed = protoWith(ledgerStoreProto, (text) =>
      text.replace(/^(\s*)rpc GetStatus\((\w+)\) returns \((\w+)\);/m, (line, indent: string, request: string, response: string) => `${line}\n${indent}// A status under another name (a test's addition).\n${indent}rpc GetStatusAgain(${request}) returns (${response});`),
    );
    expect(() => checkBreaking(release!, changed)).not.toThrow();
  });
});
