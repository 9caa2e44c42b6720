/** The LedgerWrite of a verified ledger (libs/chain verifiedLedgerWrite), its index failures told to the sync's health. */
import { verifiedLedgerWrite, type ChainProfile, type VerifiedLedger } from '@ledger-node/chain';
import type { LedgerWrite, StateObjectChange } from '@ledger-node/contracts';
import type { SyncHealth } from '../sync-health';

/**
 * The LedgerWrite of a verified ledger, with its proven state changes when they are known
 * (state/state-changes.ts: the objects it created, modified or deleted, with their images after and
 * before it); without them the ledger is stored and its state proven later (state/state-prover.ts).
 */
export function ledgerWriteOf(ledger: VerifiedLedger, profile: ChainProfile, health: SyncHealth, provenChanges?: StateObjectChange[]): LedgerWrite {
  return verifiedLedgerWrite(ledger, profile, (failure) => health.indexFailed(failure), provenChanges);
}
