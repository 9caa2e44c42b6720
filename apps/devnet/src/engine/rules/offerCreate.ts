/**
 * OfferCreate, after rippled CreateOffer.cpp: an offer first crosses the best offers of the
 * opposite book whose price is no worse than its own (strictly better when tfPassive), taking
 * each in full or in part at that offer's own rate; what is left is filed in its own book at its
 * original quality — the book directory (quality key, appended in arrival order), the owner
 * directory, OwnerCount — unless tfImmediateOrCancel or tfFillOrKill forbid it. `OfferSequence`
 * first deletes the account's offer with that sequence. Offers met in the book whose owner holds
 * nothing of what they sell, or that have expired, are removed as rippled removes them.
 *
 * Crossing moves assets directly (native drops; an issued currency through its issuer's lines,
 * the receiver's line created when missing), each payer bearing its issuer's transfer fee. Not
 * modelled: tick sizes, offers of the taker itself (left in the book, not crossed),
 * auto-bridging through the native asset, and rippled's exact rounding of partial fills (amounts
 * here are rounded to 16 digits / whole drops in the offer owner's favour).
 */
import { keylet } from '@ledger-node/chain';
import { amountToJson, isLegalAmount, isNativeCurrencyCode, parseAmount, type Amount } from '../amounts';
import { dirEntries, dirInsert, u64Hex } from '../directory';
import { IouValue, IouValueError } from '../iou';
import {
  accountFunds,
  amountFromRatio,
  bookBaseOf,
  bookDirectoryOf,
  compareRatios,
  describeBookPage,
  directoryQualityOf,
  divideRatios,
  isPositiveAmount,
  minAmount,
  multiplyRatios,
  offerDelete,
  offerQuality,
  qualityRatio,
  ratioOf,
  sameIssue,
  subtractAmounts,
  transferAsset,
  transferFee,
} from '../offers';
import { AccountRootFlag, OfferCreateFlag, OfferFlag, TrustLineFlag } from '../protocol';
import type { ResultToken } from '../results';
import type { LedgerEntry } from '../state';
import { adjustOwnerCount, flagsOf } from '../trustLines';
import type { JsonObject } from '../types';
import { accountReserve, u32Field, type ChainSettings, type RuleContext, type TransactionRule } from './context';

interface OfferFields {
  takerPays: Amount;
  takerGets: Amount;
  flags: number;
}

function fieldsOf(tx: JsonObject): OfferFields {
  return { takerPays: parseAmount(tx.TakerPays)!, takerGets: parseAmount(tx.TakerGets)!, flags: Number(tx.Flags ?? 0) >>> 0 };
}

function zeroOf(amount: Amount): Amount {
  return amount.native ? { native: true, drops: 0n } : { ...amount, value: IouValue.ZERO };
}

function addAmounts(left: Amount, right: Amount): Amount {
  return subtractAmounts(left, right.native ? { native: true, drops: -right.drops } : { ...right, value: right.value.negate() });
}

/** rippled `hasExpired`: an expiration at or before the parent ledger's close has passed. */
function hasExpired(context: RuleContext, expiration: unknown): boolean {
  return typeof expiration === 'number' && expiration <= context.parentCloseTime;
}

/** rippled `checkAcceptAsset`: may the account hold the issued asset it asks for? */
function checkAcceptAsset(context: RuleContext, asset: Amount): ResultToken {
  if (asset.native) return 'tesSUCCESS';
  const { sandbox, settings, account } = context;
  const issuerRoot = sandbox.read(settings.keys.account(asset.issuer));
  if (issuerRoot === undefined) return 'tecNO_ISSUER';
  if (asset.issuer === account) return 'tesSUCCESS';
  if ((flagsOf(issuerRoot) & AccountRootFlag.requireAuth) !== 0) {
    const line = sandbox.read(settings.keys.trustLine(account, asset.issuer, asset.currency));
    if (line === undefined) return 'tecNO_LINE';
    // The issuer's authorization is on the issuer's side of the line.
    const issuerIsHigh = settings.keys.compareAccounts(asset.issuer, account) > 0;
    if ((flagsOf(line) & (issuerIsHigh ? TrustLineFlag.highAuth : TrustLineFlag.lowAuth)) === 0) return 'tecNO_AUTH';
  }
  return 'tesSUCCESS';
}

function isGlobalFrozen(context: RuleContext, asset: Amount): boolean {
  if (asset.native) return false;
  const root = context.sandbox.read(context.settings.keys.account(asset.issuer));
  return root !== undefined && (flagsOf(root) & AccountRootFlag.globalFreeze) !== 0;
}

