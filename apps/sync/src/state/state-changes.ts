/**
 * The state changes of a verified ledger as the store keeps them, proven: one side of the ledger
 * is a state tree already proven (the state before it, following forwards; the state after it,
 * going down below the download ledger), and the other side is built from the images its metadata
 * determines (derive.ts) and the others read from the upstream with `ledger_entry` at the ledger
 * (after) or its parent (before), both named by hash. The tree so built must have that side's
 * `account_hash`: then every image of both sides is the network's, whoever served it, and nothing
 * else is ever stored as state.
 */
import { type ChainProfile, type StateTree, UnreadableBinary, type VerifiedLedger } from '@ledger-node/chain';
import { StateChangeKind, type StateObjectChange } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import { backoffDelayMs, sleep, UpstreamRequestError, type BinaryLedgerEntryResult } from '@ledger-node/upstream';
import { deriveStateChanges, withThreading, type DerivedChange, type Image } from './derive';

export interface StateObjectReader {
  ledgerEntry(objectKey: string, ledgerHash: string, options?: { preferOtherEndpoint?: boolean }): Promise<BinaryLedgerEntryResult>;
}

/** The proven side of a ledger: the state before it (`before`) or after it (`after`). */
export type ProvenSide = 'before' | 'after';

export interface ProvenStateChanges {
  /** Every object the ledger changed, with both images. */
  changes: StateObjectChange[];
  /** The state on the other side, proven by its root. */
  tree: StateTree;
}

/** Why a ledger's state changes were not proven. */
export type StateNotProvenReason =
  /** The upstream would not give an image, or gave one this node cannot read. */
  | 'image_unavailable'
  /** The images built a tree whose root is not the ledger's account_hash. */
  | 'state_root_mismatch';

export class StateNotProven extends Error {
  constructor(
    readonly ledgerIndex: number,
    readonly reason: StateNotProvenReason,
    message: string,
  ) {
    super(message);
    this.name = 'StateNotProven';
  }
}

/** Objects read from the upstream at once per ledger. */
const READ_CONCURRENCY = 16;

/** The upstream cannot give this object at this ledger (it does not hold the ledger's state). */
class ImageUnavailable extends Error {}

interface ReadOptions {
  signal: AbortSignal;
  logger: Logger;
  preferOtherEndpoint: boolean;
}

/**
 * Reads one object at a ledger: its bytes, or undefined when the ledger does not hold it
 * (rippled entryNotFound). Connection trouble is retried until `signal` aborts; any other error
 * answer means the upstream does not serve that ledger's state.
 */
async function readObject(reader: StateObjectReader, objectKey: string, ledgerHash: string, options: ReadOptions): Promise<Buffer | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await reader.ledgerEntry(objectKey, ledgerHash, { preferOtherEndpoint: options.preferOtherEndpoint });
      if (answer.index.toUpperCase() !== objectKey) throw new ImageUnavailable(`ledger_entry answered object ${answer.index} for ${objectKey}`);
      return Buffer.from(answer.node_binary, 'hex');
    } catch (error) {
      if (error instanceof UpstreamRequestError) {
        if (error.errorCode === 'entryNotFound') return undefined;
        throw new ImageUnavailable(`ledger_entry ${objectKey} at ${ledgerHash}: ${error.errorCode}`);
      }
      if (error instanceof ImageUnavailable) throw error;
      if (options.signal.aborted) throw error;
      options.logger.debug({ err: error, objectKey, attempt }, `ledger_entry ${objectKey} failed; asking again`);
      await sleep(backoffDelayMs(attempt, 250, 15_000), options.signal);
    }
  }
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(run));
}

const imageIn = (tree: StateTree, key: string): Image => {
  const blob = tree.get(key);
  return blob ? { state: 'object', blob } : { state: 'absent' };
};

export interface ProveOptions {
  signal: AbortSignal;
  logger: Logger;
  /** Read every unknown image from another endpoint than the subscribed one (after a failed proof). */
  preferOtherEndpoint?: boolean;
}

/**
 * The proven state changes of `ledger`, given the proven state on one side of it. `expectedRoot`
 * is the other side's account_hash: the ledger's own for `before`, its parent's for `after`;
 * undefined only below the first ledger, which has no parent to prove. When the images the
 * metadata determines do not make that root, every image is read from the upstream instead and
 * tried once more (so that a field this node derives wrongly costs reads, never the proof).
 * Throws StateNotProven when neither way proves the ledger.
 */
