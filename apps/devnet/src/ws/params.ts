/**
 * Ledger selection over the devnet's ledgers: rippled's selector (read by the shared reader) resolved
 * to a closed ledger or the live chain's open ledger.
 */
import { readLedgerSpec, RpcError, type JsonObject, type LedgerSpecDefault } from '@ledger-node/rippled-api';
import type { ClosedLedger } from '../engine/types';
import type { LedgerSource } from './ledger-source';

/** A ledger a request reads: a closed (validated) one, or the live chain's open ledger. */
export type LedgerRef = { kind: 'closed'; ledger: ClosedLedger } | { kind: 'open'; ledgerIndex: number };

/** The state index a ledger reference reads at. */
export function stateLedgerIndex(ref: LedgerRef): number {
  return ref.kind === 'closed' ? ref.ledger.header.ledgerIndex : ref.ledgerIndex;
}

function validated(source: LedgerSource): ClosedLedger {
  const ledger = source.validatedLedger();
  if (!ledger) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return ledger;
}

function closedAt(source: LedgerSource, ledgerIndex: number): LedgerRef {
  const ledger = source.ledger(ledgerIndex);
  if (ledger) return { kind: 'closed', ledger };
  // The open ledger is addressable by its index too (rippled: the current ledger's sequence).
  const openLedgerIndex = source.writer?.openLedgerIndex();
  if (openLedgerIndex === ledgerIndex) return { kind: 'open', ledgerIndex };
  throw new RpcError('lgrNotFound', 'ledgerNotFound');
}

/**
 * rippled lookupLedger over the devnet. A single node validates what it closes, so `closed` is the
 * validated ledger; a source without an open ledger (replay) answers `current` with its newest.
 */
export function resolveLedger(request: JsonObject, source: LedgerSource, fallback: LedgerSpecDefault = 'current'): LedgerRef {
  const spec = readLedgerSpec(request, fallback);
  switch (spec.kind) {
    case 'hash': {
      const ledger = source.ledgerByHash(spec.ledgerHash);
      if (!ledger) throw new RpcError('lgrNotFound', 'ledgerNotFound');
      return { kind: 'closed', ledger };
    }
    case 'index':
      return closedAt(source, spec.ledgerIndex);
    case 'validated':
    case 'closed':
      return { kind: 'closed', ledger: validated(source) };
    case 'current': {
      const openLedgerIndex = source.writer?.openLedgerIndex();
      return openLedgerIndex === undefined ? { kind: 'closed', ledger: validated(source) } : { kind: 'open', ledgerIndex: openLedgerIndex };
    }
  }
}

/** The ledger fields rippled adds to an answer read at a ledger. */
export function ledgerFields(ref: LedgerRef): JsonObject {
  return ref.kind === 'closed'
    ? { ledger_hash: ref.ledger.hash, ledger_index: ref.ledger.header.ledgerIndex, validated: true }
    : { ledger_current_index: ref.ledgerIndex, validated: false };
}
