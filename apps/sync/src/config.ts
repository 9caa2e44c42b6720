import { dataDir, FlagError, listValue, serviceAddress, TRUST_FLAGS, storeTarget, upstreamEndpoints, type ParsedFlags, type UpstreamEndpoints } from '@ledger-node/config';
import { chainNetwork, defaultEndpointOf, getProfile, nodePublicKeyHex, readValidatorList, XRPL_ALPHABET, type ChainProfile, type ValidatorList } from '@ledger-node/chain';
import path from 'node:path';
import { describeDatabase, parseDatabaseUrl, type WriterLockTarget } from '@ledger-node/postgres';
import type { LogLevel } from '@ledger-node/telemetry';

export interface SyncConfig {
  profile: ChainProfile;
  /** Upstream WebSocket URLs, tried in this order. */
  /** -endpoint or -endpoint_file: shown URLs, and those with credentials to connect to. */
  endpoints: UpstreamEndpoints;
  /** What proves a ledger: published lists, -validators keys, or (neither) agreeing endpoints. */
  trust: TrustConfig;
  threadCount: number;
  /** Oldest ledger to backfill; undefined means the upstream's earliest available. */
  startLedger: number | undefined;
  /** The newest ledgers the ledger-store keeps (-ledger_history); 0 keeps every ledger. */
  ledgerHistory: number;
  /** Ledgers below the newest proven one whose state tree is kept for state proofs (-proof_window). */
  proofWindow: number;
  /** -network_id: endpoints on another network are not used. */
  networkId: number | undefined;
  /** gRPC address this service listens on. */
  address: string;
  ledgerStoreAddress: string;
  logLevel: LogLevel;
  /** Objects per ledger_data page of the state download. */
  stateDownloadPageSize: number;
  /**
   * With -store postgres://… (the node's flags are global): follow and backfill only while holding
   * the database's 'sync' writer lock. Sync still writes through its ledger-store; the lock makes it
   * the one sync of that database. Undefined with -store_read or without -store.
   */
  writerLock?: WriterLockTarget;
}

export interface TrustConfig {
  /** Publisher master keys (-validator_list_keys), uppercase hex. */
  publisherKeys: string[];
  /** Where their lists are fetched (-validator_list_sites: http, https or file URLs). */
  sites: string[];
  /** List documents read from files (-validator_list_file). */
  listFiles: string[];
  /** -validators: keys trusted beside the lists. */
  validators: ValidatorList | undefined;
  /** Where the lists come from, for the status: the flags, or the network whose defaults these are. */
  origin: string;
  /** Where the last verified list of each publisher is kept. */
  keptListsDir: string;
  /** Fetches each site this often instead of on the list's schedule (LEDGER_NODE_VALIDATOR_LIST_REFRESH_MS, for tests). */
  refreshMs?: number;
}

/** `http(s)://HOST:PORT/vl/<KEY>` of each endpoint (ws becomes http, wss https) for each publisher key. */
function endpointSites(endpoints: UpstreamEndpoints, publisherKeys: readonly string[]): string[] {
  return endpoints.urls.flatMap((shown) => {
    const url = new URL(endpoints.connectUrl(shown));
    return publisherKeys.map((key) => `${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}/vl/${key}`);
  });
}

/**
 * What proves a ledger: with any trust flag given, exactly what the flags say; else the published
 * lists of the network (-network_id, else the default endpoint's) the profile knows.
 */
function trustConfig(flags: ParsedFlags, profile: ChainProfile, networkId: number | undefined, endpoints: UpstreamEndpoints): TrustConfig {
  const keptListsDir = path.join(dataDir(flags), 'validator-lists');
  if (TRUST_FLAGS.some((flag) => flags.given(flag))) {
    const keysFlag = flags.string('validator_list_keys');
    const publisherKeys = (keysFlag === 'none' ? [] : listValue(keysFlag)).map((key) => nodePublicKeyHex(key, { addressAlphabet: XRPL_ALPHABET }));
    const sites = listValue(flags.string('validator_list_sites'));
    const listFiles = listValue(flags.string('validator_list_file'));
    if ((sites.length > 0 || listFiles.length > 0) && publisherKeys.length === 0) {
      throw new FlagError('-validator_list_sites and -validator_list_file need -validator_list_keys: the publisher keys their lists must be signed with');
    }
    // Keys alone: each list is read from the endpoints at /vl/<key>, where rippled serves the lists it holds.
    if (publisherKeys.length > 0 && sites.length === 0 && listFiles.length === 0) sites.push(...endpointSites(endpoints, publisherKeys));
    const validatorsFile = flags.string('validators');
    return { publisherKeys, sites, listFiles, validators: validatorsFile ? readValidatorList(validatorsFile) : undefined, origin: 'the command line', keptListsDir };
  }
  const network = chainNetwork(profile, networkId);
  if (!network || network.validatorListKeys.length === 0) return { publisherKeys: [], sites: [], listFiles: [], validators: undefined, origin: 'none', keptListsDir };
  return { publisherKeys: [...network.validatorListKeys], sites: [...network.validatorListSites], listFiles: [], validators: undefined, origin: `the ${profile.displayName} ${network.name} defaults`, keptListsDir };
}

/** rippled serves at most 2048 objects per binary ledger_data page (Tuning::binaryPageLength). */
const STATE_PAGE_SIZE = 2048;

/** A whole number from an environment variable (tests' knobs), within [min, max]; undefined when unset. */
function integerFromEnv(name: string, min: number, max: number): number | undefined {
  const configured = process.env[name];
  if (configured === undefined || configured === '') return undefined;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(configured)}`);
  return value;
}

/**
 * LEDGER_NODE_STATE_PAGE_SIZE sets a smaller ledger_data page, so that tests can stop a download
 * between pages of a small chain.
 */
function stateDownloadPageSize(): number {
  return integerFromEnv('LEDGER_NODE_STATE_PAGE_SIZE', 1, STATE_PAGE_SIZE) ?? STATE_PAGE_SIZE;
}

/** LEDGER_NODE_VALIDATOR_LIST_REFRESH_MS fetches the validator lists this often, so that tests see a new list in seconds. */
function listRefreshMs(): number | undefined {
  return integerFromEnv('LEDGER_NODE_VALIDATOR_LIST_REFRESH_MS', 100, 86_400_000);
}

/** The only place the sync service reads flags. */
export function syncConfig(flags: ParsedFlags): SyncConfig {
  // -chain has a default (libs/config), so it is always set.
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  const networkId = flags.integer('network_id');
  const endpoints = upstreamEndpoints(flags, defaultEndpointOf(profile, networkId));
  const store = storeTarget(flags);
  return {
    profile,
    endpoints,
    trust: { ...trustConfig(flags, profile, networkId, endpoints), refreshMs: listRefreshMs() },
    threadCount: flags.integer('thread_count') ?? 8,
    startLedger: flags.integer('start_ledger'),
    ledgerHistory: flags.integer('ledger_history') ?? 0,
    proofWindow: flags.integer('proof_window') ?? 256,
    networkId,
    address: serviceAddress(flags, 'sync'),
    ledgerStoreAddress: serviceAddress(flags, 'ledger-store'),
    logLevel: flags.string('log_level') as LogLevel,
    stateDownloadPageSize: stateDownloadPageSize(),
    ...(store.kind === 'postgres' && store.role === 'writer'
      ? { writerLock: { connection: parseDatabaseUrl(store.url, store.password).hosts, location: describeDatabase(store.url) } }
      : {}),
  };
}
