/**
 * TrustSet, after rippled SetTrust.cpp: creates, changes or deletes the trust line between the
 * sender and the issuer of LimitAmount. A line is deleted when both sides are back at their
 * defaults (zero limit and balance, no qualities, no freeze, NoRipple matching the account's
 * DefaultRipple). Each side holding a non-default line pays one owner reserve; the first two
 * objects of an account are exempt so a gateway can fund a new user's first lines.
 */
import { isLegalAmount, isNativeCurrencyCode, parseAmount, type IssuedAmount } from '../amounts';
import { IouValue, QUALITY_ONE } from '../iou';
import { AccountRootFlag, TrustLineFlag, TrustSetFlag } from '../protocol';
import type { ResultToken } from '../results';
import { adjustOwnerCount, flagsOf, trustCreate, trustDelete, valueOf } from '../trustLines';
import type { JsonObject } from '../types';
import { accountReserve, u32Field, type ChainSettings, type RuleContext, type TransactionRule } from './context';

function limitOf(tx: JsonObject): IssuedAmount {
  return parseAmount(tx.LimitAmount) as IssuedAmount;
}

export const trustSetRule: TransactionRule = {
  allowedFlags:
    TrustSetFlag.setfAuth | TrustSetFlag.setNoRipple | TrustSetFlag.clearNoRipple | TrustSetFlag.setFreeze | TrustSetFlag.clearFreeze,

  preflight(tx: JsonObject, settings: ChainSettings): ResultToken {
    const limit = parseAmount(tx.LimitAmount);
    if (limit === undefined) return 'temBAD_AMOUNT';
    if (!isLegalAmount(limit)) return 'temBAD_AMOUNT';
    if (limit.native) return 'temBAD_LIMIT';
    if (isNativeCurrencyCode(limit.currency, settings.profile.nativeCurrency)) return 'temBAD_CURRENCY';
    if (limit.value.signum() < 0) return 'temBAD_LIMIT';
    if (!settings.keys.isValidAddress(limit.issuer) || limit.issuer === settings.zeroAccount || limit.issuer === settings.noAccount) {
      return 'temDST_NEEDED';
    }
    return 'tesSUCCESS';
  },

  preclaim(context: RuleContext): ResultToken {
    const { tx, sandbox, settings, account } = context;
    const sender = sandbox.read(settings.keys.account(account))!;
    const txFlags = Number(tx.Flags ?? 0);
    if ((txFlags & TrustSetFlag.setfAuth) !== 0 && (flagsOf(sender) & AccountRootFlag.requireAuth) === 0) return 'tefNO_AUTH_REQUIRED';
    const limit = limitOf(tx);
    if (limit.issuer === account) return 'temDST_IS_SRC';
    if (sandbox.read(settings.keys.account(limit.issuer)) === undefined) return 'tecNO_DST';
    const setFreeze = (txFlags & TrustSetFlag.setFreeze) !== 0;
    const clearFreeze = (txFlags & TrustSetFlag.clearFreeze) !== 0;
    if (setFreeze && (flagsOf(sender) & AccountRootFlag.noFreeze) !== 0) return 'tecNO_PERMISSION';
    if (setFreeze && clearFreeze) return 'tecNO_PERMISSION';
    return 'tesSUCCESS';
  },

  apply(context: RuleContext): ResultToken {
    const { tx, sandbox, settings, account, scope } = context;
    const { keys } = settings;
    const limit = limitOf(tx);
    const currency = limit.currency;
    const issuer = limit.issuer;
    const senderIsHigh = keys.compareAccounts(account, issuer) > 0;
    const senderIndex = keys.account(account);
    const sender = sandbox.peek(senderIndex)!;
    const ownerCount = Number(sender.OwnerCount ?? 0);
    // The reserve to hold one more object, enforced only from the third object on.
    const reserveCreate = ownerCount < 2 ? 0n : accountReserve(settings.fees, ownerCount + 1);

    const hasQualityIn = tx.QualityIn !== undefined;
    const hasQualityOut = tx.QualityOut !== undefined;
    const qualityIn = u32Field(tx, 'QualityIn') ?? 0;
    let qualityOut = u32Field(tx, 'QualityOut') ?? 0;
    if (hasQualityOut && qualityOut === QUALITY_ONE) qualityOut = 0;

    const txFlags = Number(tx.Flags ?? 0);
    const setAuth = (txFlags & TrustSetFlag.setfAuth) !== 0;
    const setNoRipple = (txFlags & TrustSetFlag.setNoRipple) !== 0;
    const clearNoRipple = (txFlags & TrustSetFlag.clearNoRipple) !== 0;
    const setFreeze = (txFlags & TrustSetFlag.setFreeze) !== 0;
    const clearFreeze = (txFlags & TrustSetFlag.clearFreeze) !== 0;

    const issuerRoot = sandbox.read(keys.account(issuer));
    if (issuerRoot === undefined) return 'tecNO_DST';
    const lineIndex = keys.trustLine(account, issuer, currency);
    const line = sandbox.peek(lineIndex);

    if (line === undefined) {
      if (limit.value.isZero() && (!hasQualityIn || qualityIn === 0) && (!hasQualityOut || qualityOut === 0) && !setAuth) {
        return 'tecNO_LINE_REDUNDANT';
      }
      if (context.priorBalance < reserveCreate) return 'tecNO_LINE_INSUF_RESERVE';
      const created = trustCreate(scope, {
        setter: account,
        peer: issuer,
        currency,
        lineIndex,
        auth: setAuth,
        noRipple: setNoRipple && !clearNoRipple,
        freeze: setFreeze && !clearFreeze,
        balance: IouValue.ZERO,
        limit: limit.value,
        qualityIn,
        qualityOut,
      });
      return created ? 'tesSUCCESS' : 'tecDIR_FULL';
    }

    const lowAccount = senderIsHigh ? issuer : account;
    const highAccount = senderIsHigh ? account : issuer;
    const lowBalance = valueOf(line.Balance);
    const highBalance = lowBalance.negate();
    line[senderIsHigh ? 'HighLimit' : 'LowLimit'] = { currency, issuer: account, value: limit.value.toString() };
    const lowLimit = valueOf(line.LowLimit);
    const highLimit = valueOf(line.HighLimit);

    const qualityInField = senderIsHigh ? 'HighQualityIn' : 'LowQualityIn';
    const qualityOutField = senderIsHigh ? 'HighQualityOut' : 'LowQualityOut';
    if (hasQualityIn) {
      if (qualityIn !== 0) line[qualityInField] = qualityIn;
      else delete line[qualityInField];
    }
    if (hasQualityOut) {
      if (qualityOut !== 0) line[qualityOutField] = qualityOut;
      else delete line[qualityOutField];
    }
    const effective = (field: string) => {
      const quality = Number(line[field] ?? 0);
      return quality === QUALITY_ONE ? 0 : quality;
    };

    const flagsIn = flagsOf(line);
    let flagsOut = flagsIn;
    if (setNoRipple && !clearNoRipple) {
      // fix1578: NoRipple cannot be set on a side that owes.
      if ((senderIsHigh ? highBalance : lowBalance).signum() >= 0) flagsOut |= senderIsHigh ? TrustLineFlag.highNoRipple : TrustLineFlag.lowNoRipple;
      else return 'tecNO_PERMISSION';
    } else if (clearNoRipple && !setNoRipple) {
      flagsOut &= ~(senderIsHigh ? TrustLineFlag.highNoRipple : TrustLineFlag.lowNoRipple);
    }
    const senderNoFreeze = (flagsOf(sender) & AccountRootFlag.noFreeze) !== 0;
    if (setFreeze && !clearFreeze && !senderNoFreeze) {
      flagsOut |= senderIsHigh ? TrustLineFlag.highFreeze : TrustLineFlag.lowFreeze;
    } else if (clearFreeze && !setFreeze) {
      flagsOut &= ~(senderIsHigh ? TrustLineFlag.highFreeze : TrustLineFlag.lowFreeze);
    }

    const lowRoot = senderIsHigh ? issuerRoot : sender;
    const highRoot = senderIsHigh ? sender : issuerRoot;
    const lowDefaultRipple = (flagsOf(lowRoot) & AccountRootFlag.defaultRipple) !== 0;
    const highDefaultRipple = (flagsOf(highRoot) & AccountRootFlag.defaultRipple) !== 0;
    const lowReserveSet =
      effective('LowQualityIn') !== 0 ||
      effective('LowQualityOut') !== 0 ||
      ((flagsOut & TrustLineFlag.lowNoRipple) === 0) !== lowDefaultRipple ||
      (flagsOut & TrustLineFlag.lowFreeze) !== 0 ||
      !lowLimit.isZero() ||
      lowBalance.signum() > 0;
    const highReserveSet =
      effective('HighQualityIn') !== 0 ||
      effective('HighQualityOut') !== 0 ||
      ((flagsOut & TrustLineFlag.highNoRipple) === 0) !== highDefaultRipple ||
      (flagsOut & TrustLineFlag.highFreeze) !== 0 ||
      !highLimit.isZero() ||
      highBalance.signum() > 0;
    const isDefault = !lowReserveSet && !highReserveSet;
    const lowReserved = (flagsIn & TrustLineFlag.lowReserve) !== 0;
    const highReserved = (flagsIn & TrustLineFlag.highReserve) !== 0;
    let reserveIncrease = false;

    if (setAuth) flagsOut |= senderIsHigh ? TrustLineFlag.highAuth : TrustLineFlag.lowAuth;
    if (lowReserveSet && !lowReserved) {
      adjustOwnerCount(scope, lowAccount, 1);
      flagsOut |= TrustLineFlag.lowReserve;
      if (!senderIsHigh) reserveIncrease = true;
    }
    if (!lowReserveSet && lowReserved) {
      adjustOwnerCount(scope, lowAccount, -1);
      flagsOut &= ~TrustLineFlag.lowReserve;
    }
    if (highReserveSet && !highReserved) {
      adjustOwnerCount(scope, highAccount, 1);
      flagsOut |= TrustLineFlag.highReserve;
      if (senderIsHigh) reserveIncrease = true;
    }
    if (!highReserveSet && highReserved) {
      adjustOwnerCount(scope, highAccount, -1);
      flagsOut &= ~TrustLineFlag.highReserve;
    }
    if (flagsIn !== flagsOut >>> 0) line.Flags = flagsOut >>> 0;

    if (isDefault) return trustDelete(scope, lineIndex) ? 'tesSUCCESS' : 'tefINTERNAL';
    if (reserveIncrease && context.priorBalance < reserveCreate) return 'tecINSUF_RESERVE_LINE';
    sandbox.update(lineIndex, line);
    return 'tesSUCCESS';
  },
};
