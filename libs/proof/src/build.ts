/**
 * Builders of proof documents (document.ts) from what a node holds: a ledger's header and its
 * transactions or state tree, the signed validations that proved it and the published list they
 * were checked against. What they build verifies with verifyProof when the evidence is good; they
 * check only that the pieces belong together (the roots recompute, the key is there).
 */
import { InvalidParams } from '@ledger-node/errors';
import {
  encodeNodePublicKey,
  inForceAt,
  keylet,
  transactionTreeProof,
  type ChainProfile,
  type LedgerHeader,
  type StateTree,
} from '@ledger-node/chain';
import { proofLedgerOf, type LedgerProof, type PublishedListDocument, type StateEntry, type StateProof, type TransactionProof } from './document';
import { proofRoot } from './tree';

/** A ledger validated after the proven one, whose validations prove it (the `ledger_proof` extension). */
export type LaterLedger =
  /** The headers from the proven ledger's child up to the validated ledger, in ascending order. */
  | { kind: 'header_chain'; headers: readonly LedgerHeader[] }
  /**
   * The validated ledger's header and its LedgerHashes entry that lists the proven ledger's hash —
   * or, with `headers` (from the proven ledger's child up), the last header's: taken from its state
   * tree, or given with its path (e.g. from sync's GetStateProof).
   */
  | ({ kind: 'skip_list'; header: LedgerHeader; headers?: readonly LedgerHeader[] } & ({ state: StateTree } | { entry: StateEntry }));

export interface ProofSource {
  profile: ChainProfile;
  /** The header of the proven ledger. */
  header: LedgerHeader;
  /** Signed validations (STValidation, hex) of the proven ledger, or of `later`'s validated ledger. */
  validations: readonly string[];
  /** The publisher's list document they were checked against: version 1 as is; of a version 2, the blob in force at the validated ledger's close. */
  list: Readonly<Record<string, unknown>>;
  later?: LaterLedger;
}

export interface TransactionProofSource extends ProofSource {
  /** Every transaction of the ledger, with its metadata: the tree the path is taken from. */
  transactions: readonly { hash: string; txBlob: string | Uint8Array; metaBlob: string | Uint8Array }[];
  /** The hash of the transaction to prove. */
  hash: string;
}

export interface StateProofSource extends ProofSource {
  /** The ledger's state tree (its root is the header's account_hash). */
  state: StateTree;
  /** The indexes of the entries to prove, e.g. an AccountRoot and its trust lines. */
  keys: readonly string[];
}

/** State entries already taken from the ledger's tree, each with its path (e.g. from sync's GetStateProof). */
export interface StateEntriesSource extends ProofSource {
  entries: readonly StateEntry[];
}

function hexOf(bytes: string | Uint8Array): string {
  return (typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('hex')).toUpperCase();
}

function stateEntry(state: StateTree, key: string, header: LedgerHeader, field: string): StateEntry {
  const blob = state.get(key);
  const proof = state.proof(key);
  if (blob === undefined || proof === undefined) throw new InvalidParams(`ledger ${header.ledgerIndex} holds no entry ${key}`, field);
  return { key: key.toUpperCase(), blob: blob.toString('hex').toUpperCase(), proof };
}

function blobContent(blob: unknown): { sequence: number; effective?: number; expiration: number } {
  try {
    return JSON.parse(Buffer.from(String(blob), 'base64').toString('utf8')) as { sequence: number; effective?: number; expiration: number };
  } catch {
    throw new InvalidParams('a blob of the list document is not base64 JSON', 'list');
  }
}

/** A version 1 list document: the document itself, or the blob of a version 2 one in force at `closeTime`. */
function listAt(document: Readonly<Record<string, unknown>>, closeTime: number): PublishedListDocument {
  const { public_key: publicKey, manifest } = document;
  if (typeof publicKey !== 'string' || typeof manifest !== 'string') throw new InvalidParams('the list document needs "public_key" and "manifest"', 'list');
  if (document.version === 1 && typeof document.blob === 'string' && typeof document.signature === 'string') {
    return { public_key: publicKey, manifest, blob: document.blob, signature: document.signature, version: 1 };
  }
  const entries = Array.isArray(document.blobs_v2) ? (document.blobs_v2 as Record<string, unknown>[]) : [];
  const inForce = inForceAt(
    entries.map((entry) => ({ entry, ...blobContent(entry.blob) })),
    closeTime,
  );
  if (inForce === undefined) throw new InvalidParams(`the list document has no blob in force at close time ${closeTime}`, 'list');
  const { blob, signature } = inForce.entry;
  return { public_key: publicKey, manifest: typeof inForce.entry.manifest === 'string' ? inForce.entry.manifest : manifest, blob: String(blob), signature: String(signature), version: 1 };
}

