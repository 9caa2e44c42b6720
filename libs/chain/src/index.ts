export { XRPL_ALPHABET, JINGTUM_ALPHABET, AddressCodec, Base58Check } from './base58';
export { ARRAY_END_MARKER, BinaryCursor, OBJECT_END_MARKER, UnreadableBinary, readFieldValue } from './binary-reader';
export { createChainCodec, type ChainCodec, type ChainCodecOptions } from './codec';
export { currencyToBytes, currencyFromBytes, longCurrencyHex } from './currency';
export { jingtumDefinitionsTable, jingtumLegacyContractDefinitions, readDefinitionsTable, xrplDefinitionsTable, type DefinitionsTable } from './definitions';
export { HashPrefix, sha512Half, hashTransaction, ZERO_HASH } from './hash';
export {
  type LedgerHeader,
  LEDGER_HEADER_LENGTH,
  encodeLedgerHeader,
  decodeLedgerHeader,
  hashLedgerHeader,
  ledgerHeaderFromJson,
  ledgerHeaderToJson,
} from './header';
export { decodeHex, isHex, toBytes, toHex } from './hex';
export { createChainKeys, isPublicKeyHex, type ChainKeys, type KeyAlgorithm } from './keys';
export { keylet } from './keylets';
export { transactionFromLedgerJson, transactionFieldsFromJson, transactionJsonOf, stateEntryFromLedgerJson, decodeTransactionBlob } from './ledger-json';
export { type ChainId, type ChainNetwork, type ChainProfile, chainIds, chainNetwork, defaultEndpointOf, getProfile, isChainId } from './profiles';
export {
  flatProofPath,
  proofPathOfFlat,
  stateLeafHash,
  transactionLeafHash,
  transactionTreeRoot,
  transactionTreeProof,
  stateTreeRoot,
  StateTree,
  type ProofPath,
} from './shamap';
export { RIPPLE_EPOCH_OFFSET, closeTimeHuman, rippleTimeToIso, unixMsToRippleTime } from './time';
export {
  DEVNET_NETWORK_ID,
  encodeAccountPublicKey,
  encodeNodePublicKey,
  nodePublicKeyHex,
  readValidation,
  readValidatorList,
  signValidation,
  verifyValidation,
  type Validation,
  type ValidatorList,
} from './validation';
export { SUBMISSION_STATES, SUBMIT_OUTCOMES, submitOutcome, type SubmissionStateName, type SubmitClass, type SubmitOutcome } from './outcomes';
export {
  checkExtendsTip,
  checkIsParentOf,
  checkParentLink,
  linkOf,
  verifyLedger,
  type FetchedLedger,
  type StoredLink,
  type Verification,
  type VerificationFailure,
  type VerificationFailureReason,
  type VerifiedLedger,
  type VerifiedTransaction,
} from './verify-ledger';
export {
  amountIssuer,
  fixedField,
  issueIssuer,
  readObjectFields,
  serializeFields,
  visitFields,
  type FieldVisitor,
  type RawField,
} from './binary-fields';
export {
  indexDecodedTransaction,
  indexTransaction,
  indexTransactionOrPlaceholder,
  MalformedTransaction,
  type AffectedAccountEntry,
  type TransactionIndexData,
} from './transaction-index';
export { verifiedLedgerWrite, type IndexFailure } from './ledger-write';
export { nftIndexOf, nftIndexOfDecoded, NO_NFT_INDEX_DATA, type NftChange, type NftIndexData } from './nft-index';
export { InvalidManifest, ManifestCache, manifestIdentity, readManifest, REVOKED_SEQUENCE, signManifest, type KeyPair, type Manifest, type ManifestDisposition } from './trust/manifest';
export { InvalidList, inForceAt, listDocumentOf, listDocumentParts, listSequences, readPublishedList, signPublishedList, type BlobToSign, type ListBlob, type ListedValidator, type ListRefusal, type PublishedList } from './trust/validator-list';
export { ValidatorTrust, type ListDisposition, type ListOutcome, type PublisherState, type PublisherStatus, type ValidatorTrustOptions } from './trust/validator-trust';
export { FLAG_LEDGER_INTERVAL, isFlagLedger, readNegativeUnl } from './trust/negative-unl';
export { DEFAULT_DEVNET_VALIDATORS, devnetNetworkKeys, devnetValidatorsFileText, type DevnetKeyHolder, type DevnetNetworkKeys } from './trust/devnet-keys';
export { IouValue, IouValueError } from './iou';
