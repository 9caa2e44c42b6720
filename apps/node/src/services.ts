/**
 * The services the CLI can run, by name. Each app's `main.ts` exports `start(flags)`; apps are
 * loaded at run time by package name and never import each other.
 */
import type { ParsedFlags } from '@ledger-node/config';

export interface RunningService {
  /** Stops serving and releases every resource (sockets, database, upstream connections). */
  stop(): Promise<void>;
  /** Where it serves, for the status line (e.g. `unix:/data/run/ledger-store.sock`). */
  address?: string;
  /** A devnet answers with its WebSocket URL. */
  url?: string;
}

export interface ServiceModule {
  start(flags: ParsedFlags): Promise<RunningService>;
}

export const serviceNames = ['ledger-store', 'keystore', 'submission', 'sync', 'facade', 'devnet'] as const;
export type ServiceName = (typeof serviceNames)[number];

export function isServiceName(name: string): name is ServiceName {
  return (serviceNames as readonly string[]).includes(name);
}

const entries: Record<ServiceName, string> = {
  'ledger-store': '@ledger-node/ledger-store/main',
  keystore: '@ledger-node/keystore/main',
  submission: '@ledger-node/submission/main',
  sync: '@ledger-node/sync/main',
  facade: '@ledger-node/facade/main',
  devnet: '@ledger-node/devnet/main',
};

export async function loadService(name: ServiceName): Promise<ServiceModule> {
  const entry = entries[name];
  return (await import(entry)) as ServiceModule;
}
