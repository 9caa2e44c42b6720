export { backoffDelayMs, sleep, WakeablePause } from './backoff';
export { UpstreamClient, plainEndpoints, type UpstreamClientOptions } from './client';
export { MAX_MESSAGE_BYTES, UpstreamConnection, type AnswerTiming, type ConnectionEvents, type ConnectionOptions, type RequestOptions } from './connection';
export { MalformedUpstreamMessage, UpstreamRequestError } from './errors';
export { firstAnswering, type FailoverOptions } from './failover';
export { ledgerClosedMessage, validationReceivedMessage, type LedgerClosedMessage, type StreamMessage, type ValidationReceivedMessage } from './messages';
export { FORWARDED_COMMANDS, type ForwardedCommand } from './methods/forwarded';
export type {
  AccountInfoParams,
  AccountInfoResult,
  AccountLinesParams,
  AccountLinesResult,
  AccountTxParams,
  AccountTxResult,
  BinaryLedgerDataResult,
  BinaryLedgerEntryResult,
  BinaryLedgerHeaderResult,
  BinaryLedgerResult,
  Command,
  CommandParams,
  ForwardedParams,
  ForwardedResult,
  JsonLedgerDataResult,
  JsonLedgerEntryResult,
  JsonLedgerResult,
  LedgerClosedResult,
  LedgerCurrentResult,
  LedgerDataParams,
  LedgerEntryParams,
  LedgerParams,
  LedgerSelector,
  ManifestParams,
  ManifestResult,
  ParamsOf,
  ResultOf,
  ServerInfoResult,
  SubmitParams,
  SubmitResult,
  SubscribeParams,
  SubscribeResult,
  TxParams,
  TxResult,
} from './methods';
