import type { ParsedFlags } from '@ledger-node/config';
import { loadService, type ServiceName } from '../services';

/** Longest a service may take to stop before the process exits anyway. */
const stopTimeoutMs = 8_000;

/**
 * Runs one service in this process until SIGTERM/SIGINT (or, under the supervisor, until the
 * supervisor goes away), then stops it cleanly and exits 0.
 */
export async function serve(name: ServiceName, flags: ParsedFlags): Promise<number> {
  const service = await loadService(name);
  const running = await service.start(flags);
  process.send?.({ type: 'ready', service: name, address: running.address ?? running.url });

  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = () => {
      if (stopping) return;
      stopping = true;
      const timer = setTimeout(() => {
        process.stderr.write(`ledger-node: ${name} did not stop within ${stopTimeoutMs} ms\n`);
        process.exit(1);
      }, stopTimeoutMs);
      timer.unref();
      running.stop().then(
        () => {
          if (process.connected) process.disconnect();
          resolve(0);
        },
        (error: unknown) => {
          process.stderr.write(`ledger-node: ${name} failed to stop: ${String(error)}\n`);
          resolve(1);
        },
      );
    };
    // Kept (not `once`): a second signal while stopping must not kill the process half-way.
    process.on('SIGTERM', shutdown);
    process.on('SIGINT', shutdown);
    // Under the supervisor: when it is gone, nobody will stop us, so stop now.
    process.once('disconnect', shutdown);
  });
}
