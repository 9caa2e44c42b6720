/**
 * The offline verifier of a proof document (document.ts), step by step, as Xahau's Import checks
 * an XPOP (Import::preflight), with these differences:
 *
 * - the list is judged at the close time of the ledger its validations name, not at the time of
 *   checking: a proof stays valid after its list expired;
 * - every validation carried must verify (signature, full, the recomputed hash and index, the
 *   validator's current signing key); Xahau skips the ones that do not;
 * - the quorum is rippled's, ⌈80%⌉ of the validators the list names; Xahau's ⌊80%⌋ (at least 1)
 *   is never more, so a proof accepted here is one Xahau's quorum accepts;
 * - a leaf must sit where its key's nibbles lead, not merely somewhere in the proof.
 *
 * No negative UNL applies: a proof does not carry one.
 */
import {
  hashLedgerHeader,
  hashTransaction,
  inForceAt,
  keylet,
  readManifest,
  readPublishedList,
  stateLeafHash,
  toHex,
  transactionLeafHash,
  verifyValidation,
  type ChainProfile,
  type LedgerHeader,
  type ListBlob,
} from '@ledger-node/chain';
import { parseProofDocument, type ParsedProof, type ParsedStateEntry } from './document';
import { leafDepth, misstatedNode, proofRoot } from './tree';

export type ProofStepName = 'ledger' | 'ledger_proof' | 'list' | 'list_in_force' | 'manifests' | 'validations' | 'quorum' | 'transaction' | 'state';

export interface ProofStep {
  name: ProofStepName;
  ok: boolean;
  detail: string;
}

export interface ProofVerdict {
  /** True only when every step holds. */
  ok: boolean;
  steps: ProofStep[];
}

export interface VerifyProofOptions {
  /** Master keys of the list publishers trusted (rippled's [validator_list_keys]), hex. */
  publisherKeys: readonly string[];
  /** The chain whose validations and validator keys (`n…` alphabet) the proof carries. */
  profile: ChainProfile;
}

/** How many skip-list positions apart two listed ledgers are: 1 in the last-256 list, 256 in a long one. */
const SHORT_SKIP_LIST = 256;

const short = (hash: string) => `${hash.slice(0, 8)}…`;

/** rippled calculateQuorum without a negative UNL: ⌈80%⌉, in integers (its single-precision product gives the same). */
export function proofQuorum(listed: number): number {
  return Math.max(1, Math.ceil((listed * 4) / 5));
}

function leafOfTransaction(blob: Buffer, meta: Buffer, txId: string): string {
  return toHex(transactionLeafHash(Buffer.from(txId, 'hex'), blob, meta));
}

function leafOfState(entry: ParsedStateEntry): string {
  return toHex(stateLeafHash(Buffer.from(entry.key, 'hex'), entry.blob));
}

/** Whether a leaf sits on its key's path and the path hashes to `root`; the reason otherwise. */
function pathProblem(proof: ParsedStateEntry['proof'], key: string, leaf: string, root: string, rootName: string): { problem?: string; depth?: number } {
  const depth = leafDepth(proof, key, leaf);
  if (depth === undefined) return { problem: `its leaf ${short(leaf)} is not where its key leads in the proof` };
  const misstated = misstatedNode(proof);
  if (misstated !== undefined) return { problem: `the proof's node ${misstated} states a hash its children do not hash to` };
  const computed = proofRoot(proof);
  if (computed !== root) return { problem: `the proof hashes to ${computed}, not ${rootName} ${root}` };
  return { depth };
}

/** The entry's LedgerEntryType, for the reader: the path proves its bytes whether or not the codec knows them. */
function entryType(entry: ParsedStateEntry, profile: ChainProfile): string {
  try {
    return String(profile.codec.decode(entry.blob).LedgerEntryType ?? 'entry');
  } catch {
    return 'entry';
  }
}

function stateStep(entry: ParsedStateEntry, header: LedgerHeader, profile: ChainProfile): ProofStep {
  const { problem, depth } = pathProblem(entry.proof, entry.key, leafOfState(entry), header.accountHash, 'acroot');
  if (problem) return { name: 'state', ok: false, detail: `entry ${entry.key}: ${problem}` };
  return { name: 'state', ok: true, detail: `${entryType(entry, profile)} ${entry.key} is in the state tree of ledger ${header.ledgerIndex} (${depth} inner nodes up to acroot)` };
}

