/**
 * What a transaction rule sees: the decoded transaction, the chain's settings and a sandbox over
 * the open ledger (rippled's PreflightContext / PreclaimContext / ApplyContext in one).
 */
import type { ChainProfile } from '@ledger-node/chain';
import type { FeeSettings, JsonObject } from '../types';
import type { LedgerKeys } from '../keys';
import type { ResultToken } from '../results';
import type { LedgerEntry, Sandbox } from '../state';
import type { LedgerScope } from '../trustLines';

export interface ChainSettings {
  profile: ChainProfile;
  keys: LedgerKeys;
  fees: FeeSettings;
  trustLineType: string;
  /** rippled `noAccount()` (AccountID 1) in the chain's alphabet: the issuer of a line's Balance. */
  noAccount: string;
  /** AccountID 0 in the chain's alphabet (rippled `xrpAccount()`). */
  zeroAccount: string;
}

export interface RuleContext {
  settings: ChainSettings;
  tx: JsonObject;
  txHash: string;
  /** The sending account. */
  account: string;
  /** Index of the open ledger the transaction applies to. */
  ledgerIndex: number;
  /** Close time of the open ledger's parent, seconds since the ripple epoch (rippled `hasExpired` compares with it). */
  parentCloseTime: number;
  sandbox: Sandbox;
  scope: LedgerScope;
  /** The sender's native balance before the fee (rippled `mPriorBalance`). */
  priorBalance: bigint;
  /** The sender's native balance after the fee (rippled `mSourceBalance`). */
  sourceBalance: bigint;
  /** Set by a payment that delivered less than its Amount (metadata DeliveredAmount). */
  deliveredAmount?: unknown;
}

export interface TransactionRule {
  /** Transaction flags this type accepts besides the universal ones. */
  readonly allowedFlags: number;
  /** Checks that need only the transaction itself (tem, tel). */
  preflight(tx: JsonObject, settings: ChainSettings): ResultToken;
  /** Checks against the ledger before anything is charged (ter, tef, tec). */
  preclaim(context: RuleContext): ResultToken;
  /** Changes the ledger; the fee is already charged and the sequence consumed. */
  apply(context: RuleContext): ResultToken;
}

/** rippled `Fees::accountReserve`: base reserve plus one increment per owned object. */
export function accountReserve(fees: FeeSettings, ownerCount: number): bigint {
  return fees.reserveBase + BigInt(ownerCount) * fees.reserveIncrement;
}

export function nativeBalance(account: Readonly<LedgerEntry>): bigint {
  return BigInt(account.Balance as string);
}

export function u32Field(tx: JsonObject, field: string): number | undefined {
  const value = tx[field];
  return typeof value === 'number' ? value : undefined;
}
