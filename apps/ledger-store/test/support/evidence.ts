/**
 * The evidence of ledgers as sync writes it: full validations signed by the public-entropy devnet's
 * five validators (libs/chain devnet-keys), under the publisher's list 1 and the validators' manifests.
 */
import { devnetNetworkKeys, getProfile, listDocumentParts, signManifest, signPublishedList, signValidation, type DevnetKeyHolder } from '@ledger-node/chain';
import type { LedgerEvidence, LedgerWrite } from '@ledger-node/contracts';

const profile = getProfile('xrpl');
const network = devnetNetworkKeys();
const manifestOf = (holder: DevnetKeyHolder) => Buffer.from(signManifest({ master: holder.master, signing: holder.signing, sequence: 1 }), 'hex');
/** The publisher's list 1 of the five validators, as its site serves it. */
const listDocument = signPublishedList({
  manifest: manifestOf(network.publisher).toString('hex'),
  signing: network.publisher.signing,
  publisherKey: network.publisher.master.publicKey,
  blobs: [{ sequence: 1, expiration: 2_000_000_000, validators: network.validators.map((validator) => ({ masterKey: validator.master.publicKey, manifest: manifestOf(validator).toString('base64') })) }],
  version: 1,
});

/** The evidence of `write`: full validations of it by each validator, under list 1 and their manifests. */
export function evidenceOf(write: LedgerWrite): LedgerEvidence {
  const ledger = { ledgerIndex: write.ledgerIndex, ledgerHash: write.ledgerHash.toString('hex'), signingTime: 800_000_000 };
  return {
    validations: network.validators.map((validator) => Buffer.from(signValidation(profile, validator.signing, ledger), 'hex')),
    quorum: 4,
    validatorLists: [listDocumentParts(listDocument, network.publisher.master.publicKey, 1)],
    manifests: network.validators.map(manifestOf),
  };
}

/** The publisher of the list `evidenceOf` carries: the key an import that trusts it is given. */
export const PUBLISHER_KEY = network.publisher.master.publicKey;
/** The validators' master keys, as a -validators file lists them. */
export const VALIDATOR_KEYS = network.validators.map((validator) => validator.master.publicKey);