/** The hash a LedgerHashes entry of `validated` lists for `ledgerIndex`, the entry read from its blob; or why there is none. */
export function skipListHash(entry: ParsedStateEntry, ledgerIndex: number, validated: LedgerHeader, profile: ChainProfile): { hash?: string; problem?: string } {
  const distance = validated.ledgerIndex - ledgerIndex;
  if (distance <= 0) return { problem: `the validated ledger ${validated.ledgerIndex} is not after ledger ${ledgerIndex}` };
  const shortList = entry.key === keylet.ledgerHashes();
  if (!shortList && entry.key !== keylet.ledgerHashesOf(ledgerIndex)) return { problem: `entry ${entry.key} is not a skip list that can hold ledger ${ledgerIndex}` };
  let fields: Record<string, unknown>;
  try {
    fields = profile.codec.decode(entry.blob.toString('hex'));
  } catch {
    return { problem: 'the skip list entry does not decode' };
  }
  const { LedgerEntryType: type, LastLedgerSequence: last, Hashes: hashes } = fields;
  if (type !== 'LedgerHashes' || typeof last !== 'number' || !Array.isArray(hashes)) return { problem: 'the entry is not a LedgerHashes skip list' };
  // rippled updateSkipList: the last-256 list ends at the parent of the ledger holding it; a long one adds every 256th ledger.
  const spacing = shortList ? 1 : SHORT_SKIP_LIST;
  if (shortList && last !== validated.ledgerIndex - 1) return { problem: `the skip list ends at ledger ${last}, not ${validated.ledgerIndex - 1}` };
  const steps = (last - ledgerIndex) / spacing;
  const position = hashes.length - 1 - steps;
  if (!Number.isInteger(steps) || steps < 0 || position < 0) return { problem: `the skip list (up to ledger ${last}, ${hashes.length} hashes) does not reach ledger ${ledgerIndex}` };
  return { hash: String(hashes[position]).toUpperCase() };
}

/** The ledger whose validations the document carries, and the step that links the proven ledger to it. */
function validatedLedger(proof: ParsedProof, provenHash: string, profile: ChainProfile): { header: LedgerHeader; step?: ProofStep } {
  const link = proof.ledgerProof;
  if (link === undefined) return { header: proof.ledger };
  const chain = headerChain(proof.ledger, provenHash, link.headers);
  if (chain.problem) return { header: link.kind === 'skip_list' ? link.ledger : chain.last, step: { name: 'ledger_proof', ok: false, detail: chain.problem } };
  const through = link.headers.length === 0 ? '' : ` through ${link.headers.length} headers, each naming the one before as its parent`;
  if (link.kind === 'header_chain') {
    const detail = `ledger ${proof.ledger.ledgerIndex} is the ancestor of validated ledger ${chain.last.ledgerIndex}${through}`;
    return { header: chain.last, step: { name: 'ledger_proof', ok: true, detail } };
  }
  const validated = link.ledger;
  const { problem } = pathProblem(link.state.proof, link.state.key, leafOfState(link.state), validated.accountHash, 'the validated ledger acroot');
  if (problem) return { header: validated, step: { name: 'ledger_proof', ok: false, detail: `the skip list of ledger ${validated.ledgerIndex}: ${problem}` } };
  const listedLedger = chain.last;
  const listed = skipListHash(link.state, listedLedger.ledgerIndex, validated, profile);
  if (listed.problem) return { header: validated, step: { name: 'ledger_proof', ok: false, detail: listed.problem } };
  if (listed.hash !== chain.lastHash) {
    return { header: validated, step: { name: 'ledger_proof', ok: false, detail: `the skip list of ledger ${validated.ledgerIndex} names ${listed.hash} for ledger ${listedLedger.ledgerIndex}, not ${chain.lastHash}` } };
  }
  const ancestor = link.headers.length === 0 ? '' : `, whose ancestor ledger ${proof.ledger.ledgerIndex} is${through}`;
  const detail = `the skip list of validated ledger ${validated.ledgerIndex} (entry ${short(link.state.key)}, in its state tree) names ledger ${listedLedger.ledgerIndex}'s hash${ancestor}`;
  return { header: validated, step: { name: 'ledger_proof', ok: true, detail } };
}

