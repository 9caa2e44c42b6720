/**
 * The negative UNL on flag ledgers (every 256th), as rippled builds one:
 *
 * 1. `Ledger::updateNegativeUNL` before the ledger's transactions: the NegativeUNL object's
 *    ValidatorToDisable joins DisabledValidators (with FirstLedgerSequence = this ledger) and its
 *    ValidatorToReEnable leaves them, both fields are removed, and the object is deleted when it
 *    holds nothing. A state change outside any transaction: no metadata records it.
 * 2. The flag ledger's UNLModify pseudo-transactions (`Change::applyUNLModify`): at most one
 *    disabling and one re-enabling, each setting ValidatorToDisable / ValidatorToReEnable for the
 *    next flag ledger, with ordinary metadata.
 *
 * Which validators to name is the network's vote (NegativeUnlVoter); the engine only applies it.
 */
import { isFlagLedger, isPublicKeyHex } from '@ledger-node/chain';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import type { LedgerEntry, OpenLedgerState, Sandbox } from './state';
import type { JsonObject } from './types';

/** A NegativeUNL object's content: master keys, uppercase hex. */
export interface NegativeUnlState {
  disabled: string[];
  toDisable?: string;
  toReEnable?: string;
}

/** What a flag ledger's UNLModify pseudo-transactions name (master keys, uppercase hex). */
export interface NegativeUnlVote {
  disable?: string;
  reEnable?: string;
}

export interface NegativeUnlVoteInput {
  /** The flag ledger being built. */
  ledgerIndex: number;
  /** Its parent's hash (rippled's vote picks among candidates with it). */
  parentHash: string;
  /** The parent ledger's NegativeUNL object, before this flag ledger updates it. */
  negativeUnl: NegativeUnlState;
}

/** rippled NegativeUNLVote::doVoting: run on the ledger before each flag ledger. */
export interface NegativeUnlVoter {
  vote(input: NegativeUnlVoteInput): NegativeUnlVote;
}

/** Whether the chain's format holds the negative UNL's fields (the XRP Ledger's does; Jingtum's lacks the Blob fields). */
export function supportsNegativeUnl(definitions: XrplDefinitionsBase): boolean {
  const has = (name: string) => definitions.field.fromString(name) !== undefined;
  return (
    definitions.transactionType.from('UNLModify') !== undefined &&
    definitions.ledgerEntryType.from('NegativeUNL') !== undefined &&
    ['UNLModifyValidator', 'UNLModifyDisabling', 'ValidatorToDisable', 'ValidatorToReEnable', 'DisabledValidators', 'DisabledValidator'].every(has)
  );
}

function disabledEntries(entry: Readonly<LedgerEntry> | undefined): { DisabledValidator: { PublicKey: string; FirstLedgerSequence: number } }[] {
  const entries = entry?.DisabledValidators;
  return Array.isArray(entries) ? (entries as { DisabledValidator: { PublicKey: string; FirstLedgerSequence: number } }[]) : [];
}

export function negativeUnlState(entry: Readonly<LedgerEntry> | undefined): NegativeUnlState {
  const state: NegativeUnlState = { disabled: disabledEntries(entry).map((disabled) => String(disabled.DisabledValidator.PublicKey).toUpperCase()) };
  if (typeof entry?.ValidatorToDisable === 'string') state.toDisable = entry.ValidatorToDisable.toUpperCase();
  if (typeof entry?.ValidatorToReEnable === 'string') state.toReEnable = entry.ValidatorToReEnable.toUpperCase();
  return state;
}

/** rippled `Ledger::updateNegativeUNL`, on the flag ledger's state before its transactions. */
export function updateNegativeUnl(state: OpenLedgerState, index: string, ledgerIndex: number): void {
  const entry = state.get(index);
  if (entry === undefined) return;
  const toDisable = entry.ValidatorToDisable;
  const toReEnable = entry.ValidatorToReEnable;
  if (toDisable === undefined && toReEnable === undefined) return;
  const disabled = disabledEntries(entry).filter((disabledEntry) => toReEnable === undefined || disabledEntry.DisabledValidator.PublicKey !== toReEnable);
  if (toDisable !== undefined) disabled.push({ DisabledValidator: { PublicKey: String(toDisable), FirstLedgerSequence: ledgerIndex } });
  if (disabled.length === 0) {
    state.remove(index);
    return;
  }
  const { ValidatorToDisable: _toDisable, ValidatorToReEnable: _toReEnable, ...kept } = entry;
  state.put(index, { ...kept, DisabledValidators: disabled });
}

/** The pseudo-transaction rippled's NegativeUNLVote::addTx makes: no account (serialized with length zero), no fee, no signature. */
export function unlModifyTransaction(ledgerIndex: number, disabling: boolean, masterKey: string): JsonObject {
  return {
    TransactionType: 'UNLModify',
    Account: '',
    Fee: '0',
    Sequence: 0,
    SigningPubKey: '',
    LedgerSequence: ledgerIndex,
    UNLModifyDisabling: disabling ? 1 : 0,
    UNLModifyValidator: masterKey.toUpperCase(),
  };
}

/** rippled `Change::applyUNLModify` in a sandbox: tesSUCCESS, or tefFAILURE when the change is not allowed. */
export function applyUnlModify(sandbox: Sandbox, index: string, tx: JsonObject, ledgerIndex: number): 'tesSUCCESS' | 'tefFAILURE' {
  if (!isFlagLedger(ledgerIndex) || tx.LedgerSequence !== ledgerIndex) return 'tefFAILURE';
  const disabling = tx.UNLModifyDisabling;
  const validator = typeof tx.UNLModifyValidator === 'string' ? tx.UNLModifyValidator.toUpperCase() : '';
  if ((disabling !== 0 && disabling !== 1) || !isPublicKeyHex(validator)) return 'tefFAILURE';
  let entry = sandbox.peek(index);
  const created = entry === undefined;
  // rippled makes the object from its template: Flags is its one required field.
  entry ??= { LedgerEntryType: 'NegativeUNL', Flags: 0 };
  const found = disabledEntries(entry).some((disabled) => String(disabled.DisabledValidator.PublicKey).toUpperCase() === validator);
  if (disabling === 1) {
    if (entry.ValidatorToDisable !== undefined || entry.ValidatorToReEnable === validator || found) return 'tefFAILURE';
    entry.ValidatorToDisable = validator;
  } else {
    if (entry.ValidatorToReEnable !== undefined || entry.ValidatorToDisable === validator || !found) return 'tefFAILURE';
    entry.ValidatorToReEnable = validator;
  }
  if (created) sandbox.insert(index, entry);
  else sandbox.update(index, entry);
  return 'tesSUCCESS';
}
