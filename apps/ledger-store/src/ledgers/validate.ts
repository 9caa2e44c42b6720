import { decodeLedgerHeader, HashPrefix, LEDGER_HEADER_LENGTH, sha512Half, type LedgerHeader } from '@ledger-node/chain';
import { Direction, StateChangeKind, type LedgerWrite, type StateObjectChange } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError } from '@ledger-node/errors';
import { validateEvidence } from './evidence';

const HASH_LENGTH = 32;
const ACCOUNT_ID_LENGTH = 20;
/** rippled maxTokenURILength: an NFToken's URI is at most 256 bytes. */
const MAX_NFT_URI_LENGTH = 256;
/** Names are stored with a one-byte length (see repositories/transactions). */
const MAX_NAME_LENGTH = 255;

function requireLength(value: Buffer | undefined, length: number, field: string): void {
  if (!value || value.length !== length) {
    throw new InvalidParams(`${field} must be ${length} bytes, got ${value?.length ?? 0}`, field);
  }
}

function requireBytes(value: Buffer | undefined, field: string): void {
  if (!value || value.length === 0) throw new InvalidParams(`${field} must not be empty`, field);
}

function requireName(value: string, field: string): void {
  if (value.length === 0 || value.length > MAX_NAME_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new InvalidParams(`${field} must be 1 to ${MAX_NAME_LENGTH} printable ASCII characters, got ${JSON.stringify(value)}`, field);
  }
}

/**
 * The cheap invariants of a LedgerWrite, checked again by the store although the sync service has
 * verified the whole ledger: field lengths, the header decodes, hashes to `ledger_hash` and names
 * `ledger_index`, each transaction hash is the 'TXN\0' hash of its blob, positions are unique; its
 * evidence, when given, is that ledger's (evidence.ts).
 * Throws InvalidParams naming the field (prefixed by `path`, e.g. `ledger` or `ledgers[2]`).
 */
