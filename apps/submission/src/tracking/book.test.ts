import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@ledger-node/test-utils';
import { SubmissionBook, type BookLimits, type SubmissionRecord } from './book';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((cleanup) => cleanup()));

function bookFile(): string {
  const { dir, remove } = tempDir('book-');
  cleanups.push(remove);
  return path.join(dir, 'submission', 'submissions.jsonl');
}

function open(file: string, limits?: BookLimits): SubmissionBook {
  const book = new SubmissionBook(file, limits);
  cleanups.push(() => book.close());
  return book;
}

let next = 0;
function record(fields: Partial<SubmissionRecord> = {}): SubmissionRecord {
  next++;
  return {
    id: `id-${next}`,
    hash: next.toString(16).toUpperCase().padStart(64, '0'),
    state: 'pending',
    engineResult: 'tesSUCCESS',
    engineResultMessage: '',
    submittedAtUnixMs: 1_000 + next,
    account: 'rAlice',
    sequence: next,
    lastLedgerSequence: 100,
    openLedgerIndex: 80,
    blob: 'AB',
    ...fields,
  };
}

const limits = (fields: Partial<BookLimits>): BookLimits => ({ finished: 100, pendingPerAccount: 100, pending: 100, held: 100, ...fields });

describe('SubmissionBook', () => {
  it('keeps every change in its journal: a book opened again reads the last state of each record', () => {
    const file = bookFile();
    const book = open(file);
    const first = record();
    book.save(first);
    book.save(record({ state: 'held', engineResult: 'terNO_ACCOUNT' }));
    Object.assign(first, { state: 'validated', ledgerIndex: 90 });
    book.save(first);
    book.close();
    const again = open(file);
    expect(again.getByHash(first.hash)).toMatchObject({ state: 'validated', ledgerIndex: 90 });
    // A closed record no longer keeps its blob.
    expect(again.getByHash(first.hash)!.blob).toBeUndefined();
    expect(again.open().map((entry) => entry.engineResult)).toEqual(['terNO_ACCOUNT']);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('skips a last line cut short by a crash, and refuses a journal damaged before its end', () => {
    const file = bookFile();
    const book = open(file);
    const kept = record();
    book.save(kept);
    book.close();
    appendFileSync(file, '{"id":"cut","hash":"00');
    expect(open(file).getByHash(kept.hash)).toMatchObject({ id: kept.id });
    writeFileSync(file, `not json\n${readFileSync(file, 'utf8')}`);
    expect(() => new SubmissionBook(file)).toThrow(/journal .* is unreadable at line 1 .* move it aside/);
  });

  it('compacts its journal once it holds far more lines than records', () => {
    const file = bookFile();
    const book = open(file);
    const churned = record({ state: 'held' });
    for (let round = 0; round < 1_500; round++) book.save(churned);
    expect(readFileSync(file, 'utf8').trim().split('\n').length).toBeLessThan(1_000);
    book.close();
    expect(open(file).getByHash(churned.hash)).toMatchObject({ id: churned.id, state: 'held' });
  });

  it('refuses a new pending submission past the bounds per account and in all', () => {
    const book = open(bookFile(), limits({ pendingPerAccount: 2, pending: 3 }));
    book.save(record({ account: 'rA' }));
    book.save(record({ account: 'rA' }));
    expect(() => book.checkRoomFor('rA')).toThrow(/2 submissions of rA are pending already/);
    book.checkRoomFor('rB');
    book.save(record({ account: 'rB' }));
    expect(() => book.checkRoomFor('rC')).toThrow(/3 submissions are pending already/);
  });

  it('lets the oldest held and finished records go past their bounds, never a pending one', () => {
    const book = open(bookFile(), limits({ held: 2, finished: 2 }));
    const pending = record();
    book.save(pending);
    const held = [1, 2, 3, 4].map(() => record({ state: 'held' }));
    const finished = [1, 2, 3].map(() => record({ state: 'expired' }));
    for (const entry of [...held, ...finished]) book.save(entry);
    expect(book.open().map((entry) => entry.id)).toEqual([pending.id, held[2]!.id, held[3]!.id]);
    expect(book.getByHash(finished[0]!.hash)).toBeUndefined();
    expect(book.getByHash(finished[2]!.hash)).toBeDefined();
    expect(book.size).toBe(5);
  });

  it('reads the single JSON file of earlier versions once and replaces it by the journal', () => {
    const file = bookFile();
    const legacy = path.join(path.dirname(file), 'submissions.json');
    mkdirSync(path.dirname(file));
    const old = record({ state: 'validated', ledgerIndex: 7, blob: undefined });
    writeFileSync(legacy, JSON.stringify({ version: 1, submissions: [old] }));
    expect(open(file).getByHash(old.hash)).toMatchObject({ state: 'validated', ledgerIndex: 7 });
    expect(() => readFileSync(legacy)).toThrow(/ENOENT/);
  });
});
