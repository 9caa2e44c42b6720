/**
 * `ledger-node import`: a ledger stream (format.ts) into a store, every ledger verified before it
 * is written, with the code sync verifies fetched ledgers with (libs/chain verifyLedger): the
 * header's hash recomputed from its fields, every transaction's hash from its blob, the
 * transaction tree root from the transactions and their metadata; each ledger's parent_hash equal
 * to the hash of the ledger before it in the stream when that is its parent (a gap starts a new
 * run, whose top ledger is the run's anchor, as the upstream's validated tip is sync's), and to the
 * hash of a parent already in the store; and its hash equal to the parent_hash of a child already
 * in the store; its evidence, when the record carries one, is that ledger's, as the store checks
 * evidence (ledgers/evidence.ts). The account index is derived again from the verified bytes with sync's
 * indexer (libs/chain verifiedLedgerWrite), never taken from the stream.
 *
 * The stream is read twice: first every record is verified and checked against the store with
 * nothing written, so a forged, cut or conflicting stream is refused before the store changes at
 * all; then it is read again, verified again, and each ledger not already stored is written in one
 * atomic batch (LedgerStore.putLedger). A ledger stored identically is skipped, so an interrupted
 * import is resumed by running it again.
 */
import {
  checkParentLink,
  decodeLedgerHeader,
  linkOf,
  verifiedLedgerWrite,
  verifyLedger,
  type ChainProfile,
  type FetchedLedger,
  type VerifiedLedger,
} from '@ledger-node/chain';
import type { LedgerEvidence, LedgerWrite } from '@ledger-node/contracts';
import { isLedgerNodeError } from '@ledger-node/errors';
import { validateEvidence } from '../ledgers/evidence';
import { rangesContain } from '../ledgers/ranges';
import type { LedgerStore } from '../store';
import { readStream, type StreamReading } from './format';
import type { Progress } from './progress';
import { evidenceVerdict, ForgedEvidence, type ImportTrust } from './proven';

const MAX_LEDGER_INDEX = 0xffffffff;

/** A stream whose ledgers do not verify, or conflict with the store's; `ledgerIndex` names the ledger. */
export class ImportRefused extends Error {
  constructor(
    readonly ledgerIndex: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ImportRefused';
  }
}

/** Ledgers the import stored unproven: no read serves them until sync proves them (store/unproven.ts). */
export interface UnprovenSpan {
  first: number;
  last: number;
  /** Why nothing in the stream or the store proves them. */
  reason: string;
}

