export { createDevnetChain, effectiveCloseTime, type DevnetChainOptions } from './chain';
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
