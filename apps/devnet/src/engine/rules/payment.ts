/**
 * Payment, after rippled Payment.cpp. Native payments move drops directly (creating the
 * destination when it is missing and the amount covers the base reserve). Issued payments follow
 * the default path of rippled's flow engine: source → issuer(s) → destination over trust lines,
 * where each hop can carry what the payer holds plus what the payee still trusts, an intermediate
 * account ripples only when NoRipple is not set on both of its lines, frozen lines and issuers
 * that require authorization stop a hop, and an issuer rippling its own currency between holders
 * charges its TransferRate. Explicit Paths, order books and line qualities are not evaluated.
 */
import { amountToJson, isLegalAmount, isNativeCurrencyCode, isPositive, parseAmount, type Amount, type IssuedAmount } from '../amounts';
import { IouValue, QUALITY_ONE, rateValue } from '../iou';
import { AccountRootFlag, MAX_PATHS, MAX_PATH_LENGTH, PaymentFlag, TrustLineFlag } from '../protocol';
import type { ResultToken } from '../results';
import { flagsOf, lineSide, rippleCredit } from '../trustLines';
import { accountReserve, nativeBalance, type ChainSettings, type RuleContext, type TransactionRule } from './context';
import type { JsonObject } from '../types';

interface PaymentFields {
  amount: Amount;
  sendMax?: Amount;
  deliverMin?: Amount;
  destination: string;
  partial: boolean;
  limitQuality: boolean;
  defaultPathsAllowed: boolean;
  hasPaths: boolean;
}

function readFields(tx: JsonObject): PaymentFields | undefined {
  const amount = parseAmount(tx.Amount);
  if (amount === undefined) return undefined;
  const sendMax = tx.SendMax === undefined ? undefined : parseAmount(tx.SendMax);
  const deliverMin = tx.DeliverMin === undefined ? undefined : parseAmount(tx.DeliverMin);
  if ((tx.SendMax !== undefined && sendMax === undefined) || (tx.DeliverMin !== undefined && deliverMin === undefined)) return undefined;
  const flags = Number(tx.Flags ?? 0);
  return {
    amount,
    sendMax,
    deliverMin,
    destination: tx.Destination as string,
    partial: (flags & PaymentFlag.partialPayment) !== 0,
    limitQuality: (flags & PaymentFlag.limitQuality) !== 0,
    defaultPathsAllowed: (flags & PaymentFlag.noRippleDirect) === 0,
    hasPaths: Array.isArray(tx.Paths),
  };
}

/** rippled `getMaxSourceAmount`: SendMax, or Amount in the sender's own issue. */
function maxSourceAmount(fields: PaymentFields, account: string): Amount {
  if (fields.sendMax !== undefined) return fields.sendMax;
  if (fields.amount.native) return fields.amount;
  return { ...fields.amount, issuer: account };
}

function sameAsset(left: Amount, right: Amount): boolean {
  if (left.native || right.native) return left.native === right.native;
  return left.currency === right.currency && left.issuer === right.issuer;
}

function compareAmounts(left: Amount, right: Amount): number {
  if (left.native && right.native) return left.drops < right.drops ? -1 : left.drops > right.drops ? 1 : 0;
  if (!left.native && !right.native) return left.value.compare(right.value);
  return 0;
}

function isBadCurrency(amount: Amount, nativeCurrency: string): boolean {
  return !amount.native && isNativeCurrencyCode(amount.currency, nativeCurrency);
}