/** The first quality directory of the book after `after` (exclusive) and before `end`, as this transaction sees the ledger. */
function nextDirectory(context: RuleContext, after: string, end: string): string | undefined {
  for (const { index } of context.sandbox.base.tree.entries(after)) {
    if (index >= end) return undefined;
    const page = context.sandbox.read(index);
    if (page?.LedgerEntryType === 'DirectoryNode' && page.RootIndex === index) return index;
  }
  return undefined;
}

interface Crossing {
  paid: Amount;
  received: Amount;
  failed: boolean;
}

/** Takes the opposite book's offers, best first, while their price is within the taker's. */
function cross(context: RuleContext, fields: OfferFields): Crossing {
  const { sandbox, settings, account, scope } = context;
  const { takerGets, takerPays } = fields;
  const sell = (fields.flags & OfferCreateFlag.sell) !== 0;
  const passive = (fields.flags & OfferCreateFlag.passive) !== 0;
  // The taker pays at most TakerGets per TakerPays: the worst book rate (in/out) it accepts.
  const limit = divideRatios(ratioOf(takerGets), ratioOf(takerPays));
  let remaining = takerGets;
  let wanted = takerPays;
  let paid = zeroOf(takerGets);
  let received = zeroOf(takerPays);
  // Offers there sell what the taker wants (their TakerGets) for what it gives (their TakerPays).
  const base = bookBaseOf(takerGets, takerPays, settings);
  const end = keylet.qualityNext(base);
  let after = base;
  for (let directory = nextDirectory(context, after, end); directory !== undefined; directory = nextDirectory(context, after, end)) {
    after = directory;
    const price = compareRatios(qualityRatio(directoryQualityOf(directory)), limit);
    if (price > 0 || (passive && price === 0)) break;
    for (const offerIndex of dirEntries((index) => sandbox.read(index), settings.keys, directory)) {
      const offer = sandbox.read(offerIndex);
      if (offer === undefined || offer.LedgerEntryType !== 'Offer' || offer.Account === account) continue;
      if (hasExpired(context, offer.Expiration)) {
        if (!offerDelete(scope, offerIndex)) return { paid, received, failed: true };
        continue;
      }
      const owner = offer.Account as string;
      const offerGets = parseAmount(offer.TakerGets)!;
      const offerPays = parseAmount(offer.TakerPays)!;
      const ownerHolds = accountFunds(scope, settings.fees, owner, offerGets);
      if (!isPositiveAmount(ownerHolds)) {
        if (!offerDelete(scope, offerIndex)) return { paid, received, failed: true };
        continue;
      }
      // Each payer bears its issuer's transfer fee: what it holds delivers that much less.
      const ownerFunds = amountFromRatio(divideRatios(ratioOf(ownerHolds), transferFee(scope, owner, account, offerGets)), offerGets, false);
      const takerHolds = accountFunds(scope, settings.fees, account, takerGets);
      const budget = minAmount(remaining, amountFromRatio(divideRatios(ratioOf(takerHolds), transferFee(scope, account, owner, takerGets)), takerGets, false));
      const offerRate = divideRatios(ratioOf(offerPays), ratioOf(offerGets));
      // What the taker receives of this offer, and what that costs at the offer's rate (rounded for the owner).
      let take = minAmount(offerGets, ownerFunds);
      if (!sell) take = minAmount(take, wanted);
      let give = sameAmount(take, offerGets) ? offerPays : amountFromRatio(multiplyRatios(ratioOf(take), offerRate), offerPays, true);
      if (compareRatios(ratioOf(give), ratioOf(budget)) > 0) {
        give = budget;
        take = amountFromRatio(divideRatios(ratioOf(give), offerRate), offerGets, false);
      }
      if (!isPositiveAmount(take) || !isPositiveAmount(give)) return { paid, received, failed: false };
      if (!transferAsset(scope, account, owner, give) || !transferAsset(scope, owner, account, take)) return { paid, received, failed: true };
      const leftGets = subtractAmounts(offerGets, take);
      const leftPays = subtractAmounts(offerPays, give);
      // rippled consumes the offer's amounts first, then deletes it when used up: its metadata keeps what was taken.
      const entry = sandbox.peek(offerIndex)!;
      entry.TakerGets = amountToJson(isPositiveAmount(leftGets) ? leftGets : zeroOf(leftGets));
      entry.TakerPays = amountToJson(isPositiveAmount(leftPays) ? leftPays : zeroOf(leftPays));
      sandbox.update(offerIndex, entry);
      if ((!isPositiveAmount(leftGets) || !isPositiveAmount(leftPays)) && !offerDelete(scope, offerIndex)) return { paid, received, failed: true };
      paid = addAmounts(paid, give);
      received = addAmounts(received, take);
      remaining = subtractAmounts(remaining, give);
      wanted = subtractAmounts(wanted, take);
      if (!isPositiveAmount(remaining) || (!sell && !isPositiveAmount(wanted))) return { paid, received, failed: false };
    }
  }
  return { paid, received, failed: false };
}

