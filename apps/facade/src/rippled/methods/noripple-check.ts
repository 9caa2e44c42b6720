/**
 * rippled `noripple_check` (NoRippleCheck.cpp): what an account's settings should change for its
 * `role` — a gateway ripples by default and on every line, a user on none — as `problems`, and with
 * `transactions: true` the AccountSet and TrustSet transactions that would fix them, numbered from
 * the account's Sequence with the ledger's base fee. The account's trust lines are read from its
 * owner directory in order; `limit` (10 to 400, 300 by default) counts the lines reported. On
 * Jingtum the lines are SkywellState, and the flags are the same bits.
 */
import { keylet } from '@ledger-node/chain';
import { invalidField, missingField, pageLimits, readLimit, RpcError, rippleStateFlags, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { feesAt } from './fees';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

/** lsfDefaultRipple of AccountRoot; asfDefaultRipple of AccountSet. */
const LSF_DEFAULT_RIPPLE = 0x00800000;
const ASF_DEFAULT_RIPPLE = 8;
/** TrustSet flags (rippled TxFlags.h). */
const TF_SET_NO_RIPPLE = 0x00020000;
const TF_CLEAR_NO_RIPPLE = 0x00040000;

/** Json::Value::asBool, which rippled's API v1 applies to `transactions`. */
function loosely(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

export const noRippleCheck: RippledMethod = async ({ params, apiVersion }, context) => {
  const { profile } = context;
  if (params.account === undefined) throw missingField('account');
  if (params.role === undefined) throw missingField('role');
  if (typeof params.account !== 'string') throw invalidField('account');
  if (params.role !== 'gateway' && params.role !== 'user') throw invalidField('role');
  const roleGateway = params.role === 'gateway';
  const limit = readLimit(params, pageLimits.noRippleCheck);
  // rippled: API v2 takes only a boolean; v1 reads any value as Json's asBool does.
  if (apiVersion > 1 && params.transactions !== undefined && typeof params.transactions !== 'boolean') throw invalidField('transactions');
  const withTransactions = params.transactions !== undefined && loosely(params.transactions);

  const resolved = await resolveLedger(params, context);
  const fields = ledgerFields(resolved.place);
  const account = params.account;
  if (!profile.codec.isValidAddress(account)) throw new RpcError('actMalformed', undefined, fields);
  const accountId = profile.codec.decodeAccountId(account);
  const state = new StateView(context, resolved.header.ledgerIndex);
  const root = await state.readOne(keylet.account(accountId));
  if (!root) throw new RpcError('actNotFound');

  const fee = Number((await feesAt(state, profile)).baseFee);
  let sequence = Number(root.json.Sequence);
  const transactions: JsonObject[] = [];
  const propose = (tx: JsonObject) => transactions.push({ ...tx, Sequence: sequence++, Account: account, Fee: fee });
  const problems: string[] = [];

  const defaultRipple = ((Number(root.json.Flags) >>> 0) & LSF_DEFAULT_RIPPLE) !== 0;
  if (defaultRipple && !roleGateway) {
    problems.push('You appear to have set your default ripple flag even though you are not a gateway. This is not recommended unless you are experimenting');
  } else if (roleGateway && !defaultRipple) {
    problems.push('You should immediately set your default ripple flag');
    propose({ TransactionType: 'AccountSet', SetFlag: ASF_DEFAULT_RIPPLE });
  }

  // rippled forEachItemAfter: the limit counts the lines reported, not the entries read.
  let reported = 0;
  walk: for await (const { indexes } of state.directoryPages(keylet.ownerDir(accountId))) {
    for (const entry of await state.read(indexes)) {
      if (!entry || entry.json.LedgerEntryType !== profile.trustLineEntryType) continue;
      const line = state.rendered(entry) as Record<string, any>;
      const accountIsLow = line.LowLimit.issuer === account;
      const noRipple = ((Number(line.Flags) >>> 0) & (accountIsLow ? rippleStateFlags.lsfLowNoRipple : rippleStateFlags.lsfHighNoRipple)) !== 0;
      let problem: string;
      if (noRipple && roleGateway) problem = 'You should clear the no ripple flag on your ';
      else if (!roleGateway && !noRipple) problem = 'You should probably set the no ripple flag on your ';
      else continue;
      const [own, peer] = accountIsLow ? [line.LowLimit, line.HighLimit] : [line.HighLimit, line.LowLimit];
      problems.push(`${problem}${peer.currency} line to ${peer.issuer}`);
      propose({
        TransactionType: 'TrustSet',
        LimitAmount: { currency: own.currency, issuer: peer.issuer, value: own.value },
        Flags: noRipple ? TF_CLEAR_NO_RIPPLE : TF_SET_NO_RIPPLE,
      });
      if (++reported === limit) break walk;
    }
  }
  return { ...fields, ...(withTransactions ? { transactions } : {}), problems };
};