/** The `ledger_proof` of a later validated ledger, and that ledger's header. */
function ledgerProofOf(proven: LedgerHeader, later: LaterLedger): { validated: LedgerHeader; ledgerProof: LedgerProof } {
  if (later.kind === 'header_chain') {
    const validated = later.headers[later.headers.length - 1];
    if (validated === undefined) throw new InvalidParams('a header chain holds at least one header', 'later');
    return { validated, ledgerProof: { kind: 'header_chain', headers: later.headers.map(proofLedgerOf) } };
  }
  const headers = later.headers ?? [];
  const listed = headers.at(-1) ?? proven;
  // rippled updateSkipList: the last 256 ledgers are in keylet::skip(), every 256th in keylet::skip(ledger).
  const distance = later.header.ledgerIndex - listed.ledgerIndex;
  const key = distance > 0 && distance <= 256 ? keylet.ledgerHashes() : keylet.ledgerHashesOf(listed.ledgerIndex);
  let entry: StateEntry;
  if ('state' in later) {
    if (later.state.root() !== later.header.accountHash) throw new InvalidParams(`the state tree given is not ledger ${later.header.ledgerIndex}'s (its root is not account_hash)`, 'later');
    entry = stateEntry(later.state, key, later.header, 'later');
  } else {
    if (later.entry.key.toUpperCase() !== key) throw new InvalidParams(`the entry given is ${later.entry.key}, not the skip list ${key} that can hold ledger ${listed.ledgerIndex}`, 'later');
    if (proofRoot(later.entry.proof) !== later.header.accountHash) throw new InvalidParams(`the path of the skip list does not hash to ledger ${later.header.ledgerIndex}'s account_hash`, 'later');
    entry = later.entry;
  }
  const ledgerProof: LedgerProof = { kind: 'skip_list', ...(headers.length > 0 ? { headers: headers.map(proofLedgerOf) } : {}), ledger: proofLedgerOf(later.header), state: entry };
  return { validated: later.header, ledgerProof };
}

/** The parts every proof shares: `ledger`, `validation` and, for a ledger proven by a later one, `ledger_proof`. */
function commonParts(source: ProofSource): Pick<TransactionProof, 'ledger' | 'validation' | 'ledger_proof'> {
  const link = source.later === undefined ? undefined : ledgerProofOf(source.header, source.later);
  const validated = link?.validated ?? source.header;
  const data: Record<string, string> = {};
  for (const blob of source.validations) {
    const signingKey = source.profile.codec.decode(hexOf(blob)).SigningPubKey;
    if (typeof signingKey !== 'string') throw new InvalidParams('a validation has no SigningPubKey', 'validations');
    data[encodeNodePublicKey(signingKey, source.profile)] = hexOf(blob);
  }
  return {
    ledger: proofLedgerOf(source.header),
    validation: { data, unl: listAt(source.list, validated.closeTime) },
    ...(link ? { ledger_proof: link.ledgerProof } : {}),
  };
}

/** An XPOP of one transaction (with `ledger_proof` when `later` is given: then not one Xahau reads). */
export function buildTransactionProof(source: TransactionProofSource): TransactionProof {
  const hash = source.hash.toUpperCase();
  const item = source.transactions.find((entry) => entry.hash.toUpperCase() === hash);
  const proof = transactionTreeProof(source.transactions, hash);
  if (item === undefined || proof === undefined) throw new InvalidParams(`transaction ${hash} is not in ledger ${source.header.ledgerIndex}`, 'hash');
  // The path's root is the tree's: checked from the path, the tree is built once.
  if (proofRoot(proof) !== source.header.transactionHash) {
    throw new InvalidParams(`the transactions given are not ledger ${source.header.ledgerIndex}'s (their tree root is not transaction_hash)`, 'transactions');
  }
  const { ledger, validation, ledger_proof: ledgerProof } = commonParts(source);
  return { ledger, transaction: { blob: hexOf(item.txBlob), meta: hexOf(item.metaBlob), proof }, validation, ...(ledgerProof ? { ledger_proof: ledgerProof } : {}) };
}

/** A proof of state entries at a ledger: each entry's bytes and its path to `acroot`. */
export function buildStateProof(source: StateProofSource): StateProof {
  if (source.state.root() !== source.header.accountHash) {
    throw new InvalidParams(`the state tree given is not ledger ${source.header.ledgerIndex}'s (its root is not account_hash)`, 'state');
  }
  if (source.keys.length === 0) throw new InvalidParams('name at least one entry to prove', 'keys');
  return assembleStateProof({ ...source, entries: source.keys.map((key) => stateEntry(source.state, key, source.header, 'keys')) });
}

/** A proof of state entries whose paths were taken from the ledger's tree elsewhere: each path must hash to `acroot`. */
export function assembleStateProof(source: StateEntriesSource): StateProof {
  if (source.entries.length === 0) throw new InvalidParams('name at least one entry to prove', 'entries');
  for (const entry of source.entries) {
    if (proofRoot(entry.proof) !== source.header.accountHash) {
      throw new InvalidParams(`the path of entry ${entry.key} does not hash to ledger ${source.header.ledgerIndex}'s account_hash`, 'entries');
    }
  }
  const { ledger, validation, ledger_proof: ledgerProof } = commonParts(source);
  return { ledger, state: [...source.entries], validation, ...(ledgerProof ? { ledger_proof: ledgerProof } : {}) };
}

