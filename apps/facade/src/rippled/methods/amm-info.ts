/**
 * rippled `amm_info` (AMMInfo.cpp): an AMM at a stored ledger, named by its two assets (`asset`,
 * `asset2`) or by its account (`amm_account`), with its pool as the AMM account holds it (the
 * native balance of its root, each issued balance from its trust line, freezes ignored),
 * `lp_token` (the LP tokens outstanding, or those `account` holds), the votes, and the auction slot
 * with its interval at the ledger's parent close time. Refusals come beside the ledger's fields.
 */
import { currencyFromBytes, keylet, RIPPLE_EPOCH_OFFSET, type ChainProfile } from '@ledger-node/chain';
import { isJsonObject, issuedCurrencyBytes, rippleStateFlags, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { negateDecimal } from './decimal';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

/** An asset: 20 bytes of currency and of issuer, both zero for the native asset. */
interface Issue {
  readonly currency: Uint8Array;
  readonly issuer: Uint8Array;
}

const ZERO_20 = new Uint8Array(20);
const isNative = (issue: Issue) => issue.currency.every((byte) => byte === 0);
/** lsfGlobalFreeze of AccountRoot. */
const LSF_GLOBAL_FREEZE = 0x00400000;
/** rippled AMMCore.h: the auction slot lasts a day, in 20 intervals. */
const TOTAL_TIME_SLOT_SECS = 24 * 3600;
const AUCTION_SLOT_TIME_INTERVALS = 20;
const AUCTION_SLOT_INTERVAL_DURATION = TOTAL_TIME_SLOT_SECS / AUCTION_SLOT_TIME_INTERVALS;

/** rippled issueFromJson: an object with a currency and, unless native, a valid issuer; anything else issueMalformed. */
function readIssue(value: unknown, profile: ChainProfile, fields: JsonObject): Issue {
  const malformed = () => new RpcError('issueMalformed', undefined, fields);
  if (!isJsonObject(value) || value.mpt_issuance_id !== undefined || typeof value.currency !== 'string') throw malformed();
  const code = value.currency;
  if (code === '' || code === profile.nativeCurrency || /^0{40}$/.test(code)) {
    if (value.issuer !== undefined && value.issuer !== null) throw malformed();
    return { currency: ZERO_20, issuer: ZERO_20 };
  }
  let currency: Uint8Array;
  try {
    currency = issuedCurrencyBytes(code, profile);
  } catch {
    // The chain's currency parser refuses what rippled's to_currency does: issueMalformed.
    throw malformed();
  }
  if (typeof value.issuer !== 'string' || !profile.codec.isValidAddress(value.issuer)) throw malformed();
  return { currency, issuer: profile.codec.decodeAccountId(value.issuer) };
}

/** The ISO 8601 time rippled's to_iso8601 prints: "2000-01-02T00:00:40+0000". */
function isoOf(rippleTime: number): string {
  return new Date((rippleTime + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** rippled ammAuctionTimeSlot: the slot's interval at `now`, or undefined outside its day. */
function auctionTimeSlot(now: number, expiration: number): number | undefined {
  if (expiration < TOTAL_TIME_SLOT_SECS) return undefined;
  const start = expiration - TOTAL_TIME_SLOT_SECS;
  if (now < start || now - start >= TOTAL_TIME_SLOT_SECS) return undefined;
  return Math.floor((now - start) / AUCTION_SLOT_INTERVAL_DURATION);
}

export const ammInfo: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const { codec } = profile;
  const resolved = await resolveLedger(params, context);
  const fields = ledgerFields(resolved.place);
  const refuse = (token: 'invalidParams' | 'actMalformed' | 'actNotFound') => new RpcError(token, undefined, fields);
  const state = new StateView(context, resolved.header.ledgerIndex);
  const has = (field: string) => params[field] !== undefined;
  // rippled: either both assets, or the AMM's account, never both.
  if (has('asset') !== has('asset2') || has('asset') === has('amm_account')) throw refuse('invalidParams');
  let issues = has('asset') ? [readIssue(params.asset, profile, fields), readIssue(params.asset2, profile, fields)] : undefined;

  const readRoot = async (address: unknown) => {
    if (typeof address !== 'string' || !codec.isValidAddress(address)) return undefined;
    return state.readOne(keylet.account(codec.decodeAccountId(address)));
  };
  let ammKey: string;
  if (issues) {
    ammKey = keylet.amm(issues[0]!, issues[1]!);
  } else {
    const root = await readRoot(params.amm_account);
    if (!root) throw refuse('actMalformed');
    if (typeof root.json.AMMID !== 'string' || /^0+$/.test(root.json.AMMID)) throw refuse('actNotFound');
    ammKey = root.json.AMMID.toUpperCase();
  }
  let holder: Uint8Array | undefined;
  if (has('account')) {
    if (!(await readRoot(params.account))) throw refuse('actMalformed');
    holder = codec.decodeAccountId(params.account as string);
  }
  const ammEntry = await state.readOne(ammKey);
  if (!ammEntry || ammEntry.json.LedgerEntryType !== 'AMM') throw refuse('actNotFound');
  const amm = state.rendered(ammEntry) as Record<string, any>;
  const ammAccount = String(amm.Account);
  const ammAccountId = codec.decodeAccountId(ammAccount);
  const issueOf = (asset: Record<string, any> | undefined): Issue => {
    // A pool of MPTs holds its assets in MPToken objects, which this method does not read.
    if (asset?.mpt_issuance_id !== undefined) throw new RpcError('notSupported', 'An AMM of MPT assets is not read by this server yet.', fields);
    return asset === undefined || asset.issuer === undefined ? { currency: ZERO_20, issuer: ZERO_20 } : { currency: issuedCurrencyBytes(asset.currency, profile), issuer: codec.decodeAccountId(asset.issuer) };
  };
  issues ??= [issueOf(amm.Asset), issueOf(amm.Asset2)];

  /** rippled accountHolds: the balance of `account` in an issued currency, from its trust line with the issuer. */
  const lineBalance = async (account: Uint8Array, issue: Issue, zeroIfFrozen: boolean): Promise<JsonObject> => {
    const amount = (value: string) => ({ currency: currencyFromBytes(issue.currency, profile.nativeCurrency), issuer: codec.encodeAccountId(issue.issuer), value });
    const line = await state.readOne(keylet.rippleState(account, issue.issuer, issue.currency));
    if (!line || (zeroIfFrozen && (await isFrozen(account, issue)))) return amount('0');
    const balance = String((state.rendered(line).Balance as JsonObject).value);
    // The balance is kept from the low account's side.
    return amount(Buffer.compare(Buffer.from(account), Buffer.from(issue.issuer)) > 0 ? negateDecimal(balance).replace(/^-0$/, '0') : balance);
  };
  /** rippled isFrozen: the issuer froze everything, or this line on its side. */
  const isFrozen = async (account: Uint8Array, issue: Issue): Promise<boolean> => {
    if (isNative(issue)) return false;
    const issuerRoot = await state.readOne(keylet.account(issue.issuer));
    if (issuerRoot && ((Number(issuerRoot.json.Flags) >>> 0) & LSF_GLOBAL_FREEZE) !== 0) return true;
    if (Buffer.compare(Buffer.from(account), Buffer.from(issue.issuer)) === 0) return false;
    const line = await state.readOne(keylet.rippleState(account, issue.issuer, issue.currency));
    const issuerIsHigh = Buffer.compare(Buffer.from(issue.issuer), Buffer.from(account)) > 0;
    return line !== undefined && ((Number(line.json.Flags) >>> 0) & (issuerIsHigh ? rippleStateFlags.lsfHighFreeze : rippleStateFlags.lsfLowFreeze)) !== 0;
  };
  const poolHolds = async (issue: Issue): Promise<JsonObject | string> => {
    // rippled xrpLiquid: an AMM account keeps no reserve, so its whole balance is the pool's.
    if (isNative(issue)) return String((await state.readOne(keylet.account(ammAccountId)))?.json.Balance ?? '0');
    return lineBalance(ammAccountId, issue, false);
  };

  const lpToken = amm.LPTokenBalance as JsonObject;
  const lpIssue: Issue = { currency: issuedCurrencyBytes(String(lpToken.currency), profile), issuer: ammAccountId };
  const result: JsonObject = {
    amount: await poolHolds(issues[0]!),
    amount2: await poolHolds(issues[1]!),
    lp_token: holder === undefined ? lpToken : await lineBalance(holder, lpIssue, true),
    trading_fee: amm.TradingFee ?? 0,
    account: ammAccount,
  };
  const votes = Array.isArray(amm.VoteSlots) ? (amm.VoteSlots as Array<{ VoteEntry: Record<string, any> }>) : [];
  if (votes.length > 0) result.vote_slots = votes.map(({ VoteEntry: vote }) => ({ account: vote.Account, trading_fee: vote.TradingFee ?? 0, vote_weight: vote.VoteWeight ?? 0 }));
  const slot = amm.AuctionSlot as Record<string, any> | undefined;
  if (slot?.Account !== undefined) {
    const expiration = Number(slot.Expiration ?? 0);
    result.auction_slot = {
      time_interval: auctionTimeSlot(resolved.header.parentCloseTime, expiration) ?? AUCTION_SLOT_TIME_INTERVALS,
      price: slot.Price,
      discounted_fee: slot.DiscountedFee ?? 0,
      account: slot.Account,
      expiration: isoOf(expiration),
      ...(Array.isArray(slot.AuthAccounts) ? { auth_accounts: (slot.AuthAccounts as Array<{ AuthAccount: JsonObject }>).map(({ AuthAccount }) => ({ account: AuthAccount.Account })) } : {}),
    };
  }
  if (!isNative(issues[0]!)) result.asset_frozen = await isFrozen(ammAccountId, issues[0]!);
  if (!isNative(issues[1]!)) result.asset2_frozen = await isFrozen(ammAccountId, issues[1]!);
  return { ...fields, amm: result };
};
