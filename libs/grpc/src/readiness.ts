import { STARTUP_GRACE_MS, type Logger } from '@ledger-node/telemetry';
import { createGrpcClient } from './client';
import { HealthService, ServingStatus } from './health';

/** What a service needs before it can do its work: undefined when ready, else why not. */
export interface ReadinessCheck {
  (): Promise<string | undefined>;
  close?(): void;
}

/**
 * Re-evaluates `check` every `intervalMs` and reports the result through grpc.health.v1
 * (`setReady`), logging each change. Not being ready yet while the node starts is expected (the
 * services it calls start beside it): said at debug, and warned about only when it lasts past
 * `startupGraceMs`. Once ready, losing it is warned about at once. Returns the function that stops watching.
 */
export function watchReadiness(
  server: { setReady(ready: boolean): void },
  check: ReadinessCheck,
  logger: Logger,
  intervalMs = 2_000,
  startupGraceMs = STARTUP_GRACE_MS,
): () => void {
  let stopped = false;
  let lastReason: string | undefined | null = null;
  let everReady = false;
  let slowStartWarned = false;
  const startedAtMs = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const evaluate = async () => {
    const reason = await check().catch((error: unknown) => `readiness check failed: ${(error as Error).message}`);
    if (stopped) return;
    const slowStart = !everReady && reason !== undefined && !slowStartWarned && Date.now() - startedAtMs >= startupGraceMs;
    if (slowStart) {
      slowStartWarned = true;
      logger.warn({ reason }, `not ready ${Math.round((Date.now() - startedAtMs) / 1000)} s after start: ${reason}`);
    }
    if (reason !== lastReason) {
      if (reason === undefined) logger.info('ready');
      else if (everReady) logger.warn({ reason }, `not ready: ${reason}`);
      else if (!slowStart) logger.debug({ reason }, `not ready yet: ${reason}`);
      everReady ||= reason === undefined;
      server.setReady(reason === undefined);
      lastReason = reason;
    }
    timer = setTimeout(() => void evaluate(), intervalMs);
    timer.unref();
  };
  void evaluate();
  return () => {
    stopped = true;
    clearTimeout(timer);
    check.close?.();
  };
}

/** A check that the gRPC servers at `addresses` (by label) report SERVING on grpc.health.v1. */
export function dependenciesServing(addresses: Record<string, string>, deadlineMs = 1_000): ReadinessCheck {
  const clients = Object.entries(addresses).map(([label, address]) => ({ label, client: createGrpcClient(HealthService, address, { deadlineMs, serviceLabel: label }) }));
  const check: ReadinessCheck = async () => {
    const states = await Promise.all(
      clients.map(async ({ label, client }) => {
        const answer = await client.check({ service: '' }).then(
          (response) => response.status,
          (error: unknown) => (error as Error).message,
        );
        if (answer === ServingStatus.SERVING) return undefined;
        return typeof answer === 'string' ? answer : `${label} not ready`;
      }),
    );
    const missing = states.filter((state): state is string => state !== undefined);
    return missing.length === 0 ? undefined : missing.join('; ');
  };
  check.close = () => {
    for (const { client } of clients) client.close();
  };
  return check;
}
