/**
 * The state changes of a verified ledger as the store keeps them: the images metadata determines
 * (derive.ts), and the others read from the upstream with `ledger_entry` at the ledger (after) or
 * at its parent (before), both named by hash so that they are of the verified chain.
 */
import { UnreadableBinary, type ChainProfile } from '@ledger-node/chain';
import { StateChangeKind, type StateObjectChange } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import { backoffDelayMs, sleep } from '../upstream/backoff';
import { UpstreamRequestError } from '../upstream/connection';
import type { BinaryLedgerEntryResult } from '../upstream/messages';
import type { SyncHealth } from '../sync-health';
import type { VerifiedLedger } from '../verify/verify-ledger';
import { deriveStateChanges, withThreading, type DerivedChange, type Image } from './derive';

export interface StateObjectReader {
  ledgerEntry(objectKey: string, ledgerHash: string): Promise<BinaryLedgerEntryResult>;
}

export interface LedgerStateChanges {
  changes: StateObjectChange[];
  /** Every changed object with both images (LedgerWrite.state_changes_complete). */
  complete: boolean;
}

/** Objects read from the upstream at once per ledger. */
const READ_CONCURRENCY = 16;

/** The upstream cannot give this object at this ledger (it does not hold the ledger's state). */
class ImageUnavailable extends Error {}

/**
 * Reads one object at a ledger: its bytes, or undefined when the ledger does not hold it
 * (rippled entryNotFound). Connection trouble is retried until `signal` aborts; any other error
 * answer means the upstream does not serve that ledger's state.
 */
async function readObject(reader: StateObjectReader, objectKey: string, ledgerHash: string, signal: AbortSignal, logger: Logger): Promise<Buffer | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await reader.ledgerEntry(objectKey, ledgerHash);
      if (answer.index.toUpperCase() !== objectKey) throw new ImageUnavailable(`ledger_entry answered object ${answer.index} for ${objectKey}`);
      return Buffer.from(answer.node_binary, 'hex');
    } catch (error) {
      if (error instanceof UpstreamRequestError) {
        if (error.errorCode === 'entryNotFound') return undefined;
        throw new ImageUnavailable(`ledger_entry ${objectKey} at ${ledgerHash}: ${error.errorCode}`);
      }
      if (error instanceof ImageUnavailable) throw error;
      if (signal.aborted) throw error;
      logger.debug({ err: error, objectKey, attempt }, `ledger_entry ${objectKey} failed; asking again`);
      await sleep(backoffDelayMs(attempt, 250, 15_000), signal);
    }
  }
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(run));
}

export async function ledgerStateChanges(
  ledger: VerifiedLedger,
  profile: ChainProfile,
  reader: StateObjectReader,
  options: { signal: AbortSignal; logger: Logger; health: SyncHealth },
): Promise<LedgerStateChanges> {
  let derived: DerivedChange[];
  try {
    derived = deriveStateChanges(ledger, profile);
  } catch (error) {
    // Metadata this node cannot read: the ledger is stored without its state changes.
    options.health.indexFailed({ ledgerIndex: ledger.ledgerIndex, reason: `state changes: ${(error as Error).message}` });
    return { changes: [], complete: false };
  }
  const ledgerHash = ledger.ledgerHash.toString('hex').toUpperCase();
  const parentHash = ledger.header.parentHash;
  let complete = true;
  const read = async (objectKey: string, atHash: string): Promise<Image> => {
    const blob = await readObject(reader, objectKey, atHash, options.signal, options.logger);
    return blob ? { state: 'object', blob } : { state: 'absent' };
  };
  await inBatches(derived, READ_CONCURRENCY, async (change) => {
    try {
      const readBefore = change.before.state === 'unknown' && !change.beforeFromPreviousLedger && !change.threadingBefore;
      const [after, before] = await Promise.all([
        change.after.state === 'unknown' ? read(change.key, ledgerHash) : change.after,
        readBefore ? read(change.key, parentHash) : change.before,
      ]);
      change.after = after;
      change.before = before;
      if (change.before.state === 'unknown' && change.threadingBefore && change.after.state === 'object') {
        change.before = { state: 'object', blob: withThreading(change.after.blob, change.threadingBefore, profile) };
      }
    } catch (error) {
      // An object the upstream holds but whose fields this node cannot read stays unknown too.
      if (!(error instanceof ImageUnavailable || error instanceof UnreadableBinary)) throw error;
      if (complete) options.logger.debug({ ledgerIndex: ledger.ledgerIndex, reason: error.message }, `ledger ${ledger.ledgerIndex}: state changes incomplete`);
      complete = false;
    }
  });
  const changes = derived.flatMap((change) => {
    const stored = storedChange(change);
    return stored ? [stored] : [];
  });
  const beforeKnown = derived.every((change) => change.before.state !== 'unknown' || change.beforeFromPreviousLedger);
  return { changes, complete: complete && beforeKnown && changes.length === derived.length };
}

/** The store's form of one change; undefined while its after-image is unknown. */
function storedChange(change: DerivedChange): StateObjectChange | undefined {
  if (change.after.state === 'unknown') return undefined;
  const kind =
    change.after.state === 'absent'
      ? StateChangeKind.DELETED
      : change.before.state === 'absent'
        ? StateChangeKind.CREATED
        : change.kind === StateChangeKind.DELETED
          ? StateChangeKind.MODIFIED
          : change.kind;
  return {
    key: Buffer.from(change.key, 'hex'),
    kind,
    blob: change.after.state === 'object' ? change.after.blob : Buffer.alloc(0),
    previousBlob: change.before.state === 'object' ? change.before.blob : change.before.state === 'absent' ? Buffer.alloc(0) : undefined,
    ledgerEntryType: change.ledgerEntryType,
    ownerAccountIds: change.ownerAccountIds,
    accountId: change.accountId ?? Buffer.alloc(0),
  };
}