export const paymentRule: TransactionRule = {
  allowedFlags: PaymentFlag.noRippleDirect | PaymentFlag.partialPayment | PaymentFlag.limitQuality,

  preflight(tx: JsonObject, settings: ChainSettings): ResultToken {
    const { keys, profile } = settings;
    const fields = readFields(tx);
    if (fields === undefined) return 'temBAD_AMOUNT';
    if (!keys.isValidAddress(tx.Destination) || tx.Destination === settings.zeroAccount) return 'temDST_NEEDED';
    const account = tx.Account as string;
    const maxSource = maxSourceAmount(fields, account);
    if (!isLegalAmount(fields.amount) || !isLegalAmount(maxSource)) return 'temBAD_AMOUNT';
    if (fields.sendMax !== undefined && !isPositive(maxSource)) return 'temBAD_AMOUNT';
    if (!isPositive(fields.amount)) return 'temBAD_AMOUNT';
    if (isBadCurrency(fields.amount, profile.nativeCurrency) || isBadCurrency(maxSource, profile.nativeCurrency)) {
      // An issued amount in the native currency code ("native with an issuer") is a bad amount.
      return 'temBAD_AMOUNT';
    }
    const nativeDirect = fields.amount.native && maxSource.native;
    const sameToken = fields.amount.native ? maxSource.native : !maxSource.native && maxSource.currency === fields.amount.currency;
    if (account === fields.destination && sameToken && !fields.hasPaths) return 'temREDUNDANT';
    if (nativeDirect && fields.sendMax !== undefined) return 'temBAD_SEND_%N_MAX';
    if (nativeDirect && fields.hasPaths) return 'temBAD_SEND_%N_PATHS';
    if (nativeDirect && fields.partial) return 'temBAD_SEND_%N_PARTIAL';
    if (nativeDirect && fields.limitQuality) return 'temBAD_SEND_%N_LIMIT';
    if (nativeDirect && !fields.defaultPathsAllowed) return 'temBAD_SEND_%N_NO_DIRECT';
    if (fields.deliverMin !== undefined) {
      if (!fields.partial) return 'temBAD_AMOUNT';
      if (!isLegalAmount(fields.deliverMin) || !isPositive(fields.deliverMin)) return 'temBAD_AMOUNT';
      if (!sameAsset(fields.deliverMin, fields.amount)) return 'temBAD_AMOUNT';
      if (compareAmounts(fields.deliverMin, fields.amount) > 0) return 'temBAD_AMOUNT';
    }
    return 'tesSUCCESS';
  },

  preclaim(context: RuleContext): ResultToken {
    const { tx, sandbox, settings } = context;
    const fields = readFields(tx)!;
    const destination = sandbox.read(settings.keys.account(fields.destination));
    if (destination === undefined) {
      // Another transaction could create the account; rippled claims the fee rather than retrying.
      if (!fields.amount.native) return 'tecNO_DST';
      if (fields.partial) return 'telNO_DST_PARTIAL';
      if (fields.amount.drops < accountReserve(settings.fees, 0)) return 'tecNO_DST_INSUF_%N';
    } else if ((flagsOf(destination) & AccountRootFlag.requireDestTag) !== 0 && tx.DestinationTag === undefined) {
      return 'tecDST_TAG_NEEDED';
    }
    if (fields.hasPaths || fields.sendMax !== undefined || !fields.amount.native) {
      const paths = (tx.Paths ?? []) as unknown[][];
      if (paths.length > MAX_PATHS || paths.some((path) => path.length > MAX_PATH_LENGTH)) return 'telBAD_PATH_COUNT';
    }
    return 'tesSUCCESS';
  },

  apply(context: RuleContext): ResultToken {
    const { tx, sandbox, settings, account } = context;
    const fields = readFields(tx)!;
    const destinationIndex = settings.keys.account(fields.destination);
    let destination = sandbox.peek(destinationIndex);
    if (destination === undefined) {
      // DeletableAccounts: a new account starts at the sequence of the ledger that creates it.
      destination = {
        LedgerEntryType: 'AccountRoot',
        Flags: 0,
        Account: fields.destination,
        Balance: '0',
        OwnerCount: 0,
        Sequence: context.ledgerIndex,
        PreviousTxnID: '0'.repeat(64),
        PreviousTxnLgrSeq: 0,
      };
      sandbox.insert(destinationIndex, destination);
    } else {
      sandbox.update(destinationIndex, destination);
    }
    const requiresDepositAuth = (flagsOf(destination) & AccountRootFlag.depositAuth) !== 0;
    const ripple = fields.hasPaths || fields.sendMax !== undefined || !fields.amount.native;

    if (ripple) {
      // DepositPreauth entries are not supported, so only self-payments pass DepositAuth.
      if (requiresDepositAuth && account !== fields.destination) return 'tecNO_PERMISSION';
      return applyIssuedPayment(context, fields);
    }

    const amountDrops = (fields.amount as { drops: bigint }).drops;
    const sourceIndex = settings.keys.account(account);
    const source = sandbox.peek(sourceIndex)!;
    const reserve = accountReserve(settings.fees, Number(source.OwnerCount ?? 0));
    const fee = BigInt(tx.Fee as string);
    // rippled: the final spend may dip into the reserve to pay the fee.
    const mustKeep = reserve > fee ? reserve : fee;
    if (context.priorBalance < amountDrops + mustKeep) return 'tecUNFUNDED_PAYMENT';
    if (requiresDepositAuth && account !== fields.destination) {
      const baseReserve = accountReserve(settings.fees, 0);
      if (amountDrops > baseReserve || nativeBalance(destination) > baseReserve) return 'tecNO_PERMISSION';
    }
    source.Balance = (context.sourceBalance - amountDrops).toString();
    sandbox.update(sourceIndex, source);
    destination.Balance = (nativeBalance(destination) + amountDrops).toString();
    if ((flagsOf(destination) & AccountRootFlag.passwordSpent) !== 0) {
      destination.Flags = (flagsOf(destination) & ~AccountRootFlag.passwordSpent) >>> 0;
    }
    return 'tesSUCCESS';
  },
};

