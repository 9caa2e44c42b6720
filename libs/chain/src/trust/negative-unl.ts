/**
 * The negative UNL (rippled NegativeUNL ledger object, keylet 'N'): trusted validators the network
 * voted offline. `DisabledValidators` lists their master keys; validations of them do not count and
 * the quorum is computed over the validators left (validator-trust.ts). The object changes only on
 * flag ledgers (every 256th): `Ledger::updateNegativeUNL` moves `ValidatorToDisable` in and
 * `ValidatorToReEnable` out before the flag ledger's transactions apply, and its UNLModify
 * pseudo-transactions name the next ones.
 */
import { isPublicKeyHex } from '../keys';
import type { ChainProfile } from '../profiles';

/** rippled FLAG_LEDGER_INTERVAL. */
export const FLAG_LEDGER_INTERVAL = 256;

export function isFlagLedger(ledgerIndex: number): boolean {
  return ledgerIndex % FLAG_LEDGER_INTERVAL === 0;
}

/** The master keys a NegativeUNL object's binary form disables (rippled `Ledger::negativeUNL`). */
export function readNegativeUnl(profile: ChainProfile, blob: Uint8Array): Set<string> {
  const object = profile.codec.decode(blob);
  if (object.LedgerEntryType !== 'NegativeUNL') throw new Error(`the object is a ${String(object.LedgerEntryType)}, not the NegativeUNL`);
  const disabled = new Set<string>();
  const entries: unknown = object.DisabledValidators ?? [];
  if (!Array.isArray(entries)) return disabled;
  for (const entry of entries) {
    const key = (entry as { DisabledValidator?: { PublicKey?: unknown } }).DisabledValidator?.PublicKey;
    // rippled skips an entry whose key is not a public key.
    if (typeof key === 'string' && isPublicKeyHex(key.toUpperCase())) disabled.add(key.toUpperCase());
  }
  return disabled;
}
