/**
 * rippled `gateway_balances` (GatewayBalances.cpp): what an issuing account owes, read from its
 * owner directory at a stored ledger — `obligations` summed per currency, `balances` held by the
 * named `hotwallet`s, `frozen_balances` on lines the account froze, `assets` it holds of others —
 * and `locked`, the amounts of the escrows its directory lists. On Jingtum the lines are
 * SkywellState. Sums are STAmount's (16 significant digits).
 */
import { keylet } from '@ledger-node/chain';
import { lineView, missingField, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { compareDecimal, negateDecimal, sumDecimal } from './decimal';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

type Balances = Map<string, Array<{ currency: string; value: string }>>;

function append(balances: Balances, account: string, currency: string, value: string): void {
  const list = balances.get(account) ?? [];
  list.push({ currency, value });
  balances.set(account, list);
}

function collect(values: Map<string, string[]>, currency: string, value: string): void {
  values.set(currency, [...(values.get(currency) ?? []), value]);
}

/** Values per currency, each summed as STAmount sums them. */
function sums(values: Map<string, string[]>): JsonObject {
  return Object.fromEntries([...values].map(([currency, amounts]) => [currency, sumDecimal(amounts)]));
}

export const gatewayBalances: RippledMethod = async ({ params, apiVersion }, context) => {
  const { profile } = context;
  // rippled reads the ledger first, then the account (`account`, or `ident`).
  const resolved = await resolveLedger(params, context);
  const fields = ledgerFields(resolved.place);
  if (params.account === undefined && params.ident === undefined) throw missingField('account');
  const account = params.account !== undefined ? params.account : params.ident;
  if (typeof account !== 'string' || !profile.codec.isValidAddress(account)) throw new RpcError('actMalformed');
  const accountId = profile.codec.decodeAccountId(account);
  const state = new StateView(context, resolved.header.ledgerIndex);
  // rippled: API v1 answers for an account not there as for one that owns nothing.
  if (apiVersion > 1 && !(await state.readOne(keylet.account(accountId)))) throw new RpcError('actNotFound', undefined, { ...fields, account });

  const hotWallets = new Set<string>();
  if (params.hotwallet !== undefined) {
    // rippled: a string or an array of strings, null an empty array; each a valid address.
    const named = params.hotwallet === null ? [] : Array.isArray(params.hotwallet) ? params.hotwallet : [params.hotwallet];
    const valid = (Array.isArray(params.hotwallet) || params.hotwallet === null || typeof params.hotwallet === 'string') && named.every((wallet) => typeof wallet === 'string' && profile.codec.isValidAddress(wallet));
    if (!valid) throw new RpcError(apiVersion > 1 ? 'invalidParams' : 'invalidHotWallet', undefined, { ...fields, account });
    for (const wallet of named as string[]) hotWallets.add(wallet);
  }

  const obligations = new Map<string, string[]>();
  const locked = new Map<string, string[]>();
  // rippled sums native amounts exactly, in drops.
  let lockedDrops: bigint | undefined;
  const hotBalances: Balances = new Map();
  const frozenBalances: Balances = new Map();
  const assets: Balances = new Map();
  for await (const { indexes } of state.directoryPages(keylet.ownerDir(accountId))) {
    for (const entry of await state.read(indexes)) {
      if (!entry) continue;
      const json = state.rendered(entry);
      if (json.LedgerEntryType === 'Escrow') {
        const amount = json.Amount as string | JsonObject;
        if (typeof amount === 'string') lockedDrops = (lockedDrops ?? 0n) + BigInt(amount);
        // An MPT escrow names no currency; rippled's sums are by currency code.
        else if (amount.mpt_issuance_id === undefined) collect(locked, String(amount.currency), String(amount.value));
        continue;
      }
      if (json.LedgerEntryType !== profile.trustLineEntryType) continue;
      const line = lineView(json, account, profile.noRippleWireName);
      if (!line) continue;
      const [peer, currency, balance] = [String(line.account), String(line.currency), String(line.balance)];
      // The balance is the account's: below zero it owes (the usual case), above zero it holds.
      const sign = compareDecimal(balance, '0');
      if (sign === 0) continue;
      if (hotWallets.has(peer)) append(hotBalances, peer, currency, negateDecimal(balance));
      else if (sign > 0) append(assets, peer, currency, balance);
      else if (line.freeze === true) append(frozenBalances, peer, currency, negateDecimal(balance));
      else collect(obligations, currency, negateDecimal(balance));
    }
  }

  const result: JsonObject = { ...fields, account };
  if (obligations.size > 0) result.obligations = sums(obligations);
  if (hotBalances.size > 0) result.balances = Object.fromEntries(hotBalances);
  if (frozenBalances.size > 0) result.frozen_balances = Object.fromEntries(frozenBalances);
  if (assets.size > 0) result.assets = Object.fromEntries(assets);
  if (locked.size > 0 || lockedDrops !== undefined) result.locked = { ...(lockedDrops === undefined ? {} : { [profile.nativeCurrency]: lockedDrops.toString() }), ...sums(locked) };
  return result;
};
