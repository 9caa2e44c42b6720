/**
 * A database on several PostgreSQL hosts — a primary and its streaming standbys — named as libpq
 * names it: `postgres://USER@HOST1:PORT1,HOST2:PORT2/DATABASE?target_session_attrs=read-write`
 * (node-postgres connects to one host; the list is parsed here, each host's settings by
 * pg-connection-string). A writer connects only to the host that is a primary now (findHost with
 * 'read-write': not in recovery, and its sessions not read-only); a reader to any host the URL's
 * target_session_attrs admits.
 */
import type pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

/** libpq's target_session_attrs values: which host of the list a session may use. */
export const SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type SessionAttrs = (typeof SESSION_ATTRS)[number];

/** One host of a database's URL: where to connect (`host:port` names it in messages). */
export interface DatabaseHost {
  name: string;
  config: pg.ClientConfig;
}

/** A database and the hosts that serve it, in the URL's order. */
export interface DatabaseHosts {
  hosts: readonly DatabaseHost[];
  /** The URL's target_session_attrs (libpq's default: any). Writers ask for 'read-write' whatever it says. */
  sessionAttrs: SessionAttrs;
}

/**
 * node-postgres, loaded by the first process that connects: a node on RocksDB never loads it (some
 * 25 modules each of its services would compile at start for nothing).
 */
export async function loadPg(): Promise<typeof pg> {
  return (await import('pg')).default;
}

const URL_SHAPE = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;
const DEFAULT_PORT = 5432;

/** One host of a URL's list: `name`, `name:port`, `[v6]` or `[v6]:port`. */
function parseHost(text: string): { host: string; port: number } | string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return `host "${text}" is not HOST or HOST:PORT`;
  const port = match[2] === undefined ? DEFAULT_PORT : Number(match[2]);
  if (port < 1 || port > 65_535) return `port ${match[2]} of "${text}" is not within 1-65535`;
  return { host: match[1]!, port };
}

/**
 * The hosts of a database URL, or why it is unusable (an Error whose message names the problem,
 * never a password). One host is a list of one.
 */
