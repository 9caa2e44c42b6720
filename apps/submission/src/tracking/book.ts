import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SUBMISSION_STATES, type SubmissionStateName } from '@ledger-node/chain';
import { RateLimited } from '@ledger-node/errors';

export type { SubmissionStateName };

const recordSchema = z.object({
  id: z.string(),
  hash: z.string().regex(/^[0-9A-F]{64}$/),
  state: z.enum(SUBMISSION_STATES),
  engineResult: z.string(),
  engineResultMessage: z.string(),
  ledgerIndex: z.number().int().optional(),
  submittedAtUnixMs: z.number().int(),
  account: z.string(),
  sequence: z.number().int(),
  lastLedgerSequence: z.number().int(),
  /** The upstream's open ledger when it was submitted: tracking after a restart replays from there. */
  openLedgerIndex: z.number().int(),
  /** The signed blob, kept while open so a restarted service can hand it to the upstream again. */
  blob: z.string().optional(),
});
export type SubmissionRecord = z.infer<typeof recordSchema>;

/** A record whose fate is still open: it may yet be validated. */
export const isOpen = (record: SubmissionRecord) => record.state === 'pending' || record.state === 'held';

/** Bounds of the book, so that no flood of sends can grow it without limit. */
export interface BookLimits {
  /** Finished submissions kept for GetSubmission after they close. */
  finished: number;
  /** Pending submissions (accepted by the upstream) of one account; more are refused. */
  pendingPerAccount: number;
  /** Pending submissions of all accounts; more are refused. */
  pending: number;
  /** Held submissions (not applied: answered with the zero hash) kept under watch; the oldest are let go. */
  held: number;
}

export const DEFAULT_BOOK_LIMITS: BookLimits = { finished: 10_000, pendingPerAccount: 1_000, pending: 10_000, held: 1_000 };

const legacySchema = z.object({ version: z.literal(1), submissions: z.array(recordSchema) });

/**
 * Every tracked submission, kept in memory and in a journal (`submissions.jsonl`): each change is
 * one appended line, synced, so a record survives a crash right after it is written; the journal
 * is compacted (written anew beside it, synced, renamed over it) once it holds far more lines than
 * records. Bounded by `BookLimits`.
 */
export class SubmissionBook {
  private readonly byId = new Map<string, SubmissionRecord>();
  private readonly byHash = new Map<string, SubmissionRecord>();
  private journalLines = 0;
  private journal: number | undefined;

  constructor(
    private readonly file: string,
    private readonly limits: BookLimits = DEFAULT_BOOK_LIMITS,
  ) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // The single JSON file of earlier versions is read once and replaced by the journal.
    const legacy = path.join(path.dirname(file), 'submissions.json');
    if (existsSync(legacy) && !existsSync(file)) {
      for (const record of this.readLegacy(legacy)) this.index(record);
      this.compact();
      rmSync(legacy);
    } else if (existsSync(file)) {
      this.replay();
    }
    this.journal ??= openSync(file, 'a', 0o600);
  }

  get(id: string): SubmissionRecord | undefined {
    return this.byId.get(id);
  }

  getByHash(hash: string): SubmissionRecord | undefined {
    return this.byHash.get(hash.toUpperCase());
  }

  /** Records whose fate is open (pending or held), oldest first. */
  open(): SubmissionRecord[] {
    return [...this.byId.values()].filter(isOpen).sort((a, b) => a.submittedAtUnixMs - b.submittedAtUnixMs);
  }

  /** Pending records (accepted by the upstream), oldest first. */
  pending(): SubmissionRecord[] {
    return this.open().filter((record) => record.state === 'pending');
  }

  /** Highest sequence still open for an account (so concurrent sends never reuse one). */
  highestOpenSequence(account: string): number | undefined {
    let highest: number | undefined;
    for (const record of this.byId.values()) {
      if (record.account === account && isOpen(record) && (highest === undefined || record.sequence > highest)) highest = record.sequence;
    }
    return highest;
  }

  /** Refuses a new pending submission of `account` when the book holds all it may. */
  checkRoomFor(account: string): void {
    const pending = this.pending();
    if (pending.length >= this.limits.pending) {
      throw new RateLimited(`${pending.length} submissions are pending already; try again once some are validated or expired`);
    }
    const ofAccount = pending.filter((record) => record.account === account).length;
    if (ofAccount >= this.limits.pendingPerAccount) {
      throw new RateLimited(`${ofAccount} submissions of ${account} are pending already; try again once some are validated or expired`);
    }
  }

  save(record: SubmissionRecord): void {
    if (!isOpen(record)) delete record.blob;
    this.index(record);
    this.append(record);
    this.trim();
  }

  /** Records held now (for figures and tests). */
  get size(): number {
    return this.byId.size;
  }

  close(): void {
    if (this.journal !== undefined) closeSync(this.journal);
    this.journal = undefined;
  }

  private index(record: SubmissionRecord): void {
    this.byId.set(record.id, record);
    this.byHash.set(record.hash, record);
  }

  private forget(record: SubmissionRecord): void {
    this.byId.delete(record.id);
    if (this.byHash.get(record.hash) === record) this.byHash.delete(record.hash);
  }

  /** Lets go of the oldest finished records, and of the oldest held ones past their bound. */
  private trim(): void {
    const oldestFirst = (records: SubmissionRecord[]) => records.sort((a, b) => a.submittedAtUnixMs - b.submittedAtUnixMs);
    const finished = [...this.byId.values()].filter((record) => !isOpen(record));
    const held = [...this.byId.values()].filter((record) => record.state === 'held');
    for (const [records, bound] of [
      [finished, this.limits.finished],
      [held, this.limits.held],
    ] as const) {
      if (records.length > bound) for (const record of oldestFirst(records).slice(0, records.length - bound)) this.forget(record);
    }
    if (this.journalLines > 2 * this.byId.size + 1_000) this.compact();
  }

  private append(record: SubmissionRecord): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    writeSync(this.journal!, line);
    fsyncSync(this.journal!);
    this.journalLines++;
  }

  /** The journal written anew with one line per record, synced, then renamed over the old one. */
  private compact(): void {
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, [...this.byId.values()].map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o600 });
    const handle = openSync(temporary, 'r');
    try {
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temporary, this.file);
    if (this.journal !== undefined) closeSync(this.journal);
    this.journal = openSync(this.file, 'a', 0o600);
    this.journalLines = this.byId.size;
  }

  /** Reads the journal: the last line of each record wins; a line cut short by a crash is the last and is skipped. */
  private replay(): void {
    const lines = readFileSync(this.file, 'utf8').split('\n');
    for (const [position, line] of lines.entries()) {
      if (line.trim() === '') continue;
      let record: SubmissionRecord;
      try {
        record = recordSchema.parse(JSON.parse(line));
      } catch (error) {
        if (position >= lines.length - 2) break;
        throw new Error(`the submission journal ${this.file} is unreadable at line ${position + 1} (${(error as Error).message}); move it aside to start with an empty book`);
      }
      const previous = this.byId.get(record.id);
      if (previous) this.forget(previous);
      this.index(record);
      this.journalLines++;
    }
    this.trim();
  }

  private readLegacy(file: string): SubmissionRecord[] {
    try {
      return legacySchema.parse(JSON.parse(readFileSync(file, 'utf8'))).submissions;
    } catch (error) {
      throw new Error(`the submission file ${file} is unreadable (${(error as Error).message}); move it aside to start with an empty book`);
    }
  }
}
