import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync, openSync, fsyncSync, closeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const submissionStates = ['pending', 'validated', 'expired', 'rejected', 'failed'] as const;
export type SubmissionStateName = (typeof submissionStates)[number];

const recordSchema = z.object({
  id: z.string(),
  hash: z.string().regex(/^[0-9A-F]{64}$/),
  state: z.enum(submissionStates),
  engineResult: z.string(),
  engineResultMessage: z.string(),
  ledgerIndex: z.number().int().optional(),
  submittedAtUnixMs: z.number().int(),
  account: z.string(),
  sequence: z.number().int(),
  lastLedgerSequence: z.number().int(),
  /** The upstream's open ledger when it was submitted: tracking after a restart replays from there. */
  openLedgerIndex: z.number().int(),
  /** The signed blob, kept while pending so a restarted service can hand it to the upstream again. */
  blob: z.string().optional(),
});
export type SubmissionRecord = z.infer<typeof recordSchema>;

const fileSchema = z.object({ version: z.literal(1), submissions: z.array(recordSchema) });

/** Finished submissions kept for GetSubmission after they leave the pending set. */
const keepFinished = 10_000;

/**
 * Every tracked submission, persisted to one JSON file after each change (written to a temporary
 * file, synced, then renamed) so the pending set survives a crash or restart.
 */
export class SubmissionBook {
  private readonly byId = new Map<string, SubmissionRecord>();
  private readonly byHash = new Map<string, SubmissionRecord>();

  constructor(private readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!existsSync(file)) return;
    let parsed: z.infer<typeof fileSchema>;
    try {
      parsed = fileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      throw new Error(`the submission file ${file} is unreadable (${(error as Error).message}); move it aside to start with an empty pending set`);
    }
    for (const record of parsed.submissions) this.index(record);
  }

  get(id: string): SubmissionRecord | undefined {
    return this.byId.get(id);
  }

  getByHash(hash: string): SubmissionRecord | undefined {
    return this.byHash.get(hash.toUpperCase());
  }

  pending(): SubmissionRecord[] {
    return [...this.byId.values()].filter((record) => record.state === 'pending').sort((a, b) => a.submittedAtUnixMs - b.submittedAtUnixMs);
  }

  /** Highest sequence still pending for an account (so concurrent sends never reuse one). */
  highestPendingSequence(account: string): number | undefined {
    let highest: number | undefined;
    for (const record of this.byId.values()) {
      if (record.account === account && record.state === 'pending' && (highest === undefined || record.sequence > highest)) highest = record.sequence;
    }
    return highest;
  }

  save(record: SubmissionRecord): void {
    if (record.state !== 'pending') delete record.blob;
    this.index(record);
    this.trim();
    this.persist();
  }

  private index(record: SubmissionRecord): void {
    this.byId.set(record.id, record);
    this.byHash.set(record.hash, record);
  }

  private trim(): void {
    const finished = [...this.byId.values()].filter((record) => record.state !== 'pending');
    if (finished.length <= keepFinished) return;
    finished.sort((a, b) => a.submittedAtUnixMs - b.submittedAtUnixMs);
    for (const record of finished.slice(0, finished.length - keepFinished)) {
      this.byId.delete(record.id);
      this.byHash.delete(record.hash);
    }
  }

  private persist(): void {
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: 1, submissions: [...this.byId.values()] }), { mode: 0o600 });
    const handle = openSync(temporary, 'r');
    try {
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temporary, this.file);
  }
}
