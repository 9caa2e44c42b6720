/**
 * Everything sync refused, by reason, for the status and the metric: ledgers that failed
 * verification (header, tree, duplicate, transaction hash, parent or child link), state downloads
 * whose root did not verify, malformed upstream messages, and verified ledgers the store refused.
 * Nothing refused is ever stored.
 */
import { counter } from '@ledger-node/telemetry';

const refusalsTotal = counter('ledger_node_sync_verification_failures_total', 'What sync refused and never stored, by reason: a hash or link that did not verify, a malformed message, a ledger the store refused', ['reason']);

export class Refusals {
  private readonly byReason = new Map<string, bigint>();

  count(reason: string): void {
    this.byReason.set(reason, (this.byReason.get(reason) ?? 0n) + 1n);
    refusalsTotal.inc({ reason });
  }

  /** Reason → count, reasons in name order. */
  toRecord(): Record<string, bigint> {
    return Object.fromEntries([...this.byReason].sort(([a], [b]) => a.localeCompare(b)));
  }
}
