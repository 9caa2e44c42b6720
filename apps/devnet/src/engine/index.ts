export { createDevnetChain, effectiveCloseTime, type DevnetChainOptions } from './chain';
export { restoreSnapshot, type ChainSnapshot } from './snapshot';
export type {
  ClosedLedger,
  ClosedTransaction,
  DevnetChain,
  FeeSettings,
  JsonObject,
  StateEntry,
  SubmitResult,
  TrustLineView,
} from './types';
