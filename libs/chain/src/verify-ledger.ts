/**
 * Verification of a ledger fetched from the upstream, by hashes only (DESIGN §5): the header hash
 * recomputed from the header bytes, the transaction tree root recomputed from every transaction and
 * its metadata (each listed once: the list must be exactly the tree's leaves), each transaction hash
 * recomputed from its blob, and the links to stored neighbours. The order transactions are stored
 * and served in is their metadata's TransactionIndex, which the tree covers, never the list's order.
 * A validated header hash covers all of these, so a ledger that passes is the one the network validated.
 */
import { HashPrefix, sha512Half } from './hash';
import { decodeLedgerHeader, LEDGER_HEADER_LENGTH, type LedgerHeader } from './header';
import { toHex } from './hex';
import { transactionTreeRootOf } from './shamap';

/** Where the header bytes hold transaction_hash (rippled `addRaw(LedgerInfo)`: after u32 seq, u64 drops, parent_hash). */
const TRANSACTION_HASH_OFFSET = 4 + 8 + 32;
/** Where a served transaction hash is decoded to be compared (one buffer, reused). */
const servedHash = Buffer.alloc(32);

/** A served hash (64 hex digits, either case) names these 32 bytes; 64 characters that are not all hex digits decode to fewer bytes, and do not. */
function sameHash(served: string, hash: Buffer): boolean {
  return served.length === 64 && servedHash.write(served, 'hex') === 32 && servedHash.equals(hash);
}

/** A ledger as the upstream served it (binary `ledger` answer), not yet trusted. */
export interface FetchedLedger {
  /** The index that was asked for. */
  ledgerIndex: number;
  /** Header bytes (rippled `ledger_data`), decoded from the answer's hex where it was read. */
  headerBlob: Buffer;
  /** `ledger_hash` of the answer. */
  ledgerHash: string;
  /** Each transaction's blob and metadata blob, and the hash served with it. */
  transactions: { txBlob: Buffer; metaBlob: Buffer; hash?: string }[];
}

export interface VerifiedTransaction {
  /** Recomputed: SHA512Half('TXN\0' + blob). */
  hash: Buffer;
  txBlob: Buffer;
  metaBlob: Buffer;
}

export interface VerifiedLedger {
  ledgerIndex: number;
  /** Recomputed from the header bytes. */
  ledgerHash: Buffer;
  header: LedgerHeader;
  headerBlob: Buffer;
  transactions: VerifiedTransaction[];
}

export type VerificationFailureReason =
  /** The header bytes are not a ledger header. */
  | 'malformed_header'
  /** The header is of another ledger than the one asked for. */
  | 'wrong_ledger_index'
  /** The header does not hash to the hash the upstream announced or served. */
  | 'header_hash_mismatch'
  /** A transaction's recomputed hash differs from the hash the upstream served with it. */
  | 'transaction_hash_mismatch'
  /** The SHAMap root of the transactions and metadata differs from the header's transaction_hash. */
  | 'transaction_tree_mismatch'
  /** The same transaction listed twice: a tree holds each key once, so the list is not its leaves. */
  | 'duplicate_transaction'
  /** A newer ledger whose parent_hash is not the stored tip's hash. */
  | 'parent_hash_mismatch'
  /** An older ledger whose hash is not its stored child's parent_hash. */
  | 'child_link_mismatch';

export interface VerificationFailure {
  reason: VerificationFailureReason;
  ledgerIndex: number;
  expected?: string;
  actual?: string;
  message: string;
}

export type Verification<T> = { ok: true; ledger: T } | { ok: false; failure: VerificationFailure };

const fail = (failure: VerificationFailure): { ok: false; failure: VerificationFailure } => ({ ok: false, failure });

/**
 * Checks a fetched ledger on its own: its header is the ledger asked for, hashes to `expectedHash`
 * (the hash announced by the upstream's ledger stream or required by a stored neighbour) and to the
 * hash served with it, and its transactions are exactly those the header commits to.
 */
