/**
 * The proof document: an XPOP (XLS-41, what Xahau's Import reads) and its extensions.
 *
 * - `ledger`: the header fields of the proven ledger, from which its hash is recomputed;
 * - `validation.data`: signed validations (hex) keyed by the validator's key (`n…`, its signing key
 *   or its master key); `validation.unl`: the publisher's list they are checked against, version 1
 *   (`public_key`, `manifest`, `blob`, `signature`, `version`);
 * - `transaction`: the transaction (`blob`), its metadata (`meta`) and `proof`, the inner nodes from
 *   its leaf to `ledger.txroot`.
 *
 * Extensions (ledger-node's; Xahau reads none of them):
 * - `state`: ledger entries (`key`, `blob`, `proof` to `ledger.acroot`), one object or a list;
 * - `ledger_proof`: the ledger is proven by a later validated ledger, whose validations `validation`
 *   then carries: `header_chain` (the headers from the proven ledger's child up to the validated
 *   one, each naming the one before as parent) or `skip_list` (the validated ledger's header and
 *   its LedgerHashes entry, with the path to its `acroot`, that lists the proven ledger's hash; or,
 *   with `headers`, the hash of the last of the headers from the proven ledger's child up to a
 *   ledger the skip list holds: a ledger far below the validated one is chained to the next
 *   256th ledger, which the skip list of every 256th ledger lists).
 *
 * `proof` takes either of Xahau's forms: the list form, each inner node a list of its 16 branches
 * (a hash, or the next inner node's list), or the tree form, each node `{hash, key, children}`
 * with `children` keyed by nibble, a node without children standing for its hash.
 */
import { InvalidParams } from '@ledger-node/errors';
import { nodePublicKeyHex, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';

/** `ledger`: a header as XLS-41 names its fields; `coins` is a decimal string (Xahau also reads a JSON integer). */
export interface ProofLedger {
  index: number;
  coins: string;
  phash: string;
  txroot: string;
  acroot: string;
  pclose: number;
  close: number;
  cres: number;
  flags: number;
}

/** `validation.unl`: a version 1 published list. */
export interface PublishedListDocument {
  public_key: string;
  manifest: string;
  blob: string;
  signature: string;
  version: number;
}

export type ProofList = ReadonlyArray<string | ProofList>;

export interface ProofTreeNode {
  hash: string;
  key: string;
  children: Readonly<Record<string, ProofTreeNode>>;
}

/** A path from a leaf to a tree's root, in the list form or the tree form. */
export type ProofTree = ProofList | ProofTreeNode;

export interface TransactionEntry {
  blob: string;
  meta: string;
  proof: ProofTree;
}

export interface StateEntry {
  /** The ledger entry's index, 64 hex. */
  key: string;
  blob: string;
  proof: ProofTree;
}

export type LedgerProof = { kind: 'header_chain'; headers: ProofLedger[] } | { kind: 'skip_list'; headers?: ProofLedger[]; ledger: ProofLedger; state: StateEntry };

interface DocumentBase {
  ledger: ProofLedger;
  validation: { data: Record<string, string>; unl: PublishedListDocument };
  ledger_proof?: LedgerProof;
}

/** An XPOP: what Xahau's Import accepts when it carries no `ledger_proof`. */
export interface TransactionProof extends DocumentBase {
  transaction: TransactionEntry;
}

export interface StateProof extends DocumentBase {
  state: StateEntry[];
}

/** A field of the document that is missing or not what the format says; `param` names it. */
export class MalformedProof extends InvalidParams {
  constructor(field: string, problem: string) {
    super(`${field} ${problem}`, field);
  }
}

/** The document as the verifier reads it: headers decoded, bytes as bytes, validator keys as hex. */
export interface ParsedProof {
  ledger: LedgerHeader;
  validations: { name: string; key: string; blob: string }[];
  list: Record<string, unknown>;
  transaction?: { blob: Buffer; meta: Buffer; proof: ProofTree };
  state: ParsedStateEntry[];
  ledgerProof?: { kind: 'header_chain'; headers: LedgerHeader[] } | { kind: 'skip_list'; headers: LedgerHeader[]; ledger: LedgerHeader; state: ParsedStateEntry };
}

export interface ParsedStateEntry {
  key: string;
  blob: Buffer;
  proof: ProofTree;
}

const HASH = /^[0-9A-Fa-f]{64}$/;
const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const NIBBLE = /^[0-9A-F]$/;
const MAX_U64 = (1n << 64n) - 1n;
/** A key has 64 nibbles: no path is longer. */
const MAX_DEPTH = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown, field: string): Record<string, unknown> {
  if (!isRecord(value)) throw new MalformedProof(field, value === undefined ? 'is missing' : 'must be a JSON object');
  return value;
}

