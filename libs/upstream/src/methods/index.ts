/**
 * The rippled commands this node sends, each with its parameters and the schema of its answer's
 * `result` (one file per command). `ResultOf<'ledger', P>` is the typed result for parameters `P`:
 * `binary: true` selects the binary forms.
 */
import type { z } from 'zod';
import { accountInfoResult, type AccountInfoParams, type AccountInfoResult } from './account-info';
import { accountLinesResult, type AccountLinesParams, type AccountLinesResult } from './account-lines';
import { accountTxResult, type AccountTxParams, type AccountTxResult } from './account-tx';
import { forwardedResult, type ForwardedParams, type ForwardedResult } from './forwarded';
import { ledgerResultSchema, type LedgerParams, type LedgerResult } from './ledger';
import { ledgerClosedResult, type LedgerClosedParams, type LedgerClosedResult } from './ledger-closed';
import { ledgerCurrentResult, type LedgerCurrentParams, type LedgerCurrentResult } from './ledger-current';
import { ledgerDataResultSchema, type LedgerDataParams, type LedgerDataResult } from './ledger-data';
import { ledgerEntryResultSchema, type LedgerEntryParams, type LedgerEntryResult } from './ledger-entry';
import { manifestResult, type ManifestParams, type ManifestResult } from './manifest';
import { serverInfoResult, type ServerInfoParams, type ServerInfoResult } from './server-info';
import { submitResult, type SubmitParams, type SubmitResult } from './submit';
import { subscribeResult, type SubscribeParams, type SubscribeResult } from './subscribe';
import { txResult, type TxParams, type TxResult } from './tx';

export interface CommandParams {
  account_info: AccountInfoParams;
  account_lines: AccountLinesParams;
  account_tx: AccountTxParams;
  ledger: LedgerParams;
  ledger_closed: LedgerClosedParams;
  ledger_current: LedgerCurrentParams;
  ledger_data: LedgerDataParams;
  ledger_entry: LedgerEntryParams;
  manifest: ManifestParams;
  path_find: ForwardedParams;
  ripple_path_find: ForwardedParams;
  server_info: ServerInfoParams;
  simulate: ForwardedParams;
  submit: SubmitParams;
  submit_multisigned: ForwardedParams;
  subscribe: SubscribeParams;
  tx: TxParams;
}

export type Command = keyof CommandParams;
export type ParamsOf<C extends Command> = CommandParams[C];

/** The result of each command for parameters `P`. */
interface CommandResults<P> {
  account_info: AccountInfoResult;
  account_lines: AccountLinesResult;
  account_tx: AccountTxResult;
  ledger: LedgerResult<P>;
  ledger_closed: LedgerClosedResult;
  ledger_current: LedgerCurrentResult;
  ledger_data: LedgerDataResult<P>;
  ledger_entry: LedgerEntryResult<P>;
  manifest: ManifestResult;
  path_find: ForwardedResult;
  ripple_path_find: ForwardedResult;
  server_info: ServerInfoResult;
  simulate: ForwardedResult;
  submit: SubmitResult;
  submit_multisigned: ForwardedResult;
  subscribe: SubscribeResult;
  tx: TxResult;
}

export type ResultOf<C extends Command, P extends ParamsOf<C> = ParamsOf<C>> = CommandResults<P>[C];

/** The schema an answer's `result` must match, by command and parameters. */
const resultSchemas: { [C in Command]: (params: CommandParams[C]) => z.ZodType } = {
  account_info: () => accountInfoResult,
  account_lines: () => accountLinesResult,
  account_tx: () => accountTxResult,
  ledger: ledgerResultSchema,
  ledger_closed: () => ledgerClosedResult,
  ledger_current: () => ledgerCurrentResult,
  ledger_data: ledgerDataResultSchema,
  ledger_entry: ledgerEntryResultSchema,
  manifest: () => manifestResult,
  path_find: () => forwardedResult,
  ripple_path_find: () => forwardedResult,
  server_info: () => serverInfoResult,
  simulate: () => forwardedResult,
  submit: () => submitResult,
  submit_multisigned: () => forwardedResult,
  subscribe: () => subscribeResult,
  tx: () => txResult,
};

export function resultSchemaOf<C extends Command>(command: C, params: ParamsOf<C>): z.ZodType {
  const schemaFor = resultSchemas[command] as (params: ParamsOf<C>) => z.ZodType;
  return schemaFor(params);
}

export type { AccountInfoParams, AccountInfoResult } from './account-info';
export type { AccountLinesParams, AccountLinesResult } from './account-lines';
export type { AccountTxParams, AccountTxResult } from './account-tx';
export type { BinaryLedgerHeaderResult, BinaryLedgerResult, JsonLedgerResult, LedgerParams } from './ledger';
export type { LedgerClosedResult } from './ledger-closed';
export type { LedgerCurrentResult } from './ledger-current';
export type { BinaryLedgerDataResult, JsonLedgerDataResult, LedgerDataParams } from './ledger-data';
export type { BinaryLedgerEntryResult, JsonLedgerEntryResult, LedgerEntryParams } from './ledger-entry';
export type { ForwardedParams, ForwardedResult } from './forwarded';
export type { ManifestParams, ManifestResult } from './manifest';
export type { ServerInfoResult } from './server-info';
export type { SubmitParams, SubmitResult } from './submit';
export type { SubscribeParams, SubscribeResult } from './subscribe';
export type { TxParams, TxResult } from './tx';
export type { LedgerSelector } from './fields';
