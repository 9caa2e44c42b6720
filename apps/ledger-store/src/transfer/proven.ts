/**
 * What proves the ledgers of an import, as sync proves what it stores: a ledger is proven by its
 * evidence (the validations kept with it, counted as sync counts them: each verified — signature,
 * full, of the ledger's hash and index — for the validators the trusted publishers' lists list,
 * judged at the ledger's close time, or the -validators keys, against rippled's quorum without a
 * negative UNL), by a proven ledger that names it as its parent (the next one of the stream's run,
 * or a ledger already in the store), or by being already stored identically. Proof flows down a
 * run: every ledger at or below a proven one is proven through the parent links the import checks.
 */
import { listDocumentOf, ValidatorTrust, verifyValidation, type ChainProfile, type ValidatorList, type VerifiedLedger } from '@ledger-node/chain';
import type { LedgerEvidence } from '@ledger-node/contracts';

/** Who the import trusts to have validated a ledger (the flags sync reads: -validator_list_keys, -validators). */
export interface ImportTrust {
  /** Publisher master keys, hex. */
  publisherKeys: readonly string[];
  /** The -validators file's keys and quorum. */
  validators?: ValidatorList;
}

/** The evidence proves the ledger (`text` says how), or it does not (`reason`: why; a forged validation is refused before). */
export type EvidenceVerdict = { proven: true; text: string } | { proven: false; reason: string };

/** A validation that does not verify: evidence that claims what it cannot prove, refused with the stream. */
export class ForgedEvidence extends Error {}

/** Whether `evidence` proves `ledger` to the trust given. Throws ForgedEvidence when a validation's signature does not verify. */
export function evidenceVerdict(ledger: VerifiedLedger, evidence: LedgerEvidence, trust: ImportTrust, profile: ChainProfile): EvidenceVerdict {
  const { validators } = trust;
  const validatorTrust = new ValidatorTrust({ publisherKeys: trust.publisherKeys.map((key) => key.toUpperCase()), staticKeys: validators?.keys, staticQuorum: validators?.quorum });
  if (!validatorTrust.configured) return { proven: false, reason: 'no publisher key (-validator_list_keys) or -validators key is trusted, so no validation counts' };
  const now = ledger.header.closeTime;
  for (const manifest of evidence.manifests) validatorTrust.applyManifest(manifest);
  const refusedLists: string[] = [];
  for (const parts of evidence.validatorLists) {
    const outcome = validatorTrust.applyList(listDocumentOf(parts), { site: 'the stream', now });
    if (outcome.disposition !== 'accepted') refusedLists.push(`the list of publisher ${parts.publicKey.toString('hex').toUpperCase()} is ${outcome.disposition}${outcome.reason ? ` (${outcome.reason})` : ''}`);
  }
  validatorTrust.update(now);
  const quorum = validatorTrust.quorum();
  if (!Number.isFinite(quorum)) {
    return { proven: false, reason: [validatorTrust.blockedReason() ?? 'no trusted validator is known', ...refusedLists].join('; ') };
  }
  const counted = new Set<string>();
  for (const blob of evidence.validations) {
    let validation;
    try {
      validation = verifyValidation(profile, blob.toString('hex'));
    } catch (error) {
      throw new ForgedEvidence(`a validation of ledger ${ledger.ledgerIndex} does not verify: ${(error as Error).message}`);
    }
    const master = validatorTrust.trustedMasterOf(validation.publicKey);
    if (master !== undefined) counted.add(master);
  }
  const trusted = validatorTrust.trusted().size;
  if (counted.size < quorum) {
    return { proven: false, reason: [`${counted.size} of the ${quorum} trusted validations needed (of ${trusted} trusted validators)`, ...refusedLists].join('; ') };
  }
  return { proven: true, text: `validated by ${counted.size} of ${trusted} trusted validators (quorum ${quorum})` };
}
