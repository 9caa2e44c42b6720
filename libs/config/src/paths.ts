import path from 'node:path';
import type { ParsedFlags } from './parse';

/** The data directory as an absolute path (`-data_dir`, default: the current directory). */
export function dataDir(flags: ParsedFlags): string {
  return path.resolve(flags.string('data_dir') ?? process.cwd());
}

export type ServiceName = 'ledger-store' | 'sync' | 'keystore' | 'submission';

/**
 * gRPC address of a service: its `-<service>_addr` flag, else a unix socket under `<data_dir>/run/`.
 * The listening service and its clients read the same flag, so they always agree.
 */
export function serviceAddress(flags: ParsedFlags, service: ServiceName): string {
  const explicit = flags.string(`${service.replace('-', '_')}_addr`);
  return explicit ?? `unix:${path.join(dataDir(flags), 'run', `${service}.sock`)}`;
}