/** The last of `headers` when each names the one before (the first naming `proven`) as its parent, with its hash; or where the chain breaks. */
function headerChain(proven: LedgerHeader, provenHash: string, headers: readonly LedgerHeader[]): { last: LedgerHeader; lastHash: string; problem?: string } {
  let [last, lastHash] = [proven, provenHash];
  for (const [position, header] of headers.entries()) {
    if (header.ledgerIndex !== last.ledgerIndex + 1 || header.parentHash !== lastHash) {
      return { last: header, lastHash, problem: `ledger_proof.headers[${position}] (ledger ${header.ledgerIndex}, parent ${short(header.parentHash)}) is not the child of ledger ${last.ledgerIndex} (${short(lastHash)})` };
    }
    [last, lastHash] = [header, hashLedgerHeader(header)];
  }
  return { last, lastHash };
}

/** The list's blob in force at `closeTime` (the highest sequence among those), or the step saying none is. */
function blobInForce(blobs: readonly ListBlob[], closeTime: number, ledgerIndex: number): { blob?: ListBlob; step: ProofStep } {
  const inForce = inForceAt(blobs, closeTime);
  if (inForce === undefined) {
    const windows = blobs.map((blob) => `sequence ${blob.sequence}: effective ${blob.effective}, expiration ${blob.expiration}`).join('; ');
    return { step: { name: 'list_in_force', ok: false, detail: `no list was in force at ledger ${ledgerIndex}'s close time ${closeTime} (${windows})` } };
  }
  const detail = `list sequence ${inForce.sequence} was in force at ledger ${ledgerIndex}'s close time ${closeTime} (effective ${inForce.effective}, expiration ${inForce.expiration})`;
  return { blob: inForce, step: { name: 'list_in_force', ok: true, detail } };
}

/** Each listed validator's current signing key, from the manifest the list carries for it (Xahau: none, or one of another key, and it cannot count). */
function signingKeys(blob: ListBlob): { byMaster: Map<string, string>; step: ProofStep } {
  const byMaster = new Map<string, string>();
  const refused: string[] = [];
  for (const validator of blob.validators) {
    try {
      if (validator.manifest === undefined) throw new Error('no manifest');
      const manifest = readManifest(validator.manifest);
      if (manifest.masterKey !== validator.masterKey || manifest.signingKey === undefined) throw new Error('not its manifest');
      byMaster.set(validator.masterKey, manifest.signingKey);
    } catch {
      refused.push(short(validator.masterKey));
    }
  }
  const listed = blob.validators.length;
  const detail = `${byMaster.size} of ${listed} listed validators have a verified manifest naming their signing key${refused.length > 0 ? ` (${refused.join(', ')} cannot count)` : ''}`;
  return { byMaster, step: { name: 'manifests', ok: byMaster.size > 0, detail } };
}