export interface ImportSummary {
  /** Ledgers in the stream. */
  ledgerCount: number;
  /** Ledgers this import wrote. */
  written: number;
  /** Ledgers the store already held, identical (skipped). */
  alreadyStored: number;
  transactionCount: bigint;
  /** Transactions stored without index data (fields this release's definitions do not know). */
  unindexedTransactions: number;
  /** Ledgers of the stream that nothing proves, stored unproven (those the store did not hold yet). */
  unproven: UnprovenSpan[];
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/** A LEDGER record in the shape verifyLedger checks: every hash it carries is a claim to check. */
function fetchedLedgerOf(record: LedgerWrite): FetchedLedger {
  return {
    ledgerIndex: record.ledgerIndex,
    headerBlob: record.headerBlob,
    ledgerHash: hex(record.ledgerHash),
    transactions: record.transactions.map((tx) => ({
      txBlob: tx.txBlob,
      metaBlob: tx.metaBlob,
      hash: hex(tx.hash),
    })),
  };
}

/** The record verified on its own (DESIGN §5), or ImportRefused naming the ledger and what did not match. */
function verifyRecord(record: LedgerWrite): VerifiedLedger {
  if (record.ledgerHash.length !== 32) {
    throw new ImportRefused(record.ledgerIndex, `ledger ${record.ledgerIndex} does not verify: its record carries a ledger_hash of ${record.ledgerHash.length} bytes, not 32`);
  }
  const verification = verifyLedger(fetchedLedgerOf(record));
  if (!verification.ok) {
    const { reason, message } = verification.failure;
    throw new ImportRefused(record.ledgerIndex, `ledger ${record.ledgerIndex} does not verify (${reason}): ${message}`);
  }
  if (record.evidence) {
    try {
      validateEvidence(record.evidence, record.ledgerIndex, record.ledgerHash, 'evidence');
    } catch (error) {
      if (!isLedgerNodeError(error)) throw error;
      throw new ImportRefused(record.ledgerIndex, `the evidence of ledger ${record.ledgerIndex} is not that ledger's: ${error.message}`);
    }
  }
  return verification.ledger;
}

/**
 * Whether the store holds the ledger (identically), and whether a stored child names it as its
 * parent (which proves it); ImportRefused when the store holds another, or a neighbour it does not link to.
 */
async function checkAgainstStore(store: LedgerStore, ledger: VerifiedLedger): Promise<{ stored: boolean; storedProven: boolean; provenByChild: boolean }> {
  const { ledgerIndex } = ledger;
  const around = [ledgerIndex - 1, ledgerIndex, ledgerIndex + 1].filter((index) => index >= 1 && index <= MAX_LEDGER_INDEX);
  const stored = new Map((await store.backend.headers(around)).map((header) => [header.ledgerIndex, header]));
  const own = stored.get(ledgerIndex);
  if (own && !own.ledgerHash.equals(ledger.ledgerHash)) {
    throw new ImportRefused(
      ledgerIndex,
      `the store holds ledger ${ledgerIndex} with hash ${hex(own.ledgerHash)}, the stream's ledger ${ledgerIndex} is ${hex(ledger.ledgerHash)}: ` +
        'the store holds another chain (or another network) than the stream; import into an empty store or one of the same chain',
    );
  }
  const parent = stored.get(ledgerIndex - 1);
  if (parent) {
    const failure = checkParentLink(ledger, { ledgerIndex: parent.ledgerIndex, ledgerHash: parent.ledgerHash, parentHash: Buffer.alloc(32) });
    if (failure) {
      throw new ImportRefused(ledgerIndex, `ledger ${ledgerIndex} of the stream names parent ${failure.actual}, but the store's ledger ${parent.ledgerIndex} is ${failure.expected}`);
    }
  }
  const child = stored.get(ledgerIndex + 1);
  if (child) {
    const childParent = decodeLedgerHeader(child.header).parentHash.toUpperCase();
    if (childParent !== hex(ledger.ledgerHash)) {
      throw new ImportRefused(ledgerIndex, `ledger ${ledgerIndex} of the stream is ${hex(ledger.ledgerHash)}, but the store's ledger ${child.ledgerIndex} names parent ${childParent}`);
    }
  }
  // A ledger stored unproven (an earlier import's) proves nothing.
  return { stored: own !== undefined, storedProven: own !== undefined && !store.unproven(ledgerIndex), provenByChild: child !== undefined && !store.unproven(ledgerIndex + 1) };
}

/** A run of the stream: ledgers each the parent of the next. */
interface Run {
  first: number;
  last: number;
  /** The highest ledger of the run proven (every one below it is, through the parent links); undefined: none. */
  provenThrough?: number;
  /** The highest ledger of the run that carries evidence, to be judged when the run ends. */
  evidenced?: { ledger: VerifiedLedger; evidence: LedgerEvidence };
  /** Why the evidence carried proves nothing, when it does not. */
  evidenceReason?: string;
}

/** Judges the run's highest evidence, once the run is whole: it proves its ledger and every one below it. */
function settleRun(run: Run, trust: ImportTrust, profile: ChainProfile): void {
  const { evidenced } = run;
  if (evidenced === undefined || evidenced.ledger.ledgerIndex <= (run.provenThrough ?? 0)) return;
  let verdict;
  try {
    verdict = evidenceVerdict(evidenced.ledger, evidenced.evidence, trust, profile);
  } catch (error) {
    if (!(error instanceof ForgedEvidence)) throw error;
    throw new ImportRefused(evidenced.ledger.ledgerIndex, `the evidence of ledger ${evidenced.ledger.ledgerIndex} is forged: ${error.message}`);
  }
  if (verdict.proven) run.provenThrough = evidenced.ledger.ledgerIndex;
  else run.evidenceReason = `the evidence of ledger ${evidenced.ledger.ledgerIndex} proves nothing: ${verdict.reason}`;
  run.evidenced = undefined;
}

/** The ledgers of the runs that nothing proves, each span with why. */
function unprovenSpans(runs: readonly Run[]): UnprovenSpan[] {
  return runs
    .filter((run) => (run.provenThrough ?? 0) < run.last)
    .map((run) => ({
      first: Math.max(run.first, (run.provenThrough ?? 0) + 1),
      last: run.last,
      reason: run.evidenceReason ?? 'no evidence at or above them, and no stored ledger names the highest as its parent',
    }));
}


/**
 * One pass over the stream: every ledger verified, linked and checked against the store, and the
 * runs it holds, each handed to `judge` once whole (the first pass: its highest ledger proven);
 * `write` (the second pass) stores each one the store does not hold yet.
 */
async function pass(
  store: LedgerStore,
  reading: StreamReading,
  profile: ChainProfile,
  judge: ((run: Run) => void) | undefined,
  progress: Progress,
  phase: string,
  signal: AbortSignal | undefined,
  write?: (ledger: VerifiedLedger, record: LedgerWrite) => Promise<'written' | 'stored'>,
): Promise<{ ledgerCount: number; alreadyStored: number; runs: Run[] }> {
  const { header } = reading;
  if (header.chain !== profile.id) {
    throw new ImportRefused(undefined, `the stream holds ledgers of the chain "${header.chain}", and this import runs with -chain ${profile.id}: give -chain ${header.chain}`);
  }
  progress.begin(phase, Number(header.source.ledgerCount));
  let previous: VerifiedLedger | undefined;
  let ledgerCount = 0;
  let alreadyStored = 0;
  const runs: Run[] = [];
  for await (const record of reading.ledgers()) {
    signal?.throwIfAborted();
    const ledger = verifyRecord(record);
    const run = runs.at(-1);
    if (run && previous?.ledgerIndex === ledger.ledgerIndex - 1) run.last = ledger.ledgerIndex;
    else {
      if (run) judge?.(run);
      runs.push({ first: ledger.ledgerIndex, last: ledger.ledgerIndex });
    }
    if (previous && previous.ledgerIndex === ledger.ledgerIndex - 1) {
      const failure = checkParentLink(ledger, linkOf(previous));
      if (failure) {
        throw new ImportRefused(
          ledger.ledgerIndex,
          `ledger ${ledger.ledgerIndex} does not link to ledger ${previous.ledgerIndex} before it in the stream: its parent_hash is ${failure.actual}, ledger ${previous.ledgerIndex} hashes to ${failure.expected}`,
        );
      }
    }
    const inStore = await checkAgainstStore(store, ledger);
    const current = runs.at(-1)!;
    if (inStore.storedProven || inStore.provenByChild) current.provenThrough = ledger.ledgerIndex;
    if (record.evidence) current.evidenced = { ledger, evidence: record.evidence };
    if (write) {
      // Checked again just before the write: the store may have stopped being this process's to write while it was read.
      signal?.throwIfAborted();
      if ((await write(ledger, record)) === 'stored') alreadyStored++;
    } else if (inStore.stored) alreadyStored++;
    previous = ledger;
    ledgerCount++;
    progress.tick();
  }
  const last = runs.at(-1);
  if (last) judge?.(last);
  return { ledgerCount, alreadyStored, runs };
}

export interface ImportOptions {
  /** Who is trusted to have validated a ledger: what proves the stream's evidence. */
  trust: ImportTrust;
  /**
   * Aborted when the store stops being this process's to write (a PostgreSQL store's writer lock
   * was lost): no ledger is written from then on, and the import rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/**
 * Imports the stream `open` reads (called once per pass; each call reads it from its start) into
 * `store`. Throws ImportRefused or MalformedStream (format.ts) for a stream that does not verify,
 * before anything is written; the store is left as it was.
 */
export async function importStream(
  store: LedgerStore,
  open: () => AsyncIterable<Buffer | string>,
  profile: ChainProfile,
  progress: Progress,
  options: ImportOptions,
): Promise<ImportSummary> {
  const { signal, trust } = options;
  const checked = await pass(store, await readStream(open()), profile, (run) => settleRun(run, trust, profile), progress, 'verifying', signal);
  progress.finish(`${checked.alreadyStored} already stored`);
  const unproven = unprovenSpans(checked.runs);

  let written = 0;
  let unindexedTransactions = 0;
  const reading = await readStream(open());
  // The runs were judged in the first pass: their evidence is not verified again.
  const wrote = await pass(store, reading, profile, undefined, progress, 'writing', signal, async (ledger, record) => {
    const ledgerWrite = { ...verifiedLedgerWrite(ledger, profile, () => unindexedTransactions++), evidence: record.evidence };
    // A proven ledger the store holds unproven is written again: the store then counts it (and its run below) proven.
    const stored = rangesContain(unproven, ledger.ledgerIndex) ? (await store.putUnprovenLedgers([ledgerWrite])) > 0 : await store.putLedger(ledgerWrite);
    if (stored) written++;
    return stored ? 'written' : 'stored';
  });
  if (wrote.ledgerCount !== checked.ledgerCount) {
    throw new ImportRefused(undefined, `the stream held ${checked.ledgerCount} ledgers when verified and ${wrote.ledgerCount} when written: it changed while it was imported`);
  }
  progress.finish(`${written} written, ${wrote.alreadyStored} already stored`);
  return { ledgerCount: wrote.ledgerCount, written, alreadyStored: wrote.alreadyStored, transactionCount: reading.totals().transactionCount, unindexedTransactions, unproven };
}