function uint(value: unknown, field: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new MalformedProof(field, value === undefined ? 'is missing' : `must be an integer from 0 to ${max}`);
  }
  return value;
}

function hash(value: unknown, field: string): string {
  if (typeof value !== 'string' || !HASH.test(value)) throw new MalformedProof(field, value === undefined ? 'is missing' : 'must be 64 hex digits');
  return value.toUpperCase();
}

function hexBytes(value: unknown, field: string): Buffer {
  if (typeof value !== 'string' || value === '' || !HEX.test(value)) throw new MalformedProof(field, value === undefined ? 'is missing' : 'must be hex bytes');
  return Buffer.from(value, 'hex');
}

function coins(value: unknown, field: string): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,20}$/.test(text) || BigInt(text) > MAX_U64) {
    throw new MalformedProof(field, value === undefined ? 'is missing' : 'must be a decimal integer below 2^64 (drops)');
  }
  return BigInt(text);
}

function header(value: unknown, field: string): LedgerHeader {
  const ledger = record(value, field);
  return {
    ledgerIndex: uint(ledger.index, `${field}.index`, 0xffffffff),
    totalCoins: coins(ledger.coins, `${field}.coins`),
    parentHash: hash(ledger.phash, `${field}.phash`),
    transactionHash: hash(ledger.txroot, `${field}.txroot`),
    accountHash: hash(ledger.acroot, `${field}.acroot`),
    parentCloseTime: uint(ledger.pclose, `${field}.pclose`, 0xffffffff),
    closeTime: uint(ledger.close, `${field}.close`, 0xffffffff),
    closeTimeResolution: uint(ledger.cres, `${field}.cres`, 0xff),
    closeFlags: uint(ledger.flags, `${field}.flags`, 0xff),
  };
}

/** A proof in either form, checked for shape (Xahau syntaxCheckProof, with nibbles in upper case as its hashing reads them). */
function proofTree(value: unknown, field: string, depth = 0): ProofTree {
  if (depth > MAX_DEPTH) throw new MalformedProof(field, `is deeper than ${MAX_DEPTH} inner nodes`);
  if (Array.isArray(value)) {
    if (value.length !== 16) throw new MalformedProof(field, 'must list 16 branches');
    return value.map((entry: unknown, branch) => (typeof entry === 'string' ? hash(entry, `${field}[${branch}]`) : proofList(entry, `${field}[${branch}]`, depth + 1)));
  }
  if (!isRecord(value)) throw new MalformedProof(field, value === undefined ? 'is missing' : 'must be a list of 16 branches or a {hash, key, children} node');
  return treeNode(value, field, depth);
}

function proofList(value: unknown, field: string, depth: number): ProofList {
  if (!Array.isArray(value)) throw new MalformedProof(field, 'must be a hash or a list of 16 branches');
  return proofTree(value, field, depth) as ProofList;
}

function treeNode(value: Record<string, unknown>, field: string, depth: number): ProofTreeNode {
  if (depth > MAX_DEPTH) throw new MalformedProof(field, `is deeper than ${MAX_DEPTH} inner nodes`);
  const children = record(value.children, `${field}.children`);
  const parsed: Record<string, ProofTreeNode> = {};
  for (const [branch, child] of Object.entries(children)) {
    if (!NIBBLE.test(branch)) throw new MalformedProof(`${field}.children`, `has branch "${branch}": branches are nibbles 0-9, A-F`);
    parsed[branch] = treeNode(record(child, `${field}.children.${branch}`), `${field}.children.${branch}`, depth + 1);
  }
  return { hash: hash(value.hash, `${field}.hash`), key: hash(value.key, `${field}.key`), children: parsed };
}

function stateEntry(value: unknown, field: string): ParsedStateEntry {
  const entry = record(value, field);
  return { key: hash(entry.key, `${field}.key`), blob: hexBytes(entry.blob, `${field}.blob`), proof: proofTree(entry.proof, `${field}.proof`) };
}

