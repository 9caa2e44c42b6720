import { booleanFlag, integerFlag, stringFlag, type FlagGroup } from '../flag';
import { nodePublicKeyHex, readValidatorList, XRPL_ALPHABET } from '@ledger-node/chain';
import { readFileSync } from 'node:fs';
import { endpointProblem, hasCredentials, endpointFileUrls, shownUrlList } from '../endpoints';
import { chainFlag, definitionsFlag, fileCheck, logLevelFlag } from './shared';

export const nodeOptions: FlagGroup = {
  title: 'Node',
  flags: [
    stringFlag({
      name: 'data_dir',
      description: 'Directory where ledgers, keys and service sockets are stored',
      default: undefined,
      defaultLabel: '.data in the working directory',
      valueName: 'DIR',
      seed: true,
    }),
    stringFlag({
      name: 'database_name',
      description: 'Name of the ledger database directory inside -data_dir',
      default: 'node.db',
      valueName: 'NAME',
      seed: true,
      check: (value) => (/^[A-Za-z0-9._-]+$/.test(value) && value !== '.' && value !== '..' ? undefined : 'must be a plain directory name'),
    }),
    chainFlag,
    definitionsFlag,
    integerFlag({
      name: 'network_id',
      description:
        "The network's id, as rippled's [network_id] says it (XRP Ledger: 0 mainnet, 1 testnet, 2 devnet): sync uses no endpoint that names another; the rippled API (-ws) states it in server_info and the ledger stream and encodes it in each transaction's CTID, and tx by CTID refuses another network's; unset, it states none and gives no CTIDs",
      default: undefined,
      defaultLabel: "none (with -dev, the devnet's: 0)",
      min: 0,
      max: 4_294_967_295,
      valueName: 'ID',
    }),
    booleanFlag({
      name: 'dev',
      description: 'Start an embedded local devnet and sync from it (no network needed)',
      default: false,
    }),
    booleanFlag({
      name: 'read_only',
      description:
        'Serve the chain only: no keystore and no submission service is started (nor needed by the facade), and the methods that list local accounts, sign, send, submit or forward to the upstream answer that this node is read-only',
      default: false,
    }),
    logLevelFlag,
  ],
};

export const syncOptions: FlagGroup = {
  title: 'Synchronisation',
  flags: [
    booleanFlag({ name: 'sync', description: 'Start real-time ledger synchronisation', default: true, seed: true }),
    stringFlag({
      name: 'endpoint',
      description: 'WebSocket URL(s) of the public node(s) to sync from, comma-separated, tried in order',
      default: undefined,
      defaultLabel: "the chain's public test network node",
      valueName: 'URL[,URL]',
      seed: true,
      check: (value) => {
        const urls = value.split(',').map((url) => url.trim());
        const problem = urls.map(endpointProblem).find((found) => found !== undefined);
        if (problem) return `${problem} (comma-separated for several)`;
        // A command line is public (ps, /proc): credentials there would be read by anyone on the machine.
        if (urls.some(hasCredentials)) return 'holds credentials (user:password@ or a query string): give such URLs in -endpoint_file';
        return undefined;
      },
      shown: shownUrlList,
    }),
    stringFlag({
      name: 'endpoint_file',
      description: 'File naming the endpoint URL(s) instead of -endpoint, one per line: for URLs with credentials (user:password@ or query tokens), which stay off the command line (mode 0600 or 0400); logs and status show them as ***',
      default: undefined,
      valueName: 'FILE',
      check: fileCheck(endpointFileUrls),
    }),
    stringFlag({
      name: 'validator_list_sites',
      description:
        "Sites serving a publisher-signed validator list (rippled's [validator_list_sites]), comma-separated: the validators it names prove each ledger with their signed validations, under the keys their manifests name, down to rippled's quorum (lowered by the ledger's negative UNL); refreshed on the list's schedule, and the last verified list is kept in -data_dir",
      default: undefined,
      defaultLabel: "the network's (-network_id, else the default endpoint's): XRP Ledger mainnet vl.ripple.com and unl.xrplf.org, testnet vl.altnet.rippletest.net; none for Jingtum",
      valueName: 'URL[,URL]',
      check: (value) => listProblem(value, validatorListSiteProblem),
    }),
    stringFlag({
      name: 'validator_list_keys',
      description: "Master keys of the publishers whose lists are trusted (rippled's [validator_list_keys]), 66 hex digits each, comma-separated; given without -validator_list_sites or -validator_list_file, each list is read from the endpoints at /vl/KEY (where rippled serves the lists it holds, and the devnet its own); none: no published list (then -validators keys, or agreeing endpoints, prove ledgers)",
      default: undefined,
      defaultLabel: "the network's publishers, with the sites above",
      valueName: 'KEY[,KEY]|none',
      check: (value) => (value === 'none' ? undefined : listProblem(value, publisherKeyProblem)),
    }),
    stringFlag({
      name: 'validator_list_file',
      description: 'Published validator list documents read from files instead of (or beside) the sites, comma-separated: for machines that cannot reach a site; they are verified like a fetched list',
      default: undefined,
      valueName: 'FILE[,FILE]',
      check: (value) => listProblem(value, fileCheck(readJsonFile)),
    }),
    stringFlag({
      name: 'validators',
      description:
        'Validator public keys trusted beside any published list, for private networks: one key per line (n… or 66 hex digits), a master key (followed through its manifests) or a signing key, optionally a line "quorum N" (default: rippled\'s, 80% of the keys rounded up); given alone, no published list is used. With no list and no key at all, at least two -endpoint servers must agree on each ledger',
      default: undefined,
      defaultLabel: "none (-dev: the devnet's published list)",
      valueName: 'FILE',
      check: fileCheck(readValidatorList),
    }),
    integerFlag({
      name: 'thread_count',
      description: 'Number of concurrent ledger fetchers used for synchronisation',
      default: 8,
      min: 1,
      max: 256,
      valueName: 'N',
      seed: true,
    }),
    integerFlag({
      name: 'proof_window',
      description:
        'Ledgers below the newest proven one whose account state tree sync keeps in memory, so that jt_getProof proves account state at them; the trees share what the ledgers did not change',
      default: 256,
      min: 0,
      max: 65_536,
      valueName: 'N',
    }),
    integerFlag({
      name: 'start_ledger',
      description: 'Oldest ledger to backfill down to',
      default: undefined,
      defaultLabel: "the upstream's earliest available ledger",
      min: 1,
      max: 4_294_967_295,
      valueName: 'INDEX',
    }),
  ],
};