function sameAmount(left: Amount, right: Amount): boolean {
  return compareRatios(ratioOf(left), ratioOf(right)) === 0;
}

/** Files what is left of the offer in its book and its owner's directory (rippled CreateOffer::applyGuts, the placing half). */
function place(context: RuleContext, takerPays: Amount, takerGets: Amount, quality: bigint, flags: number): ResultToken {
  const { sandbox, settings, account, tx, scope } = context;
  const { keys } = settings;
  const sequence = Number(tx.Sequence) === 0 ? Number(tx.TicketSequence) : Number(tx.Sequence);
  const offerIndex = keylet.offer(keys.accountId(account), sequence);
  const ownerNode = dirInsert(sandbox, keys, keys.ownerDir(account), offerIndex, (page) => (page.Owner = account));
  if (ownerNode === undefined) return 'tecDIR_FULL';
  adjustOwnerCount(scope, account, 1);
  const directory = bookDirectoryOf(bookBaseOf(takerPays, takerGets, settings), quality);
  const bookNode = dirInsert(sandbox, keys, directory, offerIndex, (page) => describeBookPage(page, takerPays, takerGets, quality, settings), true);
  if (bookNode === undefined) return 'tecDIR_FULL';
  let offerFlags = 0;
  if ((flags & OfferCreateFlag.passive) !== 0) offerFlags |= OfferFlag.passive;
  if ((flags & OfferCreateFlag.sell) !== 0) offerFlags |= OfferFlag.sell;
  const offer: LedgerEntry = {
    LedgerEntryType: 'Offer',
    Flags: offerFlags,
    Account: account,
    Sequence: sequence,
    TakerPays: amountToJson(takerPays),
    TakerGets: amountToJson(takerGets),
    BookDirectory: directory,
    BookNode: u64Hex(bookNode),
    OwnerNode: u64Hex(ownerNode),
    PreviousTxnID: '0'.repeat(64),
    PreviousTxnLgrSeq: 0,
  };
  const expiration = u32Field(tx, 'Expiration');
  if (expiration !== undefined) offer.Expiration = expiration;
  sandbox.insert(offerIndex, offer);
  return 'tesSUCCESS';
}

export const offerCreateRule: TransactionRule = {
  allowedFlags: OfferCreateFlag.passive | OfferCreateFlag.immediateOrCancel | OfferCreateFlag.fillOrKill | OfferCreateFlag.sell,

  preflight(tx: JsonObject, settings: ChainSettings): ResultToken {
    const flags = Number(tx.Flags ?? 0) >>> 0;
    if ((flags & OfferCreateFlag.immediateOrCancel) !== 0 && (flags & OfferCreateFlag.fillOrKill) !== 0) return 'temINVALID_FLAG';
    if (tx.Expiration !== undefined && tx.Expiration === 0) return 'temBAD_EXPIRATION';
    if (tx.OfferSequence !== undefined && tx.OfferSequence === 0) return 'temBAD_SEQUENCE';
    const takerPays = parseAmount(tx.TakerPays);
    const takerGets = parseAmount(tx.TakerGets);
    if (takerPays === undefined || takerGets === undefined) return 'temBAD_AMOUNT';
    if (!isLegalAmount(takerPays) || !isLegalAmount(takerGets)) return 'temBAD_AMOUNT';
    if (takerPays.native && takerGets.native) return 'temBAD_OFFER';
    if (!isPositiveAmount(takerPays) || !isPositiveAmount(takerGets)) return 'temBAD_OFFER';
    if (sameIssue(takerPays, takerGets)) return 'temREDUNDANT';
    const native = settings.profile.nativeCurrency;
    if ((!takerPays.native && isNativeCurrencyCode(takerPays.currency, native)) || (!takerGets.native && isNativeCurrencyCode(takerGets.currency, native))) {
      return 'temBAD_CURRENCY';
    }
    const badIssuer = (amount: Amount) => !amount.native && (!settings.keys.isValidAddress(amount.issuer) || amount.issuer === settings.zeroAccount);
    if (badIssuer(takerPays) || badIssuer(takerGets)) return 'temBAD_ISSUER';
    return 'tesSUCCESS';
  },

  preclaim(context: RuleContext): ResultToken {
    const { tx, sandbox, settings, account, scope } = context;
    const { takerPays, takerGets } = fieldsOf(tx);
    const root = sandbox.read(settings.keys.account(account))!;
    if (isGlobalFrozen(context, takerPays) || isGlobalFrozen(context, takerGets)) return 'tecFROZEN';
    if (!isPositiveAmount(accountFunds(scope, settings.fees, account, takerGets))) return 'tecUNFUNDED_OFFER';
    const offerSequence = u32Field(tx, 'OfferSequence');
    if (offerSequence !== undefined && Number(root.Sequence) <= offerSequence) return 'temBAD_SEQUENCE';
    if (hasExpired(context, tx.Expiration)) return 'tecEXPIRED';
    return checkAcceptAsset(context, takerPays);
  },

  apply(context: RuleContext): ResultToken {
    try {
      return applyOffer(context);
    } catch (error) {
      // rippled: an amount beyond STAmount's range throws, and the transaction is not applied.
      if (error instanceof IouValueError) return 'tefINTERNAL';
      throw error;
    }
  },
};

