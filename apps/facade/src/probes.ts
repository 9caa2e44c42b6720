/**
 * Operational endpoints on every facade listener: `/healthz` (the process answers), `/readyz`
 * (its dependencies answer: ledger-store, and sync within `-ready_lag` ledgers of the upstream
 * when -sync) and, with -listener_metrics, `/metrics` (Prometheus).
 */
import type Koa from 'koa';
import { metricsText } from '@ledger-node/telemetry';
import type { Clients } from './clients';
import type { SyncStatusCache } from './sync-status';

/** A probe must answer well within a Kubernetes probe's default 1 s timeout. */
const probeDeadlineMs = 800;

export interface ReadinessOptions {
  clients: Clients;
  syncStatus: Pick<SyncStatusCache, 'status'>;
  syncEnabled: boolean;
  /** Most ledgers sync may be behind the upstream while still ready. */
  readyLagLedgers: number;
}

export interface ProbeOptions extends ReadinessOptions {
  /** Whether `/metrics` is answered here too (-listener_metrics). */
  metrics: boolean;
}

export type CheckResult = { ok: true; detail?: string } | { ok: false; reason: string };

/** Each dependency's state; ready when every one is ok. */
export async function readiness(options: ReadinessOptions): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
  const checks: Record<string, Promise<CheckResult>> = {
    'ledger-store': options.clients.ledgerStore.getStatus({}, { deadlineMs: probeDeadlineMs }).then(
      (status): CheckResult => ({ ok: true, detail: `highest stored ledger ${status.highestLedgerIndex ?? 'none'}` }),
      (error: unknown): CheckResult => ({ ok: false, reason: (error as Error).message }),
    ),
  };
  if (options.syncEnabled) {
    checks.sync = options.syncStatus.status({ deadlineMs: probeDeadlineMs }).then(
      (status): CheckResult => {
        if (status.stopped !== undefined) return { ok: false, reason: status.stopped };
        if (!status.upstreamConnected) return { ok: false, reason: 'not connected to the upstream' };
        if (status.lagLedgers > options.readyLagLedgers) {
          return { ok: false, reason: `${status.lagLedgers} ledgers behind the upstream (ready within ${options.readyLagLedgers})` };
        }
        return { ok: true, detail: `${status.lagLedgers} ledgers behind the upstream` };
      },
      (error: unknown): CheckResult => ({ ok: false, reason: (error as Error).message }),
    );
  }
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => checks[name]!));
  const settled = Object.fromEntries(names.map((name, index) => [name, results[index]!]));
  return { ready: results.every((result) => result.ok), checks: settled };
}

export function probeRoutes(options: ProbeOptions): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    switch (ctx.path) {
      case '/healthz':
        ctx.body = { status: 'up' };
        return;
      case '/readyz': {
        const { ready, checks } = await readiness(options);
        ctx.status = ready ? 200 : 503;
        ctx.body = { status: ready ? 'ready' : 'not ready', checks };
        return;
      }
      case '/metrics': {
        if (!options.metrics) return next();
        const { contentType, body } = await metricsText();
        ctx.type = contentType;
        ctx.body = body;
        return;
      }
      default:
        return next();
    }
  };
}