export async function provenStateChanges(
  ledger: VerifiedLedger,
  profile: ChainProfile,
  reader: StateObjectReader,
  proven: { side: ProvenSide; tree: StateTree },
  expectedRoot: string | undefined,
  options: ProveOptions,
): Promise<ProvenStateChanges> {
  let derived: DerivedChange[];
  try {
    derived = deriveStateChanges(ledger, profile);
  } catch (error) {
    throw new StateNotProven(ledger.ledgerIndex, 'image_unavailable', `ledger ${ledger.ledgerIndex}: its metadata cannot be read: ${(error as Error).message}`);
  }
  const derivedOnly = await attempt(ledger, profile, reader, proven, expectedRoot, derived, { ...options, readAll: false });
  if (derivedOnly.proof) return derivedOnly.proof;
  const readAll = await attempt(ledger, profile, reader, proven, expectedRoot, deriveStateChanges(ledger, profile), { ...options, readAll: true });
  if (readAll.proof) return readAll.proof;
  throw new StateNotProven(ledger.ledgerIndex, 'state_root_mismatch', readAll.mismatch);
}

async function attempt(
  ledger: VerifiedLedger,
  profile: ChainProfile,
  reader: StateObjectReader,
  proven: { side: ProvenSide; tree: StateTree },
  expectedRoot: string | undefined,
  derived: DerivedChange[],
  options: ProveOptions & { readAll: boolean },
): Promise<{ proof?: ProvenStateChanges; mismatch: string }> {
  const readOptions = { signal: options.signal, logger: options.logger, preferOtherEndpoint: options.preferOtherEndpoint ?? false };
  const ledgerHash = ledger.ledgerHash.toString('hex').toUpperCase();
  const parentHash = ledger.header.parentHash.toUpperCase();
  const read = async (objectKey: string, atHash: string): Promise<Image> => {
    const blob = await readObject(reader, objectKey, atHash, readOptions);
    return blob ? { state: 'object', blob } : { state: 'absent' };
  };
  // Below the first ledger there is nothing: its before-images stay unknown and are not stored.
  const hasParent = ledger.ledgerIndex > 1;
  try {
    await inBatches(derived, READ_CONCURRENCY, async (change) => {
      if (proven.side === 'before') {
        change.before = imageIn(proven.tree, change.key);
        if (options.readAll || change.after.state === 'unknown') change.after = await read(change.key, ledgerHash);
        return;
      }
      change.after = imageIn(proven.tree, change.key);
      if (!hasParent) {
        change.before = { state: 'unknown' };
      } else if (options.readAll || (change.before.state === 'unknown' && !change.threadingBefore)) {
        change.before = await read(change.key, parentHash);
      } else if (change.before.state === 'unknown' && change.threadingBefore && change.after.state === 'object') {
        change.before = { state: 'object', blob: withThreading(change.after.blob, change.threadingBefore, profile) };
      }
    });
  } catch (error) {
    if (!(error instanceof ImageUnavailable || error instanceof UnreadableBinary)) throw error;
    throw new StateNotProven(ledger.ledgerIndex, 'image_unavailable', `ledger ${ledger.ledgerIndex}: ${error.message}`);
  }
  const tree = proven.tree.snapshot();
  const changed = derived.filter((change) => !unchanged(change));
  for (const change of changed) {
    const image = proven.side === 'before' ? change.after : change.before;
    if (image.state === 'object') tree.set(change.key, image.blob);
    else if (image.state === 'absent') tree.delete(change.key);
  }
  const changes = changed.map(storedChange);
  if (expectedRoot === undefined) return { proof: { changes, tree }, mismatch: '' };
  const root = tree.root();
  if (root === expectedRoot.toUpperCase()) return { proof: { changes, tree }, mismatch: '' };
  const side = proven.side === 'before' ? `after ledger ${ledger.ledgerIndex}` : `before ledger ${ledger.ledgerIndex}`;
  return { mismatch: `the state ${side} has root ${root}, not the account_hash ${expectedRoot.toUpperCase()}` };
}

/** An object read on both sides that the ledger left as it was (a flag ledger's NegativeUNL with nothing to update). */
function unchanged(change: DerivedChange): boolean {
  if (change.before.state === 'absent' && change.after.state === 'absent') return true;
  return change.before.state === 'object' && change.after.state === 'object' && change.before.blob.equals(change.after.blob);
}

/** The store's form of one change, both images known (previous_blob absent only below the first ledger). */
function storedChange(change: DerivedChange): StateObjectChange {
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
