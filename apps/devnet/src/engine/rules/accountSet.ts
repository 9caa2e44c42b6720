/**
 * AccountSet, after rippled SetAccount.cpp: account flags through SetFlag/ClearFlag (and the
 * legacy transaction flags), TransferRate, TickSize, Domain, EmailHash, MessageKey,
 * WalletLocator. DefaultRipple changes only the account's flag: existing trust lines keep their
 * NoRipple bits (an issuer clears them with TrustSet tfClearNoRipple), lines created afterwards
 * take the new default, and a line side counts as "default" against the new value.
 */
import { dirEntries } from '../directory';
import { QUALITY_ONE } from '../iou';
import { AccountRootFlag, AccountSetFlag, AccountSetTxFlag, MAX_DOMAIN_BYTES } from '../protocol';
import type { ResultToken } from '../results';
import { flagsOf } from '../trustLines';
import type { JsonObject } from '../types';
import { u32Field, type ChainSettings, type RuleContext, type TransactionRule } from './context';

const MIN_TICK_SIZE = 3;
const MAX_TICK_SIZE = 15;
const PUBLIC_KEY = /^(02|03)[0-9A-F]{64}$|^ED[0-9A-F]{64}$/i;

interface FlagRequests {
  setFlag: number;
  clearFlag: number;
  setRequireAuth: boolean;
  clearRequireAuth: boolean;
  setRequireDest: boolean;
  clearRequireDest: boolean;
  setDisallowNative: boolean;
  clearDisallowNative: boolean;
}

function requests(tx: JsonObject): FlagRequests {
  const txFlags = Number(tx.Flags ?? 0);
  const setFlag = u32Field(tx, 'SetFlag') ?? 0;
  const clearFlag = u32Field(tx, 'ClearFlag') ?? 0;
  return {
    setFlag,
    clearFlag,
    setRequireAuth: (txFlags & AccountSetTxFlag.requireAuth) !== 0 || setFlag === AccountSetFlag.requireAuth,
    clearRequireAuth: (txFlags & AccountSetTxFlag.optionalAuth) !== 0 || clearFlag === AccountSetFlag.requireAuth,
    setRequireDest: (txFlags & AccountSetTxFlag.requireDestTag) !== 0 || setFlag === AccountSetFlag.requireDest,
    clearRequireDest: (txFlags & AccountSetTxFlag.optionalDestTag) !== 0 || clearFlag === AccountSetFlag.requireDest,
    setDisallowNative: (txFlags & AccountSetTxFlag.disallowNative) !== 0 || setFlag === AccountSetFlag.disallowNative,
    clearDisallowNative: (txFlags & AccountSetTxFlag.allowNative) !== 0 || clearFlag === AccountSetFlag.disallowNative,
  };
}