/** Every validation verified against the listed validators; the distinct validators it counts for. */
function validationsStep(proof: ParsedProof, validated: LedgerHeader, validatedHash: string, byMaster: ReadonlyMap<string, string> | undefined, profile: ChainProfile): { counted: Set<string>; step: ProofStep } {
  const masterOfSigning = new Map([...(byMaster ?? new Map<string, string>())].map(([master, signing]) => [signing, master]));
  const counted = new Set<string>();
  const failures: string[] = [];
  const unlisted: string[] = [];
  for (const { name, key, blob } of proof.validations) {
    let validation;
    try {
      validation = verifyValidation(profile, blob);
    } catch {
      failures.push(`${name}: its signature does not verify`);
      continue;
    }
    if (!validation.full) failures.push(`${name}: not a full validation`);
    else if (validation.ledgerHash !== validatedHash || validation.ledgerIndex !== validated.ledgerIndex) {
      failures.push(`${name}: validates ledger ${validation.ledgerIndex} ${short(validation.ledgerHash)}, not ${validated.ledgerIndex} ${short(validatedHash)}`);
    } else if (byMaster !== undefined) {
      // The data key names a validator by its master key or its current signing key (Xahau's lookup).
      const master = byMaster.has(key) ? key : masterOfSigning.get(key);
      if (master === undefined) unlisted.push(name);
      else if (byMaster.get(master) !== validation.publicKey) failures.push(`${name}: signed by ${short(validation.publicKey)}, not by its validator's current signing key`);
      else counted.add(master);
    }
  }
  if (byMaster === undefined) return { counted, step: { name: 'validations', ok: false, detail: 'no verified list names the validators' } };
  if (failures.length > 0) return { counted, step: { name: 'validations', ok: false, detail: `${failures.length} of ${proof.validations.length} validations fail: ${failures.join('; ')}` } };
  const others = unlisted.length > 0 ? `; ${unlisted.length} from validators not listed with a verified manifest count for nothing` : '';
  const detail = `${counted.size} validations verify: full, of ledger ${validated.ledgerIndex} ${validatedHash}, each signed by its validator's current signing key${others}`;
  return { counted, step: { name: 'validations', ok: true, detail } };
}

/**
 * Verifies a proof document offline. MalformedProof (from parsing) when a field is missing or not
 * what the format says; otherwise the steps, each holding or not, and the verdict.
 */
export function verifyProof(document: unknown, options: VerifyProofOptions): ProofVerdict {
  const { profile } = options;
  const proof = parseProofDocument(document, profile);
  const provenHash = hashLedgerHeader(proof.ledger);
  const steps: ProofStep[] = [{ name: 'ledger', ok: true, detail: `ledger ${proof.ledger.ledgerIndex} hashes to ${provenHash} (recomputed from its header fields)` }];
  const { header: validated, step: linkStep } = validatedLedger(proof, provenHash, profile);
  if (linkStep) steps.push(linkStep);
  const validatedHash = hashLedgerHeader(validated);

  let blob: ListBlob | undefined;
  try {
    // Xahau reads `blob` and `signature` whatever `version` says (syntaxCheckXPOP checks only that it is an integer).
    const list = readPublishedList({ ...proof.list, version: 1 }, new Set(options.publisherKeys.map((key) => key.toUpperCase())));
    steps.push({ name: 'list', ok: true, detail: `the list is signed by publisher ${list.publisherKey} under its manifest (sequence ${list.publisherManifest.sequence})` });
    const inForce = blobInForce(list.blobs, validated.closeTime, validated.ledgerIndex);
    steps.push(inForce.step);
    blob = inForce.blob;
  } catch (error) {
    steps.push({ name: 'list', ok: false, detail: (error as Error).message });
  }
  const keys = blob === undefined ? undefined : signingKeys(blob);
  if (keys) steps.push(keys.step);
  const { counted, step } = validationsStep(proof, validated, validatedHash, keys?.byMaster, profile);
  steps.push(step);
  if (blob) {
    const quorum = proofQuorum(blob.validators.length);
    const detail = `${counted.size} of the ${blob.validators.length} listed validators validated ledger ${validated.ledgerIndex} (quorum ${quorum}, 80% rounded up)`;
    steps.push({ name: 'quorum', ok: counted.size >= quorum, detail });
  }
  if (proof.transaction) {
    const { blob: txBlob, meta, proof: path } = proof.transaction;
    const txId = hashTransaction(txBlob);
    const { problem, depth } = pathProblem(path, txId, leafOfTransaction(txBlob, meta, txId), proof.ledger.transactionHash, 'txroot');
    steps.push(
      problem
        ? { name: 'transaction', ok: false, detail: `transaction ${txId}: ${problem}` }
        : { name: 'transaction', ok: true, detail: `transaction ${txId} with its metadata is in the transaction tree of ledger ${proof.ledger.ledgerIndex} (${depth} inner nodes up to txroot)` },
    );
  }
  for (const entry of proof.state) steps.push(stateStep(entry, proof.ledger, profile));
  return { ok: steps.every((entry) => entry.ok), steps };
}
