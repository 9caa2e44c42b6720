/**
 * rippled's subscriptions: the accounts a subscribe names, and its messages (NetworkOPs pubLedger /
 * pubValidatedTransaction): the fields of the `ledger` stream and one validated transaction, per
 * API version.
 */
import type { ChainProfile } from '@ledger-node/chain';
import { engineResultOf } from './engine-results';
import { invalidField, RpcError } from './errors';
import { answerMeta, closeTimeIso, txJsonV1, txJsonV2, type LedgerPlace, type RenderStyle, type TransactionInput } from './format';
import type { ApiVersion, JsonObject } from './protocol';
import type { FeeSchedule } from './server';

/**
 * The addresses a subscribe or unsubscribe names in `accounts` and `accounts_proposed` (rippled
 * doSubscribe's checks and errors). With `limit`, lists longer than it are refused before any
 * address is decoded: a megabyte of addresses costs a length check, not a megabyte of base58.
 */
export function readStreamAccounts(request: JsonObject, profile: ChainProfile, limit?: { most: number; refusal: () => RpcError }): string[] {
  const lists: { field: string; list: unknown[] }[] = [];
  for (const field of ['accounts', 'accounts_proposed'] as const) {
    const list = request[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalidField(field, 'array');
    lists.push({ field, list });
  }
  if (limit && lists.reduce((sum, { list }) => sum + list.length, 0) > limit.most) throw limit.refusal();
  const accounts: string[] = [];
  for (const { list } of lists) {
    for (const account of list) {
      if (typeof account !== 'string' || !profile.codec.isValidAddress(account)) throw new RpcError('actMalformed');
      accounts.push(account);
    }
  }
  return accounts;
}

/** The fields of the `ledger` stream shared by the subscribe answer and ledgerClosed messages. */
export function ledgerStreamFields(input: {
  place: LedgerPlace;
  fees: FeeSchedule;
  /** Left out when the server states none. */
  networkId: number | undefined;
  /** rippled's `complete_ledgers` text (formatRanges). */
  validatedLedgers: string;
}): JsonObject {
  const { place, fees } = input;
  return {
    fee_base: Number(fees.baseFee),
    fee_ref: Number(fees.baseFee),
    ledger_hash: place.ledgerHash,
    ledger_index: place.ledgerIndex,
    ledger_time: place.closeTime,
    ...(input.networkId === undefined ? {} : { network_id: input.networkId }),
    reserve_base: Number(fees.reserveBase),
    reserve_inc: Number(fees.reserveIncrement),
    validated_ledgers: input.validatedLedgers,
  };
}

/** A validated transaction on the `transactions` stream or an account's stream. */
export function transactionStreamMessage(
  profile: ChainProfile,
  place: LedgerPlace,
  tx: TransactionInput,
  apiVersion: ApiVersion,
  style: RenderStyle = {},
): JsonObject {
  const resultToken = String(tx.metaJson.TransactionResult);
  const date = place.closeTime;
  const common = {
    type: 'transaction',
    ...engineResultOf(profile, resultToken),
    ledger_hash: place.ledgerHash,
    ledger_index: place.ledgerIndex,
    meta: answerMeta(tx),
    status: 'closed',
    validated: true,
  };
  if (apiVersion > 1) {
    return {
      ...common,
      close_time_iso: closeTimeIso(date),
      hash: tx.hash,
      tx_json: { ...txJsonV2(tx), date, ledger_index: place.ledgerIndex },
    };
  }
  return { ...common, transaction: { ...txJsonV1(tx, style), date } };
}
