import type { ParsedFlags } from '@ledger-node/config';
import { flushCompileCache } from '../compile-cache';
import { loadService, type ServiceName } from '../services';

/** Longest a service may take to stop before the process exits anyway. */
const stopTimeoutMs = 8_000;

/**
 * Runs one service in this process until SIGTERM/SIGINT (or, under the supervisor, until the
 * supervisor goes away), then stops it cleanly and exits 0. The handlers are in place before the
 * service starts: a stop asked for during start-up is carried out as soon as the service is up,
 * instead of the signal's default action killing the process half-way.
 */
export async function serve(name: ServiceName, flags: ParsedFlags): Promise<number> {
  let stopRequested = false;
  let stop = () => {
    stopRequested = true;
  };
  const requestStop = () => stop();
  // Kept (not `once`): a second signal while stopping must not kill the process half-way.
  process.on('SIGTERM', requestStop);
  process.on('SIGINT', requestStop);
  // Under the supervisor: when it is gone, nobody will stop us, so stop now. It may be gone
  // already (killed while this process was loading): an IPC channel closed before we listened.
  process.once('disconnect', requestStop);
  if (process.send !== undefined && !process.connected) requestStop();

  const service = await loadService(name);
  const running = await service.start(flags);
  flushCompileCache();
  if (!stopRequested && process.connected) process.send?.({ type: 'ready', service: name, address: running.address ?? running.url });

  return new Promise<number>((resolve) => {
    let stopping = false;
    stop = () => {
      if (stopping) return;
      stopping = true;
      const timer = setTimeout(() => {
        process.stderr.write(`ledger-node: ${name} did not stop within ${stopTimeoutMs} ms\n`);
        process.exit(1);
      }, stopTimeoutMs);
      timer.unref();
      running.stop().then(
        () => {
          // Only a process started with an IPC channel has disconnect (@types/node 26 says so).
          if (process.connected) process.disconnect?.();
          resolve(0);
        },
        (error: unknown) => {
          process.stderr.write(`ledger-node: ${name} failed to stop: ${String(error)}\n`);
          resolve(1);
        },
      );
    };
    if (stopRequested) stop();
  });
}
