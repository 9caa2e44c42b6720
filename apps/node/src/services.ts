/**
 * The services the CLI can run, by name. Each app's `main.ts` exports `start(flags)`; apps are
 * loaded at run time, by the process that runs them, and never import each other.
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

/*
 * One literal specifier per service, so that tsx and the bundler (tools/build) both see every
 * service; each stays a dynamic import, loaded only by the process that runs it. The CLI is the
 * one app that starts the others: the other apps never import each other.
 */
/* eslint-disable @nx/enforce-module-boundaries -- the CLI's service table, loaded lazily; see above */
const modules: Record<ServiceName, () => Promise<ServiceModule>> = {
  'ledger-store': () => import('@ledger-node/ledger-store/main'),
  keystore: () => import('@ledger-node/keystore/main'),
  submission: () => import('@ledger-node/submission/main'),
  sync: () => import('@ledger-node/sync/main'),
  facade: () => import('@ledger-node/facade/main'),
  devnet: () => import('@ledger-node/devnet/main'),
};
/** The ledger-store's export and import (`ledger-node export`, `ledger-node import`), which open the store in this process. */
const transfer = () => import('@ledger-node/ledger-store/transfer');
/* eslint-enable @nx/enforce-module-boundaries */

export function loadService(name: ServiceName): Promise<ServiceModule> {
  return modules[name]();
}

export type TransferModule = Awaited<ReturnType<typeof transfer>>;

export function loadTransfer(): Promise<TransferModule> {
  return transfer();
}