export function verifyLedger(fetched: FetchedLedger, expectedHash?: string): Verification<VerifiedLedger> {
  const ledgerIndex = fetched.ledgerIndex;
  const headerBlob = fetched.headerBlob;
  if (headerBlob.length !== LEDGER_HEADER_LENGTH) {
    return fail({ reason: 'malformed_header', ledgerIndex, message: `ledger_data is not a ${LEDGER_HEADER_LENGTH}-byte header` });
  }
  const header = decodeLedgerHeader(headerBlob);
  if (header.ledgerIndex !== ledgerIndex) {
    return fail({
      reason: 'wrong_ledger_index',
      ledgerIndex,
      expected: String(ledgerIndex),
      actual: String(header.ledgerIndex),
      message: `asked for ledger ${ledgerIndex}, got the header of ledger ${header.ledgerIndex}`,
    });
  }
  // The header bytes are its fields in hashing order: they hash as they came.
  const ledgerHash = sha512Half(HashPrefix.ledgerMaster, headerBlob);
  const recomputedHash = toHex(ledgerHash);
  for (const claimed of [fetched.ledgerHash, expectedHash]) {
    if (claimed !== undefined && claimed.toUpperCase() !== recomputedHash) {
      return fail({
        reason: 'header_hash_mismatch',
        ledgerIndex,
        expected: claimed.toUpperCase(),
        actual: recomputedHash,
        message: `the header of ledger ${ledgerIndex} hashes to ${recomputedHash}, not ${claimed.toUpperCase()}`,
      });
    }
  }

  const transactions: VerifiedTransaction[] = new Array(fetched.transactions.length);
  for (let position = 0; position < fetched.transactions.length; position++) {
    const tx = fetched.transactions[position]!;
    const { txBlob, metaBlob } = tx;
    if (txBlob.length === 0 || metaBlob.length === 0) {
      return fail({ reason: 'transaction_tree_mismatch', ledgerIndex, message: `ledger ${ledgerIndex} holds a transaction or metadata of no bytes` });
    }
    const hashBytes = sha512Half(HashPrefix.transactionId, txBlob);
    if (tx.hash !== undefined && !sameHash(tx.hash, hashBytes)) {
      const hash = toHex(hashBytes);
      return fail({
        reason: 'transaction_hash_mismatch',
        ledgerIndex,
        expected: tx.hash.toUpperCase(),
        actual: hash,
        message: `a transaction of ledger ${ledgerIndex} served as ${tx.hash.toUpperCase()} hashes to ${hash}`,
      });
    }
    transactions[position] = { hash: hashBytes, txBlob, metaBlob };
  }
  const tree = transactionTreeRootOf(transactions);
  if ('sameId' in tree) {
    const hash = toHex(tree.sameId);
    return fail({ reason: 'duplicate_transaction', ledgerIndex, actual: hash, message: `ledger ${ledgerIndex} lists transaction ${hash} more than once` });
  }
  if (!tree.root.equals(headerBlob.subarray(TRANSACTION_HASH_OFFSET, TRANSACTION_HASH_OFFSET + 32))) {
    const treeRoot = toHex(tree.root);
    return fail({
      reason: 'transaction_tree_mismatch',
      ledgerIndex,
      expected: header.transactionHash,
      actual: treeRoot,
      message: `the transactions of ledger ${ledgerIndex} hash to the tree root ${treeRoot}, not the header's transaction_hash ${header.transactionHash}`,
    });
  }
  return { ok: true, ledger: { ledgerIndex, ledgerHash, header, headerBlob, transactions } };
}

/** A stored ledger as far as linking needs it. */
export interface StoredLink {
  ledgerIndex: number;
  ledgerHash: Buffer;
  parentHash: Buffer;
}

/** A ledger links to the stored ledger just below it only when its parent_hash is that ledger's hash. */
export function checkParentLink(ledger: VerifiedLedger, parent: StoredLink): VerificationFailure | undefined {
  const parentHash = parent.ledgerHash.toString('hex').toUpperCase();
  if (ledger.header.parentHash === parentHash) return undefined;
  return {
    reason: 'parent_hash_mismatch',
    ledgerIndex: ledger.ledgerIndex,
    expected: parentHash,
    actual: ledger.header.parentHash,
    message: `ledger ${ledger.ledgerIndex} names parent ${ledger.header.parentHash}, but the stored ledger ${parent.ledgerIndex} is ${parentHash}`,
  };
}

/** A newer ledger extends the stored tip only when its parent_hash is the tip's hash. */
export function checkExtendsTip(ledger: VerifiedLedger, tip: StoredLink): VerificationFailure | undefined {
  if (ledger.ledgerIndex !== tip.ledgerIndex + 1) {
    throw new Error(`ledger ${ledger.ledgerIndex} does not follow the tip ${tip.ledgerIndex}`);
  }
  return checkParentLink(ledger, tip);
}

/** An older ledger is accepted only when its hash is its stored child's parent_hash (backfill verifies downward). */
export function checkIsParentOf(ledger: VerifiedLedger, child: StoredLink): VerificationFailure | undefined {
  if (child.ledgerIndex !== ledger.ledgerIndex + 1) {
    throw new Error(`ledger ${child.ledgerIndex} is not the child of ${ledger.ledgerIndex}`);
  }
  if (ledger.ledgerHash.equals(child.parentHash)) return undefined;
  const expected = child.parentHash.toString('hex').toUpperCase();
  const actual = ledger.ledgerHash.toString('hex').toUpperCase();
  return {
    reason: 'child_link_mismatch',
    ledgerIndex: ledger.ledgerIndex,
    expected,
    actual,
    message: `ledger ${ledger.ledgerIndex} hashes to ${actual}, but its child ${child.ledgerIndex} names parent ${expected}`,
  };
}

/** The link data of a verified ledger, once stored. */
export function linkOf(ledger: VerifiedLedger): StoredLink {
  return { ledgerIndex: ledger.ledgerIndex, ledgerHash: ledger.ledgerHash, parentHash: Buffer.from(ledger.header.parentHash, 'hex') };
}