function applyOffer(context: RuleContext): ResultToken {
  const { tx, sandbox, settings, account, scope } = context;
  const fields = fieldsOf(tx);
  const { takerPays, takerGets, flags } = fields;
  // The offer is filed at its original rate, whatever crossing leaves of it.
  const quality = offerQuality(takerPays, takerGets);
  const offerSequence = u32Field(tx, 'OfferSequence');
  if (offerSequence !== undefined) {
    const cancelled = keylet.offer(settings.keys.accountId(account), offerSequence);
    // Not finding it is no error: it may have been taken or cancelled already.
    if (sandbox.exists(cancelled) && !offerDelete(scope, cancelled)) return 'tefBAD_LEDGER';
  }
  if (hasExpired(context, tx.Expiration)) return 'tecEXPIRED';

  const crossing = cross(context, fields);
  if (crossing.failed) return 'tefBAD_LEDGER';
  const crossed = isPositiveAmount(crossing.received) || isPositiveAmount(crossing.paid);
  const sell = (flags & OfferCreateFlag.sell) !== 0;

  // rippled flowCross: what remains keeps the offer's rate, scaled from the side that was limited.
  let leftPays: Amount;
  let leftGets: Amount;
  if (!isPositiveAmount(accountFunds(scope, settings.fees, account, takerGets))) {
    leftPays = zeroOf(takerPays);
    leftGets = zeroOf(takerGets);
  } else if (sell) {
    leftGets = subtractAmounts(takerGets, crossing.paid);
    if (!isPositiveAmount(leftGets)) leftGets = zeroOf(takerGets);
    leftPays = amountFromRatio(multiplyRatios(ratioOf(leftGets), divideRatios(ratioOf(takerPays), ratioOf(takerGets))), takerPays, false);
  } else {
    leftPays = subtractAmounts(takerPays, crossing.received);
    if (!isPositiveAmount(leftPays)) leftPays = zeroOf(takerPays);
    leftGets = amountFromRatio(multiplyRatios(ratioOf(leftPays), divideRatios(ratioOf(takerGets), ratioOf(takerPays))), takerGets, true);
  }
  const filled = !isPositiveAmount(leftPays) || !isPositiveAmount(leftGets);

  if ((flags & OfferCreateFlag.fillOrKill) !== 0) {
    const complete = sell ? compareRatios(ratioOf(crossing.paid), ratioOf(takerGets)) >= 0 || compareRatios(ratioOf(crossing.received), ratioOf(takerPays)) >= 0 : !isPositiveAmount(subtractAmounts(takerPays, crossing.received));
    return complete ? 'tesSUCCESS' : 'tecKILLED';
  }
  if (filled) return 'tesSUCCESS';
  if ((flags & OfferCreateFlag.immediateOrCancel) !== 0) return crossed ? 'tesSUCCESS' : 'tecKILLED';

  const root = sandbox.read(settings.keys.account(account))!;
  // The reserve is judged on the balance before the fee (rippled mPriorBalance): without it, only what crossed stays.
  if (context.priorBalance < accountReserve(settings.fees, Number(root.OwnerCount ?? 0) + 1)) return crossed ? 'tesSUCCESS' : 'tecINSUF_RESERVE_OFFER';
  return place(context, leftPays, leftGets, quality, flags);
}
