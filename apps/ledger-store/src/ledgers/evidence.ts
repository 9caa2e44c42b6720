/**
 * The cheap invariants of a ledger's evidence, checked by the store before it keeps it: each
 * validation is a full STValidation of the ledger's hash and index with a signing key and a
 * signature, one per signing key, at least the quorum of them; each manifest names a master key
 * and sequence, one per master key; each list document is its publisher's (its manifest's master
 * key) and holds a blob of the sequence it names. Signatures are not checked again: sync checked
 * each as it counted it (about 4 ms each here: tens per ledger on the XRP Ledger), and a proof
 * built from the evidence is verified by whoever receives it. Validations are read with the XRP
 * Ledger's field definitions whatever the chain: STValidation's fields have the same codes in
 * Jingtum's table, and manifests are one format across the family (libs/chain trust/manifest.ts).
 */
import { getProfile, listSequences, manifestIdentity, readValidation } from '@ledger-node/chain';
import type { LedgerEvidence } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';

/** More than any network's validators (mainnet has about 200). */
const MAX_VALIDATIONS = 1024;
/** Publishers a node trusts at once (rippled's lists, a handful); the stored record counts them in a byte. */
const MAX_LISTS = 16;
const PUBLISHER_KEY_LENGTH = 33;
const PROFILE = getProfile('xrpl');

/** Why an input did not read (a chain library's refusal, or a codec's), for the message. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Throws InvalidParams naming the field (under `path`, e.g. `ledgers[0].evidence`) when the evidence is not that of ledger `ledgerIndex`, `ledgerHash`. */
export function validateEvidence(evidence: LedgerEvidence, ledgerIndex: number, ledgerHash: Buffer, path: string): void {
  const { validations, quorum, manifests, validatorLists } = evidence;
  if (validations.length === 0 || validations.length > MAX_VALIDATIONS) {
    throw new InvalidParams(`${path}.validations must hold 1 to ${MAX_VALIDATIONS} validations, got ${validations.length}`, `${path}.validations`);
  }
  const hash = ledgerHash.toString('hex').toUpperCase();
  const signers = new Set<string>();
  validations.forEach((blob, position) => {
    const field = `${path}.validations[${position}]`;
    let validation;
    try {
      validation = readValidation(PROFILE, blob.toString('hex'));
    } catch (error) {
      throw new InvalidParams(`${field} is not a validation: ${reasonOf(error)}`, field);
    }
    if (!validation.full) throw new InvalidParams(`${field} is not a full validation`, field);
    if (validation.ledgerIndex !== ledgerIndex || validation.ledgerHash !== hash) {
      throw new InvalidParams(`${field} validates ledger ${validation.ledgerIndex} ${validation.ledgerHash}, not ledger ${ledgerIndex} ${hash}`, field);
    }
    if (signers.has(validation.publicKey)) throw new InvalidParams(`${field} is signed by ${validation.publicKey}, as an earlier validation is`, field);
    signers.add(validation.publicKey);
  });
  if (quorum < 1 || quorum > validations.length) {
    throw new InvalidParams(`${path}.quorum must be from 1 to the ${validations.length} validations given, got ${quorum}`, `${path}.quorum`);
  }
  const masters = new Set<string>();
  manifests.forEach((bytes, position) => {
    const field = `${path}.manifests[${position}]`;
    let masterKey;
    try {
      ({ masterKey } = manifestIdentity(bytes));
    } catch (error) {
      throw new InvalidParams(`${field} is not a manifest: ${reasonOf(error)}`, field);
    }
    if (masters.has(masterKey)) throw new InvalidParams(`${field} is of master key ${masterKey}, as an earlier manifest is`, field);
    masters.add(masterKey);
  });
  if (validatorLists.length > MAX_LISTS) throw new InvalidParams(`${path}.validator_lists must hold at most ${MAX_LISTS} lists, got ${validatorLists.length}`, `${path}.validator_lists`);
  const publishers = new Set<string>();
  validatorLists.forEach((document, position) => {
    const field = `${path}.validator_lists[${position}]`;
    if (document.publicKey.length !== PUBLISHER_KEY_LENGTH) {
      throw new InvalidParams(`${field}.public_key must be ${PUBLISHER_KEY_LENGTH} bytes, got ${document.publicKey.length}`, `${field}.public_key`);
    }
    const publisherKey = document.publicKey.toString('hex').toUpperCase();
    if (publishers.has(publisherKey)) throw new InvalidParams(`${field} is of publisher ${publisherKey}, as an earlier list is`, field);
    publishers.add(publisherKey);
    let sequences;
    try {
      sequences = listSequences(document);
    } catch (error) {
      throw new InvalidParams(`${field} is not a validator list: ${reasonOf(error)}`, field);
    }
    if (!sequences.includes(document.sequence)) {
      throw new InvalidParams(`${field}.sequence ${document.sequence} is none of its blobs' (${sequences.join(', ')})`, `${field}.sequence`);
    }
  });
}