export const accountSetRule: TransactionRule = {
  allowedFlags: Object.values(AccountSetTxFlag).reduce((all, flag) => all | flag, 0),

  preflight(tx: JsonObject, _settings: ChainSettings): ResultToken {
    const wanted = requests(tx);
    if (wanted.setFlag !== 0 && wanted.setFlag === wanted.clearFlag) return 'temINVALID_FLAG';
    if (wanted.setRequireAuth && wanted.clearRequireAuth) return 'temINVALID_FLAG';
    if (wanted.setRequireDest && wanted.clearRequireDest) return 'temINVALID_FLAG';
    if (wanted.setDisallowNative && wanted.clearDisallowNative) return 'temINVALID_FLAG';
    const transferRate = u32Field(tx, 'TransferRate');
    if (transferRate !== undefined) {
      if (transferRate !== 0 && transferRate < QUALITY_ONE) return 'temBAD_TRANSFER_RATE';
      if (transferRate > 2 * QUALITY_ONE) return 'temBAD_TRANSFER_RATE';
    }
    const tickSize = u32Field(tx, 'TickSize');
    if (tickSize !== undefined && tickSize !== 0 && (tickSize < MIN_TICK_SIZE || tickSize > MAX_TICK_SIZE)) return 'temBAD_TICK_SIZE';
    if (typeof tx.MessageKey === 'string' && tx.MessageKey !== '' && !PUBLIC_KEY.test(tx.MessageKey)) return 'telBAD_PUBLIC_KEY';
    if (typeof tx.Domain === 'string' && tx.Domain.length / 2 > MAX_DOMAIN_BYTES) return 'telBAD_DOMAIN';
    return 'tesSUCCESS';
  },

  preclaim(context: RuleContext): ResultToken {
    const { tx, sandbox, settings, account } = context;
    const root = sandbox.read(settings.keys.account(account))!;
    const wanted = requests(tx);
    if (wanted.setRequireAuth && (flagsOf(root) & AccountRootFlag.requireAuth) === 0) {
      // RequireAuth can only be turned on while the account owns nothing.
      if (dirEntries((index) => sandbox.read(index), settings.keys, settings.keys.ownerDir(account)).length > 0) return 'tecOWNERS';
    }
    return 'tesSUCCESS';
  },

  apply(context: RuleContext): ResultToken {
    const { tx, sandbox, settings, account } = context;
    const index = settings.keys.account(account);
    const root = sandbox.peek(index)!;
    const flagsIn = flagsOf(root);
    let flagsOut = flagsIn;
    const wanted = requests(tx);
    const signedWithMaster =
      typeof tx.SigningPubKey === 'string' &&
      tx.SigningPubKey !== '' &&
      settings.profile.keys.deriveAddress(tx.SigningPubKey) === account;

    if (wanted.setRequireAuth) flagsOut |= AccountRootFlag.requireAuth;
    if (wanted.clearRequireAuth) flagsOut &= ~AccountRootFlag.requireAuth;
    if (wanted.setRequireDest) flagsOut |= AccountRootFlag.requireDestTag;
    if (wanted.clearRequireDest) flagsOut &= ~AccountRootFlag.requireDestTag;
    if (wanted.setDisallowNative) flagsOut |= AccountRootFlag.disallowNative;
    if (wanted.clearDisallowNative) flagsOut &= ~AccountRootFlag.disallowNative;

    if (wanted.setFlag === AccountSetFlag.disableMaster && (flagsIn & AccountRootFlag.disableMaster) === 0) {
      if (!signedWithMaster) return 'tecNEED_MASTER_KEY';
      // rippled: a regular key or a signer list must be left to sign with (SetRegularKey is not on this ledger).
      if (root.RegularKey === undefined && !context.sandbox.exists(context.settings.keys.signers(context.account))) return 'tecNO_ALTERNATIVE_KEY';
      flagsOut |= AccountRootFlag.disableMaster;
    }
    if (wanted.clearFlag === AccountSetFlag.disableMaster) flagsOut &= ~AccountRootFlag.disableMaster;

    if (wanted.setFlag === AccountSetFlag.defaultRipple) flagsOut |= AccountRootFlag.defaultRipple;
    else if (wanted.clearFlag === AccountSetFlag.defaultRipple) flagsOut &= ~AccountRootFlag.defaultRipple;

    if (wanted.setFlag === AccountSetFlag.noFreeze) {
      if (!signedWithMaster && (flagsIn & AccountRootFlag.disableMaster) === 0) return 'tecNEED_MASTER_KEY';
      flagsOut |= AccountRootFlag.noFreeze;
    }
    if (wanted.setFlag === AccountSetFlag.globalFreeze) flagsOut |= AccountRootFlag.globalFreeze;
    // Once NoFreeze is set, GlobalFreeze can no longer be cleared.
    if (wanted.setFlag !== AccountSetFlag.globalFreeze && wanted.clearFlag === AccountSetFlag.globalFreeze && (flagsOut & AccountRootFlag.noFreeze) === 0) {
      flagsOut &= ~AccountRootFlag.globalFreeze;
    }

    if (wanted.setFlag === AccountSetFlag.accountTxnId && root.AccountTxnID === undefined) root.AccountTxnID = '0'.repeat(64);
    if (wanted.clearFlag === AccountSetFlag.accountTxnId) delete root.AccountTxnID;

    if (wanted.setFlag === AccountSetFlag.depositAuth) flagsOut |= AccountRootFlag.depositAuth;
    else if (wanted.clearFlag === AccountSetFlag.depositAuth) flagsOut &= ~AccountRootFlag.depositAuth;

    // Optional fields: an empty or zero value removes the field.
    if (typeof tx.EmailHash === 'string') setOrRemove(root, 'EmailHash', /^0*$/.test(tx.EmailHash) ? undefined : tx.EmailHash);
    if (typeof tx.WalletLocator === 'string') setOrRemove(root, 'WalletLocator', /^0*$/.test(tx.WalletLocator) ? undefined : tx.WalletLocator);
    if (typeof tx.MessageKey === 'string') setOrRemove(root, 'MessageKey', tx.MessageKey === '' ? undefined : tx.MessageKey);
    if (typeof tx.Domain === 'string') setOrRemove(root, 'Domain', tx.Domain === '' ? undefined : tx.Domain);
    const transferRate = u32Field(tx, 'TransferRate');
    if (transferRate !== undefined) {
      setOrRemove(root, 'TransferRate', transferRate === 0 || transferRate === QUALITY_ONE ? undefined : transferRate);
    }
    const tickSize = u32Field(tx, 'TickSize');
    if (tickSize !== undefined) setOrRemove(root, 'TickSize', tickSize === 0 || tickSize === MAX_TICK_SIZE ? undefined : tickSize);

    if (flagsOut >>> 0 !== flagsIn) root.Flags = flagsOut >>> 0;
    sandbox.update(index, root);
    return 'tesSUCCESS';
  },
};

function setOrRemove(entry: Record<string, unknown>, field: string, value: unknown): void {
  if (value === undefined) delete entry[field];
  else entry[field] = value;
}
