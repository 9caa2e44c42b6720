export { accountDataJson, accountFlagAmendments, accountFlags, type AccountFlagAmendment } from './account';
export { engineResultOf, type EngineResult } from './engine-results';
export { BareRpcError, errorFields, invalidField, missingField, RpcError, rpcErrors, type RpcErrorToken } from './errors';
export { feeResult, type FeeInput } from './fee';
export {
  accountTxEntry,
  answerMeta,
  closeTimeIso,
  ctidOf,
  deliveredAmountOf,
  ledgerHeaderHex,
  inTreeOrder,
  ledgerHeaderJson,
  ledgerTransactionJson,
  placeOf,
  txJsonV1,
  txJsonV2,
  txResult,
  type HeaderWithHash,
  type LedgerPlace,
  type RenderStyle,
  type TransactionInput,
} from './format';
export { affectedNodes, type AffectedNode } from './affected-nodes';
export { mptIssuanceIdOf, nftSyntheticFields } from './synthetic';
export { entryTypeOfFilter, issuedCurrencyBytes, ownableEntryType, readEntrySelection, type EntrySelection } from './ledger-entry';
export {
  accountTxRange,
  checkSimulateRequest,
  isHash256,
  KEY_FIELDS,
  readAccount,
  readAccountTxMarker,
  readBoolean,
  readLedgerBound,
  readLedgerSpec,
  readLimit,
  refuseKeyFields,
  type AccountTxMarker,
  type AddressCheck,
  type LedgerSpec,
  type LedgerSpecDefault,
  type LimitRange,
} from './params';
export {
  envelopeErrors,
  isJsonObject,
  JSON_NEST_LIMIT,
  MAX_ECHOED_CHARS,
  nestedTooDeep,
  parseWsRequest,
  readApiVersion,
  readCommand,
  wsError,
  wsSuccess,
  type ApiVersion,
  type JsonObject,
} from './protocol';
export {
  formatRanges,
  ledgerAgeSeconds,
  nativeUnits,
  serverInfoValidatedLedger,
  serverStateValidatedLedger,
  serverTime,
  validatorListFields,
  type FeeSchedule,
  type LedgerRange,
  type TrustFacts,
  type ValidatedLedgerInput,
} from './server';
export { ledgerStreamFields, readStreamAccounts, transactionStreamMessage } from './streams';
export { submitResult, type SubmitInput } from './submit';
export { directoryIndexes, lineView, negateValue, nextDirectoryPage, rippleStateFlags, trustLineSides } from './trust-lines';
export { pageLimits } from './tuning';
export { amountText, directoryQuality, readBookSide, type BookSide } from './book';
export { affectedAccounts } from './affected-accounts';
export { entryInRippledNotation, inRippledNotation, issuedValueText, notationOf, rippledNotation, type NotationRules } from './notation';
export { channelClaimMessage, channelVerify } from './channel-verify';
export { compactSortedJson, definitionsOfTable, serverDefinitions } from './server-definitions';
export { amendmentId, amendmentsStateOf, featureAnswer, type AmendmentsState } from './feature';
export { bookChanges, type BookChangesLedger, type BookChangesTransaction } from './book-changes';