export function validateLedgerWrite(write: LedgerWrite | undefined, path: string): asserts write is LedgerWrite {
  if (!write) throw new InvalidParams(`${path} is required`, path);
  if (!Number.isInteger(write.ledgerIndex) || write.ledgerIndex < 1) {
    throw new InvalidParams(`${path}.ledger_index must be a ledger sequence of at least 1, got ${write.ledgerIndex}`, `${path}.ledger_index`);
  }
  requireLength(write.ledgerHash, HASH_LENGTH, `${path}.ledger_hash`);
  requireLength(write.headerBlob, LEDGER_HEADER_LENGTH, `${path}.header_blob`);
  let header: LedgerHeader;
  try {
    header = decodeLedgerHeader(write.headerBlob);
  } catch (error) {
    if (!isLedgerNodeError(error)) throw error;
    throw new InvalidParams(`${path}.header_blob does not decode: ${error.message}`, `${path}.header_blob`);
  }
  if (header.ledgerIndex !== write.ledgerIndex) {
    throw new InvalidParams(`${path}.header_blob is ledger ${header.ledgerIndex}, not ledger_index ${write.ledgerIndex}`, `${path}.header_blob`);
  }
  // The header bytes are its fields in hashing order: they hash as they came (as sync verified them).
  const recomputed = sha512Half(HashPrefix.ledgerMaster, write.headerBlob);
  if (!recomputed.equals(write.ledgerHash)) {
    throw new InvalidParams(`${path}.ledger_hash does not match the header, which hashes to ${recomputed.toString('hex').toUpperCase()}`, `${path}.ledger_hash`);
  }

  const positions = new Set<number>();
  // Hashes as latin1 text, a character a byte: a key cheaper to make than hex.
  const hashes = new Set<string>();
  write.transactions.forEach((tx, position) => {
    const field = `${path}.transactions[${position}]`;
    requireLength(tx.hash, HASH_LENGTH, `${field}.hash`);
    // A transaction is in a ledger's transaction tree once (keyed by its hash).
    const hashKey = tx.hash.toString('latin1');
    if (hashes.has(hashKey)) throw new InvalidParams(`${field}.hash appears twice in the ledger`, `${field}.hash`);
    hashes.add(hashKey);
    requireBytes(tx.txBlob, `${field}.tx_blob`);
    requireBytes(tx.metaBlob, `${field}.meta_blob`);
    if (positions.has(tx.txIndex)) throw new InvalidParams(`${field}.tx_index ${tx.txIndex} appears twice in the ledger`, `${field}.tx_index`);
    positions.add(tx.txIndex);
    requireLength(tx.senderAccountId, ACCOUNT_ID_LENGTH, `${field}.sender_account_id`);
    tx.affectedAccounts.forEach((affected, accountPosition) => {
      const accountField = `${field}.affected_accounts[${accountPosition}]`;
      requireLength(affected.accountId, ACCOUNT_ID_LENGTH, `${accountField}.account_id`);
      if (affected.direction !== Direction.IN && affected.direction !== Direction.OUT) {
        throw new InvalidParams(`${accountField}.direction must be DIRECTION_IN or DIRECTION_OUT`, `${accountField}.direction`);
      }
    });
    tx.nftIds.forEach((nftId, nftPosition) => requireLength(nftId, HASH_LENGTH, `${field}.nft_ids[${nftPosition}]`));
    if (tx.nftChange) {
      requireLength(tx.nftChange.nftId, HASH_LENGTH, `${field}.nft_change.nft_id`);
      requireLength(tx.nftChange.ownerAccountId, ACCOUNT_ID_LENGTH, `${field}.nft_change.owner_account_id`);
      if (tx.nftChange.uri.length > MAX_NFT_URI_LENGTH) {
        throw new InvalidParams(`${field}.nft_change.uri must be at most ${MAX_NFT_URI_LENGTH} bytes (rippled maxTokenURILength)`, `${field}.nft_change.uri`);
      }
    }
    requireName(tx.transactionType, `${field}.transaction_type`);
    requireName(tx.engineResult, `${field}.engine_result`);
    const hash = sha512Half(HashPrefix.transactionId, tx.txBlob);
    if (!hash.equals(tx.hash)) {
      throw new InvalidParams(`${field}.hash does not match tx_blob, which hashes to ${hash.toString('hex').toUpperCase()}`, `${field}.hash`);
    }
  });

  validateStateChanges(write.stateChanges, `${path}.state_changes`);
  if (write.evidence) validateEvidence(write.evidence, write.ledgerIndex, write.ledgerHash, `${path}.evidence`);
}

/** One version per object: each change names a 32-byte key once, with bytes that fit its kind. */
export function validateStateChanges(changes: readonly StateObjectChange[], path: string): void {
  const objectKeys = new Set<string>();
  changes.forEach((change, position) => {
    const field = `${path}[${position}]`;
    requireLength(change.key, HASH_LENGTH, `${field}.key`);
    const objectKey = change.key.toString('hex');
    // One version per object per ledger: the object as the ledger left it.
    if (objectKeys.has(objectKey)) throw new InvalidParams(`${field}.key appears twice in the ledger`, `${field}.key`);
    objectKeys.add(objectKey);
    if (change.kind === StateChangeKind.DELETED) {
      if (change.blob.length !== 0) throw new InvalidParams(`${field}.blob must be empty for a deleted object`, `${field}.blob`);
    } else if (change.kind === StateChangeKind.CREATED || change.kind === StateChangeKind.MODIFIED) {
      requireBytes(change.blob, `${field}.blob`);
    } else {
      throw new InvalidParams(`${field}.kind must be CREATED, MODIFIED or DELETED`, `${field}.kind`);
    }
    // previous_blob may be empty: the object did not exist before the ledger (created in it, or created and deleted).
    if (change.accountId.length !== 0) requireLength(change.accountId, ACCOUNT_ID_LENGTH, `${field}.account_id`);
    change.ownerAccountIds.forEach((owner, ownerPosition) =>
      requireLength(owner, ACCOUNT_ID_LENGTH, `${field}.owner_account_ids[${ownerPosition}]`),
    );
  });
}
