import { getProfile, type ChainProfile } from '@ledger-node/chain';
import { listValue, readTokenFile, secretFileAccess, serviceAddress, type ParsedFlags } from '@ledger-node/config';
import type { LogLevel } from '@ledger-node/telemetry';

export interface Listener {
  host: string;
  port: number;
}

export interface FacadeConfig {
  /** JSON-RPC listener, when -rpc. */
  rpc?: Listener;
  /** REST listener, when -api. */
  api?: Listener;
  /** rippled's WebSocket and HTTP JSON-RPC API, when -ws. */
  ws?: Listener;
  /** Most bytes of messages a WebSocket client may leave unread before it is disconnected (-ws_queue_bytes). */
  wsQueueBytes: number;
  /** Most ledgers a stream's resume point may be behind the newest stored ledger (-max_resume_ledgers). */
  maxResumeLedgers: number;
  /** Ledgers a second every stream's catch-up reads from the store together (-resume_rate). */
  resumeRate: number;
  ledgerStoreAddress: string;
  syncAddress: string;
  keystoreAddress: string;
  submissionAddress: string;
  /** Token the keystore requires when it listens on TCP. */
  keystoreToken?: string;
  /** Bearer token for the signing methods (-rpc_token_file). */
  rpcToken?: string;
  /** Host names the listeners answer besides IP addresses (-rpc_allowed_hosts). */
  allowedHosts: string[];
  /** Origins whose pages may call the listeners (-rpc_cors_origins). */
  corsOrigins: string[];
  /** Proxies whose X-Forwarded-For names the client (-trusted_proxies). */
  trustedProxies: string[];
  /** -sync: whether a sync service runs at all. */
  syncEnabled: boolean;
  /** -read_only: no keystore or submission runs, and their calls are refused (clients.ts). */
  readOnly: boolean;
  profile: ChainProfile;
  /** -network_id, which the rippled API states; undefined states none. */
  networkId: number | undefined;
  logLevel: LogLevel;
  /** Largest accepted request body. */
  maxBodyBytes: number;
  /** Most open connections per listener. */
  maxConnections: number;
  /** Most calls in one JSON-RPC batch. */
  maxBatchLength: number;
  /** Most bytes the answers to one JSON-RPC request may take. */
  maxResponseBytes: number;
  /** Most transactions in one history page. */
  maxPageSize: number;
  /** Sends one client may make a second (0: no limit). */
  sendRate: number;
  /** -send_rate_local: clients on this host counted too. */
  sendRateLocal: boolean;
  /** Bound of the cache of answers that never change (-answer_cache_mb). */
  answerCacheBytes: number;
  /** -hot_set_mb: the hot set's bound (queries/hot-set.ts); 0: none. */
  hotSetBytes: number;
}

export function facadeConfig(flags: ParsedFlags): FacadeConfig {
  return {
    rpc: flags.boolean('rpc') ? { host: flags.string('rpcaddr')!, port: flags.integer('rpcport')! } : undefined,
    api: flags.boolean('api') ? { host: flags.string('apiaddr')!, port: flags.integer('apiport')! } : undefined,
    ws: flags.boolean('ws') ? { host: flags.string('wsaddr')!, port: flags.integer('wsport')! } : undefined,
    wsQueueBytes: flags.integer('ws_queue_bytes')!,
    maxResumeLedgers: flags.integer('max_resume_ledgers')!,
    resumeRate: flags.integer('resume_rate')!,
    ledgerStoreAddress: serviceAddress(flags, 'ledger-store'),
    syncAddress: serviceAddress(flags, 'sync'),
    keystoreAddress: serviceAddress(flags, 'keystore'),
    submissionAddress: serviceAddress(flags, 'submission'),
    keystoreToken: optionalToken(flags, 'keystore_token_file'),
    rpcToken: optionalToken(flags, 'rpc_token_file'),
    allowedHosts: listValue(flags.string('rpc_allowed_hosts')),
    corsOrigins: listValue(flags.string('rpc_cors_origins')),
    trustedProxies: listValue(flags.string('trusted_proxies')),
    syncEnabled: flags.boolean('sync'),
    readOnly: flags.boolean('read_only'),
    profile: getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') }),
    networkId: flags.integer('network_id'),
    logLevel: flags.string('log_level') as LogLevel,
    maxBodyBytes: flags.integer('max_body_bytes')!,
    maxConnections: flags.integer('max_connections')!,
    maxBatchLength: flags.integer('max_batch')!,
    maxResponseBytes: flags.integer('max_response_bytes')!,
    maxPageSize: flags.integer('max_page_size')!,
    sendRate: flags.integer('send_rate')!,
    sendRateLocal: flags.boolean('send_rate_local'),
    answerCacheBytes: flags.integer('answer_cache_mb')! * 1_048_576,
    hotSetBytes: flags.integer('hot_set_mb')! * 1_048_576,
  };
}

function optionalToken(flags: ParsedFlags, flag: string): string | undefined {
  const file = flags.string(flag);
  return file === undefined ? undefined : readTokenFile(file, flag, secretFileAccess(flags));
}
