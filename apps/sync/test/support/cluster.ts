/** Real processes for the end-to-end tests: a devnet, a ledger-store and a sync service, each its own process. */
import { LedgerStoreServiceService, SyncServiceService, TxDetail } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import { cliEntry, connectUpstream, devnetValidatorsFile, startProcess, tempDir, type RunningProcess, type StoreUnderTest } from '@ledger-node/test-utils';

export interface Devnet {
  process: RunningProcess;
  url: string;
}

/** A devnet; `history` (LEDGERSxTXS) makes it build that many ledgers before it listens (LEDGER_NODE_DEVNET_HISTORY). */
export async function startDevnet(args: string[], history?: string): Promise<Devnet> {
  const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', ...args], { env: history === undefined ? {} : { LEDGER_NODE_DEVNET_HISTORY: history } });
  const match = await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, 120_000);
  return { process: devnet, url: match[1]! };
}

/** A ledger-store on `dataDir`'s RocksDB, or on the store `store` names (storeServer().fresh()). */
export function startLedgerStore(dataDir: string, store?: StoreUnderTest): RunningProcess {
  return startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dataDir, ...(store?.flags ?? [])], { env: store?.env });
}

/** Where sync's upstream is named: an -endpoint URL, or an -endpoint_file. */
export type EndpointFlag = string | { file: string };

/**
 * Sync from `endpoint`, trusting the devnet's validators (their master keys, followed through the
 * devnet's manifests) unless `extra` names its own trust (-validators…, -validator_list_…; `-validators=` for none).
 */
export function startSync(dataDir: string, endpoint: EndpointFlag, extra: string[] = [], env: NodeJS.ProcessEnv = {}): RunningProcess {
  const trust = extra.some((flag) => flag.startsWith('-validator')) ? [] : ['-validators', devnetValidatorsFile(dataDir)];
  const upstream = typeof endpoint === 'string' ? ['-endpoint', endpoint] : ['-endpoint_file', endpoint.file];
  return startProcess([cliEntry(), 'serve', 'sync', '-data_dir', dataDir, ...upstream, ...trust, ...extra], { env });
}

/** Waits for the "serving" line of a service started with startLedgerStore / startSync. */
export function serving(service: RunningProcess): Promise<RegExpMatchArray> {
  return service.waitFor(/"msg":"serving"/, 30_000);
}

/** Waits for the ledger-store's "database open" line naming the backend `store` selected. */
export function opened(store: RunningProcess, storeUnderTest?: StoreUnderTest): Promise<RegExpMatchArray> {
  return store.waitFor(storeUnderTest?.kind === 'postgres' ? /"database":"the PostgreSQL database at postgres:\/\/[^"]*".*"msg":"database open as its / : /"database":"the database at [^"]*".*"msg":"database open as its /, 30_000);
}

/** A ledger-store and a sync service on `dataDir`, both serving, and clients of both (closed by `cleanups`). */
export async function startStoreAndSync(dataDir: string, endpoint: EndpointFlag, extra: string[], cleanups: (() => void)[], storeUnderTest?: StoreUnderTest, env?: NodeJS.ProcessEnv) {
  const store = startLedgerStore(dataDir, storeUnderTest);
  await serving(store);
  await opened(store, storeUnderTest);
  const sync = startSync(dataDir, endpoint, extra, env);
  await serving(sync);
  const clients = clientsFor(dataDir);
  cleanups.push(() => clients.close());
  return { store, sync, clients };
}

export function clientsFor(dataDir: string) {
  const store = createGrpcClient(LedgerStoreServiceService, `unix:${dataDir}/run/ledger-store.sock`, { deadlineMs: 10_000, serviceLabel: 'ledger-store' });
  const sync = createGrpcClient(SyncServiceService, `unix:${dataDir}/run/sync.sock`, { deadlineMs: 10_000, serviceLabel: 'sync' });
  return {
    store,
    sync,
    close() {
      store.close();
      sync.close();
    },
  };
}

export type Clients = ReturnType<typeof clientsFor>;

export async function storedLedger(clients: Clients, ledgerIndex: number) {
  const answer = await clients.store.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.HASHES });
  return answer.ledger;
}

/** A client for asking the devnet what it serves (test-utils connectUpstream: answers as rippled's messages). */
export type WsClient = Awaited<ReturnType<typeof connectUpstream>>;
export const WsClient = { open: connectUpstream };

export function scratchDir(cleanups: (() => void)[]): string {
  const { dir, remove } = tempDir('ledger-node-sync-');
  cleanups.push(remove);
  return dir;
}