interface Hop {
  from: string;
  to: string;
  lineIndex: string;
  /** Most this hop can carry: what `from` holds of `to`'s currency plus what `to` still trusts. */
  capacity: IouValue;
  /** `from` pays with `to`'s IOUs it holds (rather than issuing its own). */
  redeems: boolean;
}

/**
 * The default path of rippled's flow engine for one currency: source, SendMax issuer, Amount
 * issuer, destination (each once). Cross-currency payments need order books, which this ledger
 * does not have: they find no liquidity, as rippled does on an empty book.
 */
function applyIssuedPayment(context: RuleContext, fields: PaymentFields): ResultToken {
  const { sandbox, settings, account } = context;
  const { keys } = settings;
  const deliver = fields.amount;
  const maxSource = maxSourceAmount(fields, account);
  if (deliver.native || maxSource.native || maxSource.currency !== deliver.currency) return 'tecPATH_DRY';
  if (!fields.defaultPathsAllowed) return 'tecPATH_DRY';

  // rippled `normalizePath`: source, SendMax issuer, Amount issuer (unless it is the destination), destination.
  const path = [account];
  if (maxSource.issuer !== account) path.push(maxSource.issuer);
  if (path[path.length - 1] !== deliver.issuer && fields.destination !== deliver.issuer) path.push(deliver.issuer);
  if (path[path.length - 1] !== fields.destination) path.push(fields.destination);
  if (new Set(path).size !== path.length) return 'tecPATH_DRY';

  const hops: Hop[] = [];
  for (let position = 0; position + 1 < path.length; position++) {
    const from = path[position]!;
    const to = path[position + 1]!;
    if (!keys.isValidAddress(to) || sandbox.read(keys.account(to)) === undefined) return 'tecPATH_DRY';
    const lineIndex = keys.trustLine(from, to, deliver.currency);
    const line = sandbox.read(lineIndex);
    if (line === undefined) return 'tecPATH_DRY';
    const fromSide = lineSide(line, from);
    const fromRoot = sandbox.read(keys.account(from))!;
    const toRoot = sandbox.read(keys.account(to))!;
    // rippled DirectStepI::check: an issuer requiring authorization issues only over authorized lines.
    const fromAuthorized = (flagsOf(line) & (fromSide.isHigh ? TrustLineFlag.highAuth : TrustLineFlag.lowAuth)) !== 0;
    if ((flagsOf(fromRoot) & AccountRootFlag.requireAuth) !== 0 && !fromAuthorized && fromSide.balance.isZero()) return 'tecPATH_DRY';
    // rippled `checkFreeze` (not for a single issue or redeem): the receiving side's global or line freeze stops the hop.
    if (path.length > 2) {
      const frozenByReceiver = (flagsOf(line) & (fromSide.isHigh ? TrustLineFlag.lowFreeze : TrustLineFlag.highFreeze)) !== 0;
      if ((flagsOf(toRoot) & AccountRootFlag.globalFreeze) !== 0 || frozenByReceiver) return 'tecPATH_DRY';
    }
    const capacity = fromSide.balance.add(fromSide.peerLimit);
    hops.push({ from, to, lineIndex, capacity: capacity.signum() > 0 ? capacity : IouValue.ZERO, redeems: fromSide.balance.signum() > 0 });
  }
  // An account in the middle ripples only if NoRipple is clear on at least one of its two lines.
  for (let position = 1; position < hops.length; position++) {
    const middle = path[position]!;
    const inbound = lineSide(sandbox.read(hops[position - 1]!.lineIndex)!, middle);
    const outbound = lineSide(sandbox.read(hops[position]!.lineIndex)!, middle);
    if (inbound.noRipple && outbound.noRipple) return 'tecPATH_DRY';
  }

  // Transfer fee of a middle account that is paid in its own IOUs and issues them onward.
  const rates = hops.map((hop, position) => {
    if (position === 0 || !hops[position - 1]!.redeems || hop.redeems) return undefined;
    const middle = sandbox.read(keys.account(hop.from))!;
    const rate = Number(middle.TransferRate ?? QUALITY_ONE);
    return rate === QUALITY_ONE || rate === 0 ? undefined : rateValue(rate);
  });

  // Most deliverable: each hop's capacity and the SendMax, converted through the rates after it.
  let deliverable = deliver.value;
  let factor: IouValue | undefined;
  for (let position = hops.length - 1; position >= 0; position--) {
    const hop = hops[position]!;
    deliverable = deliverable.min(factor === undefined ? hop.capacity : hop.capacity.divide(factor));
    const rate = rates[position];
    if (rate !== undefined) factor = factor === undefined ? rate : factor.multiply(rate);
  }
  deliverable = deliverable.min(factor === undefined ? maxSource.value : maxSource.value.divide(factor));

  if (deliverable.signum() <= 0) return 'tecPATH_DRY';
  if (deliverable.lessThan(deliver.value)) {
    if (!fields.partial) return 'tecPATH_PARTIAL';
    const minimum = fields.deliverMin as IssuedAmount | undefined;
    if (minimum !== undefined && deliverable.lessThan(minimum.value)) return 'tecPATH_PARTIAL';
  }

  // Amounts per hop, from the destination back; rounding never takes a hop past its capacity.
  const carried: IouValue[] = new Array<IouValue>(hops.length);
  let amount = deliverable;
  for (let position = hops.length - 1; position >= 0; position--) {
    carried[position] = amount.min(hops[position]!.capacity);
    const rate = rates[position];
    if (rate !== undefined) amount = carried[position]!.multiply(rate);
    else amount = carried[position]!;
  }
  for (let position = 0; position < hops.length; position++) {
    const hop = hops[position]!;
    if (!rippleCredit(context.scope, hop.from, hop.to, hop.lineIndex, carried[position]!)) return 'tecINTERNAL';
  }
  if (!deliverable.lessThan(deliver.value)) return 'tesSUCCESS';
  context.deliveredAmount = amountToJson({ ...deliver, value: deliverable });
  return 'tesSUCCESS';
}

