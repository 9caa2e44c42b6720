/**
 * The checks the store makes of a ledger's evidence before it keeps it, although sync counted it:
 * each validation's signature checks out, it is full and names the ledger's hash and index, one per
 * signing key, at least the quorum of them; each manifest's signatures check out, one per master
 * key; each list document's blobs are signed under its publisher's manifest and one of them is the
 * sequence it names. Validations and manifests are read with the XRP Ledger's field definitions
 * whatever the chain: STValidation's fields have the same codes in Jingtum's table, and manifests
 * are one format across the family (libs/chain trust/manifest.ts).
 */
import { getProfile, listDocumentOf, readManifest, readPublishedList, verifyValidation } from '@ledger-node/chain';
import type { LedgerEvidence } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';

/** More than any network's validators (mainnet has about 200). */
const MAX_VALIDATIONS = 1024;
/** Publishers a node trusts at once (rippled's lists, a handful); the record counts them in a byte. */
const MAX_LISTS = 16;
const PUBLISHER_KEY_LENGTH = 33;
const PROFILE = getProfile('xrpl');

/** Why an input did not read (a chain library's refusal, or a codec's), for the message. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Throws InvalidParams naming the field (under `path`, e.g. `ledgers[0].evidence`) when the evidence is not the proof of ledger `ledgerIndex`, `ledgerHash`. */
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
      validation = verifyValidation(PROFILE, blob.toString('hex'));
    } catch (error) {
      throw new InvalidParams(`${field} is not a signed validation: ${reasonOf(error)}`, field);
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
    let manifest;
    try {
      manifest = readManifest(bytes);
    } catch (error) {
      throw new InvalidParams(`${field} is not a manifest: ${reasonOf(error)}`, field);
    }
    if (masters.has(manifest.masterKey)) throw new InvalidParams(`${field} is of master key ${manifest.masterKey}, as an earlier manifest is`, field);
    masters.add(manifest.masterKey);
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
    let list;
    try {
      list = readPublishedList(listDocumentOf(document), new Set([publisherKey]));
    } catch (error) {
      throw new InvalidParams(`${field} is not a list its publisher signed: ${reasonOf(error)}`, field);
    }
    if (list.refused.length > 0) throw new InvalidParams(`${field} is not a list its publisher signed: ${list.refused.map((refusal) => refusal.reason).join('; ')}`, field);
    if (!list.blobs.some((blob) => blob.sequence === document.sequence)) {
      throw new InvalidParams(`${field}.sequence ${document.sequence} is none of its blobs' (${list.blobs.map((blob) => blob.sequence).join(', ')})`, `${field}.sequence`);
    }
  });
}
