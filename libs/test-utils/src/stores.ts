/**
 * The ledger-store's backends as the end-to-end suites run them: RocksDB under the test's data
 * directory, or a database of its own on a real PostgreSQL server the suite starts.
 */
import { startPostgres, type RunningPostgres } from './postgres';

export type StoreKind = 'rocksdb' | 'postgres';

/** Every backend, for `describe.each(STORE_KINDS)`. */
export const STORE_KINDS: readonly StoreKind[] = ['rocksdb', 'postgres'];

/** How a ledger-store process (or a node) is pointed at one test's store: flags and environment. */
export interface StoreUnderTest {
  readonly kind: StoreKind;
  readonly flags: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface StoreServer {
  /** A new, empty store (RocksDB: the data directory's own; PostgreSQL: a new database). */
  fresh(): Promise<StoreUnderTest>;
  /** Stops the PostgreSQL server, if one was started; safe to call twice. */
  stop(): Promise<void>;
}

const ROCKSDB: StoreUnderTest = { kind: 'rocksdb', flags: [], env: {} };

/**
 * The server behind `kind`'s stores, started on first use. The PostgreSQL password reaches the
 * ledger-store in PGPASSWORD, never on its command line.
 */
export function storeServer(kind: StoreKind): StoreServer {
  let server: Promise<RunningPostgres> | undefined;
  return {
    async fresh() {
      if (kind === 'rocksdb') return ROCKSDB;
      server ??= startPostgres();
      const { host, port, user, password, database } = await (await server).createDatabase();
      return { kind, flags: ['-store', `postgres://${user}@${host}:${port}/${database}`], env: { PGPASSWORD: password } };
    },
    async stop() {
      await (await server?.catch(() => undefined))?.stop();
    },
  };
}