export const apiOptions: FlagGroup = {
  title: "JSON REST API, JSON-RPC API and rippled's API",
  flags: [
    booleanFlag({ name: 'api', description: 'Start the JSON REST API service', default: false, seed: true }),
    stringFlag({ name: 'apiaddr', description: 'Address on which the JSON REST API listens', default: 'localhost', valueName: 'HOST', seed: true }),
    integerFlag({ name: 'apiport', description: 'Port of the JSON REST API', default: 7544, min: 0, max: 65535, valueName: 'PORT', seed: true }),
    booleanFlag({ name: 'rpc', description: 'Start the JSON-RPC API service', default: false, seed: true }),
    stringFlag({ name: 'rpcaddr', description: 'Address on which the JSON-RPC API listens', default: 'localhost', valueName: 'HOST', seed: true }),
    integerFlag({ name: 'rpcport', description: 'Port of the JSON-RPC API', default: 7545, min: 0, max: 65535, valueName: 'PORT', seed: true }),
    booleanFlag({
      name: 'ws',
      description: "Start rippled's WebSocket and HTTP JSON-RPC API (for xrpl.js, xrpl-py, @swtc/lib…), with ledger and transaction streams that resume from a client's last ledger",
      default: false,
    }),
    stringFlag({ name: 'wsaddr', description: "Address on which rippled's API (-ws) listens", default: 'localhost', valueName: 'HOST' }),
    integerFlag({ name: 'wsport', description: "Port of rippled's API (-ws): WebSocket on any path, HTTP JSON-RPC at POST /", default: 7546, min: 0, max: 65535, valueName: 'PORT' }),
    integerFlag({
      name: 'ws_queue_bytes',
      description: 'Most bytes of stream messages a WebSocket client (-ws, and /v1/ws on -rpcport) may leave unread; past it the connection is closed with code 1008 "client too slow"',
      default: 16_777_216,
      min: 65_536,
      max: 1_073_741_824,
      valueName: 'BYTES',
    }),
    integerFlag({
      name: 'max_resume_ledgers',
      description:
        "Most ledgers a stream resume (rippled's from_ledger, jt_subscribe's fromBlock) may replay from the store: a resume point further behind the newest validated ledger is refused before any read (lgrNotFound / -32002, naming the earliest allowed); 0: resume at the newest ledger only",
      default: 256,
      min: 0,
      max: 4_294_967_295,
      valueName: 'N',
    }),
    integerFlag({
      name: 'resume_rate',
      description:
        'Ledgers a second all streams catching up (resumed ones, and subscribers the follower outran) may read from the store together, node-wide; past it their reads wait their turn, the ledgers held in memory are free',
      default: 100,
      min: 1,
      max: 100_000,
      valueName: 'N',
    }),
  ],
};

/** The flags that say what proves a ledger: given any of them, they say it all (no network default). */
export const TRUST_FLAGS = ['validator_list_sites', 'validator_list_keys', 'validator_list_file', 'validators'] as const;

/** The first problem of any comma-separated entry of a list flag. */
function listProblem(value: string, problemOf: (entry: string) => string | undefined): string | undefined {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) return 'has an empty entry (comma-separated, no spaces needed)';
  return entries.map(problemOf).find((problem) => problem !== undefined);
}

function validatorListSiteProblem(site: string): string | undefined {
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    return `'${site}' is not a URL`;
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) return `'${site}' is not an http, https or file URL`;
  if (url.username !== '' || url.password !== '') return `'${site}' holds credentials`;
  return undefined;
}

function publisherKeyProblem(key: string): string | undefined {
  try {
    nodePublicKeyHex(key, { addressAlphabet: XRPL_ALPHABET });
    return undefined;
  } catch {
    return `'${key.slice(0, 80)}' is not a publisher public key (66 hex digits)`;
  }
}

function readJsonFile(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}