export function parseDatabaseUrl(url: string, password?: string): DatabaseHosts {
  const match = URL_SHAPE.exec(url);
  if (!match) throw new Error('must be postgres://[USER@]HOST[:PORT][,HOST[:PORT]…]/DATABASE');
  const [, scheme, userInfo, hostList = '', pathname = '', query = ''] = match;
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(SESSION_ATTRS as readonly string[]).includes(attrs)) throw new Error(`target_session_attrs=${attrs} is none of ${SESSION_ATTRS.join(', ')}`);
  params.delete('target_session_attrs');
  const rest = params.toString();
  const hostTexts = hostList === '' ? [] : hostList.split(',');
  if (hostTexts.length === 0) {
    // A host given as a query parameter (host=/var/run/postgresql) is one host, as pg reads it.
    if (!params.has('host')) throw new Error('names no host');
    return { hosts: [{ name: params.get('host')!, config: clientConfig(url.replace(/[?#].*$/, '') + (rest ? `?${rest}` : ''), password) }], sessionAttrs: attrs as SessionAttrs };
  }
  const seen = new Set<string>();
  const hosts = hostTexts.map((text): DatabaseHost => {
    const parsed = parseHost(text);
    if (typeof parsed === 'string') throw new Error(parsed);
    const name = `${parsed.host}:${parsed.port}`;
    if (seen.has(name)) throw new Error(`names the host ${name} twice`);
    seen.add(name);
    const single = `${scheme}://${userInfo === undefined ? '' : `${userInfo}@`}${parsed.host}:${parsed.port}${pathname}${rest ? `?${rest}` : ''}`;
    return { name, config: clientConfig(single, password) };
  });
  return { hosts, sessionAttrs: attrs as SessionAttrs };
}

/**
 * The pg client settings for a one-host URL and the password read from a file, if any; without it
 * the pg client reads PGPASSWORD or PGPASSFILE.
 */
function clientConfig(url: string, password: string | undefined): pg.ClientConfig {
  // Parsed here rather than given as connectionString: pg would let the URL's empty password
  // override the one given beside it.
  const { password: _none, ...config } = parseIntoClientConfig(url);
  return password === undefined ? config : { ...config, password };
}

/** What a host answered about itself. */
interface HostState {
  inRecovery: boolean;
  readOnly: boolean;
}

/** A host's role as a session sees it: a standby (in recovery), a primary whose sessions are read-only, or a primary. */
export const HOST_STATE_SQL = `SELECT pg_is_in_recovery() AS in_recovery, current_setting('transaction_read_only') = 'on' AS read_only`;

export async function hostState(client: pg.ClientBase): Promise<HostState> {
  const { rows } = await client.query<{ in_recovery: boolean; read_only: boolean }>(HOST_STATE_SQL);
  return { inRecovery: rows[0]!.in_recovery, readOnly: rows[0]!.read_only };
}

/** Why a host does not suit `wanted`, or undefined when it does. */
function unsuited(state: HostState, wanted: SessionAttrs): string | undefined {
  const writable = !state.inRecovery && !state.readOnly;
  switch (wanted) {
    case 'read-write':
      return writable ? undefined : state.inRecovery ? 'a standby (in recovery)' : 'read-only (default_transaction_read_only)';
    case 'primary':
      return state.inRecovery ? 'a standby (in recovery)' : undefined;
    case 'read-only':
      return writable ? 'read-write' : undefined;
    case 'standby':
      return state.inRecovery ? undefined : 'a primary';
    default:
      return undefined;
  }
}

/** No host of a database suits a session: each host's reason in the message (no password: none is ever in a reason). */
export class NoHostError extends Error {
  constructor(
    readonly wanted: SessionAttrs,
    readonly reasons: readonly { host: string; reason: string }[],
  ) {
    super(`no host is ${wanted === 'read-write' ? 'a writable primary' : wanted === 'any' ? 'reachable' : `${wanted}`}: ${reasons.map(({ host, reason }) => `${host} ${reason}`).join('; ')}`);
  }
}

/** A connected session on the host found, and that host. */
export interface FoundHost {
  host: DatabaseHost;
  client: pg.Client;
}

/**
 * Connects to the first host of `hosts` that suits `wanted`, asking each in turn as libpq does
 * (prefer-standby: a standby first, else any), and answers the open session with its host; throws
 * NoHostError with each host's reason when none does. `session` adds client settings (timeouts,
 * application_name) to every host's.
 */
export async function findHost(hosts: readonly DatabaseHost[], wanted: SessionAttrs, session: pg.ClientConfig = {}): Promise<FoundHost> {
  const { Client } = await loadPg();
  const reasons: { host: string; reason: string }[] = [];
  let fallback: FoundHost | undefined;
  for (const host of hosts) {
    const client = new Client({ ...host.config, ...session });
    // A connection that breaks before the caller listens is heard by the query that fails.
    client.on('error', () => undefined);
    try {
      await client.connect();
      const state = await hostState(client);
      const reason = unsuited(state, wanted === 'prefer-standby' ? 'standby' : wanted);
      if (reason === undefined) {
        if (fallback) await fallback.client.end().catch(() => undefined);
        return { host, client };
      }
      if (wanted === 'prefer-standby' && fallback === undefined) fallback = { host, client };
      else await client.end().catch(() => undefined);
      reasons.push({ host: host.name, reason: `is ${reason}` });
    } catch (error) {
      await client.end().catch(() => undefined);
      reasons.push({ host: host.name, reason: `cannot be reached (${error instanceof Error ? error.message : String(error)})` });
    }
  }
  if (fallback) return fallback;
  throw new NoHostError(wanted, reasons);
}