/** `validation.unl`, in the shape Xahau checks (syntaxCheckXPOP): its signatures are the verifier's. */
function listDocument(value: unknown): Record<string, unknown> {
  const list = record(value, 'validation.unl');
  if (typeof list.public_key !== 'string' || !/^(?:ED[0-9A-Fa-f]{64}|0[23][0-9A-Fa-f]{64})$/i.test(list.public_key)) {
    throw new MalformedProof('validation.unl.public_key', list.public_key === undefined ? 'is missing' : 'must be a public key, 66 hex digits');
  }
  for (const field of ['manifest', 'blob'] as const) {
    const text = list[field];
    if (typeof text !== 'string' || text === '' || !BASE64.test(text)) throw new MalformedProof(`validation.unl.${field}`, text === undefined ? 'is missing' : 'must be base64');
  }
  hexBytes(list.signature, 'validation.unl.signature');
  if (typeof list.version !== 'number' || !Number.isInteger(list.version)) throw new MalformedProof('validation.unl.version', list.version === undefined ? 'is missing' : 'must be an integer');
  return list;
}

function ledgerProof(value: unknown): ParsedProof['ledgerProof'] {
  if (value === undefined) return undefined;
  const proof = record(value, 'ledger_proof');
  const headers = () => {
    if (!Array.isArray(proof.headers) || proof.headers.length === 0) throw new MalformedProof('ledger_proof.headers', 'must list at least one header');
    return proof.headers.map((entry: unknown, position) => header(entry, `ledger_proof.headers[${position}]`));
  };
  if (proof.kind === 'header_chain') return { kind: 'header_chain', headers: headers() };
  if (proof.kind === 'skip_list') {
    return { kind: 'skip_list', headers: proof.headers === undefined ? [] : headers(), ledger: header(proof.ledger, 'ledger_proof.ledger'), state: stateEntry(proof.state, 'ledger_proof.state') };
  }
  throw new MalformedProof('ledger_proof.kind', 'must be "header_chain" or "skip_list"');
}

/** Reads a proof document; MalformedProof naming the first field that is missing or not what the format says. */
export function parseProofDocument(document: unknown, profile: Pick<ChainProfile, 'addressAlphabet'>): ParsedProof {
  const root = record(document, 'document');
  const ledger = header(root.ledger, 'ledger');
  const validation = record(root.validation, 'validation');
  const data = record(validation.data, 'validation.data');
  const validations = Object.entries(data).map(([name, blob]) => {
    const field = `validation.data.${name}`;
    let key: string;
    try {
      key = nodePublicKeyHex(name, profile);
    } catch {
      throw new MalformedProof(field, 'is not keyed by a validator key (n…)');
    }
    return { name, key, blob: hexBytes(blob, field).toString('hex').toUpperCase() };
  });
  if (validations.length === 0) throw new MalformedProof('validation.data', 'holds no validation');
  const list = listDocument(validation.unl);
  let transaction: ParsedProof['transaction'];
  if (root.transaction !== undefined) {
    const entry = record(root.transaction, 'transaction');
    transaction = { blob: hexBytes(entry.blob, 'transaction.blob'), meta: hexBytes(entry.meta, 'transaction.meta'), proof: proofTree(entry.proof, 'transaction.proof') };
  }
  const state = root.state === undefined ? [] : Array.isArray(root.state) ? root.state.map((entry: unknown, position) => stateEntry(entry, `state[${position}]`)) : [stateEntry(root.state, 'state')];
  if (transaction === undefined && state.length === 0) throw new MalformedProof('transaction', 'is missing (a proof proves a transaction or state entries)');
  const parsedLedgerProof = ledgerProof(root.ledger_proof);
  return { ledger, validations, list, ...(transaction ? { transaction } : {}), state, ...(parsedLedgerProof ? { ledgerProof: parsedLedgerProof } : {}) };
}

/** A header in the document's form. */
export function proofLedgerOf(header: LedgerHeader): ProofLedger {
  return {
    index: header.ledgerIndex,
    coins: header.totalCoins.toString(),
    phash: header.parentHash,
    txroot: header.transactionHash,
    acroot: header.accountHash,
    pclose: header.parentCloseTime,
    close: header.closeTime,
    cres: header.closeTimeResolution,
    flags: header.closeFlags,
  };
}
