import path from 'node:path';
import type { ParsedFlags } from './parse';

/**
 * The data directory when -data_dir is not set: `.data` in the working directory. Every command
 * uses it (`npm start` and `ledger-node account generate` from a checkout meet in `<checkout>/.data`,
 * which git ignores), and the node's files stay in one directory that removing resets.
 */
export const defaultDataDir = '.data';

/** The data directory as an absolute path (`-data_dir`, default: `.data` in the working directory). */
export function dataDir(flags: ParsedFlags): string {
  return path.resolve(flags.string('data_dir') ?? defaultDataDir);
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
