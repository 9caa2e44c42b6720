import { InvalidParams } from '@ledger-node/errors';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { JINGTUM_ALPHABET, XRPL_ALPHABET } from './base58';
import { createChainCodec, type ChainCodec } from './codec';
import {
  jingtumDefinitionsTable,
  jingtumLegacyContractTable,
  definitionsOf,
  LEGACY_CONTRACT_MARKER_FIELDS,
  readDefinitionsTable,
  xrplDefinitionsTable,
  type DefinitionsTable,
} from './definitions';
import { createChainKeys, type ChainKeys } from './keys';

export type ChainId = 'xrpl' | 'jingtum';

export interface ChainNetwork {
  id: number;
  name: string;
  endpoint: string;
  /** Sites serving the network's published validator list; none when no list is published. */
  validatorListSites: readonly string[];
  /** The master keys of the list publishers, uppercase hex. */
  validatorListKeys: readonly string[];
}

export interface ChainProfile {
  id: ChainId;
  displayName: string;
  /** Code of the native asset, counted in drops. */
  nativeCurrency: string;
  dropsPerUnit: bigint;
  /** Base58 alphabet of addresses and seeds. */
  addressAlphabet: string;
  /** Wire name of a trust line's no-rippling flag in `coins`. */
  noRippleWireName: 'no_ripple' | 'no_skywell';
  /** Ledger entry type of a trust line. */
  trustLineEntryType: 'RippleState' | 'SkywellState';
  /** Prepended to a `jt_sign` message so a signature cannot be replayed as a transaction. */
  signMessagePrefix: string;
  /** Fee of `jt_sendTransaction` / `jt_signTransaction` when none is given (SPEC §8). */
  defaultFee: bigint;
  /** Reference transaction cost in drops. */
  baseFee: bigint;
  /** Account reserve in drops. */
  reserveBase: bigint;
  /** Reserve per owned object in drops. */
  reserveIncrement: bigint;
  /** Public test-network WebSocket endpoint. */
  defaultEndpoint: string;
  /**
   * The chain's public networks by rippled `network_id`: the endpoint and the published validator
   * lists (rippled's [validator_list_sites] and [validator_list_keys]) each uses unless told otherwise.
   */
  networks: readonly ChainNetwork[];
  /** The network of `defaultEndpoint`, whose lists prove ledgers when no -network_id names another. */
  defaultNetworkId?: number;
  /** The account that holds every native unit in a fresh ledger (rippled's "masterpassphrase" account). */
  genesis: { secret: string; address: string; balanceDrops: bigint };
  /** Jingtum: issued-currency codes of four to six characters (`TEST`) besides the three-character ones. */
  longCurrencyCodes?: boolean;
  /** Field, type, transaction, ledger-entry and result codes of the chain's binary format. */
  definitions: XrplDefinitionsBase;
  /** The table `definitions` was built from, as read (rippled's definitions.json shape): what `server_definitions` answers. */
  definitionsTable: DefinitionsTable;
  codec: ChainCodec;
  /**
   * Jingtum only: the codec for blobs signed before swtclib's 2019 contract-field renumbering.
   * Use it for a blob whose decode with `codec` holds one of `legacyMarkerFields`.
   */
  legacyContractCodec?: ChainCodec;
  legacyMarkerFields?: readonly string[];
  keys: ChainKeys;
}

const DROPS_PER_UNIT = 1_000_000n;
const GENESIS_BALANCE_DROPS = 100_000_000_000n * DROPS_PER_UNIT;

const xrplBase: ProfileBase = {
  id: 'xrpl',
  displayName: 'XRP Ledger',
  nativeCurrency: 'XRP',
  dropsPerUnit: DROPS_PER_UNIT,
  addressAlphabet: XRPL_ALPHABET,
  noRippleWireName: 'no_ripple',
  trustLineEntryType: 'RippleState',
  signMessagePrefix: '\x19XRP Ledger Signed Message:\n',
  defaultFee: 12n,
  baseFee: 10n,
  // XRPL mainnet reserves since the December 2024 fee vote: 1 XRP per account, 0.2 XRP per owned object.
  reserveBase: 1_000_000n,
  reserveIncrement: 200_000n,
  defaultEndpoint: 'wss://s.altnet.rippletest.net:51233',
  // Public facts: the lists rippled's validators.txt names for each network (rippled cfg/validators-example.txt, xrpl.org).
  networks: [
    {
      id: 0,
      name: 'mainnet',
      endpoint: 'wss://xrplcluster.com',
      validatorListSites: ['https://vl.ripple.com', 'https://unl.xrplf.org'],
      validatorListKeys: ['ED2677ABFFD1B33AC6FBC3062B71F1E8397C1505E1C42C64D11AD1B28FF73F4734', 'ED42AEC58B701EEBB77356FFFEC26F83C1F0407263530F068C7C73D392C7E06FD1'],
    },
    {
      id: 1,
      name: 'testnet',
      endpoint: 'wss://s.altnet.rippletest.net:51233',
      validatorListSites: ['https://vl.altnet.rippletest.net'],
      validatorListKeys: ['ED264807102805220DA0F312E71FC2C69E1552C9C5790F6C25E3729DEB573D5860'],
    },
    { id: 2, name: 'devnet', endpoint: 'wss://s.devnet.rippletest.net:51233', validatorListSites: [], validatorListKeys: [] },
  ],
  defaultNetworkId: 1,
  genesis: {
    secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb',
    address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
    balanceDrops: GENESIS_BALANCE_DROPS,
  },
};

const jingtumBase: ProfileBase = {
  id: 'jingtum',
  displayName: 'Jingtum (SWTC)',
  nativeCurrency: 'SWT',
  dropsPerUnit: DROPS_PER_UNIT,
  addressAlphabet: JINGTUM_ALPHABET,
  noRippleWireName: 'no_skywell',
  trustLineEntryType: 'SkywellState',
  signMessagePrefix: '\x19Jingtum Signed Message:\n',
  defaultFee: 12n,
  // SWTC mainnet server_info (swtclib docs, ledger 17849981): base_fee_swt 0.00001, reserve_base_swt 20, reserve_inc_swt 5.
  baseFee: 10n,
  reserveBase: 20_000_000n,
  reserveIncrement: 5_000_000n,
  defaultEndpoint: 'ws://ts5.jingtum.com:5020',
  // No published validator list is known for the Jingtum network (docs/internals.md, "What proves a ledger").
  networks: [],
  genesis: {
    secret: 'snoPBjXtMeMyMHUVTgbuqAfg1SUTb',
    address: 'jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh',
    balanceDrops: GENESIS_BALANCE_DROPS,
  },
  legacyContractNumbering: true,
  longCurrencyCodes: true,
};

/** What a profile is apart from its binary format, which comes from a definitions table. */
type ProfileBase = Omit<ChainProfile, 'definitions' | 'definitionsTable' | 'codec' | 'legacyContractCodec' | 'legacyMarkerFields' | 'keys'> & {
  /** Jingtum: blobs signed before the 2019 contract-field renumbering are read with that numbering too. */
  legacyContractNumbering?: boolean;
};

function buildProfile(base: ProfileBase, table: DefinitionsTable): ChainProfile {
  const { legacyContractNumbering, ...profile } = base;
  const definitions = definitionsOf(table);
  const codecOf = (tableDefinitions: XrplDefinitionsBase) =>
    createChainCodec({ alphabet: base.addressAlphabet, definitions: tableDefinitions, longCurrencyCodes: base.longCurrencyCodes });
  return {
    ...profile,
    definitions,
    definitionsTable: table,
    codec: codecOf(definitions),
    ...(legacyContractNumbering
      ? { legacyContractCodec: codecOf(definitionsOf(jingtumLegacyContractTable(table))), legacyMarkerFields: LEGACY_CONTRACT_MARKER_FIELDS }
      : {}),
    keys: createChainKeys(base.addressAlphabet),
  };
}

const bases: Record<ChainId, { base: ProfileBase; table: DefinitionsTable }> = {
  xrpl: { base: xrplBase, table: xrplDefinitionsTable },
  jingtum: { base: jingtumBase, table: jingtumDefinitionsTable },
};

const profiles: Record<ChainId, ChainProfile> = {
  xrpl: buildProfile(xrplBase, xrplDefinitionsTable),
  jingtum: buildProfile(jingtumBase, jingtumDefinitionsTable),
};

/** Profiles built on a definitions file (-definitions), by chain and file. */
const withDefinitionsFile = new Map<string, ChainProfile>();

export const chainIds: readonly ChainId[] = Object.freeze(Object.keys(profiles) as ChainId[]);

/** The chain's public network with this id (default: the default endpoint's), if the profile knows it. */
export function chainNetwork(profile: Pick<ChainProfile, 'networks' | 'defaultNetworkId'>, networkId: number | undefined = profile.defaultNetworkId): ChainNetwork | undefined {
  return networkId === undefined ? undefined : profile.networks.find((network) => network.id === networkId);
}

/** The endpoint sync and submission use unless told: the -network_id network's, else the profile's default. */
export function defaultEndpointOf(profile: ChainProfile, networkId: number | undefined): string {
  return (networkId === undefined ? undefined : chainNetwork(profile, networkId)?.endpoint) ?? profile.defaultEndpoint;
}

export function isChainId(id: string): id is ChainId {
  return Object.hasOwn(profiles, id);
}

/**
 * The chain's profile; with `definitionsFile`, its binary format read from that file (rippled's
 * definitions.json shape) instead of the profile's own table. InvalidParams for an unknown chain or
 * an unusable file.
 */
export function getProfile(id: string, options: { definitionsFile?: string } = {}): ChainProfile {
  if (!isChainId(id)) {
    throw new InvalidParams(`unknown chain '${id}': expected one of ${chainIds.join(', ')}`, 'chain');
  }
  const file = options.definitionsFile;
  if (file === undefined) return profiles[id];
  const key = `${id}\0${file}`;
  let profile = withDefinitionsFile.get(key);
  if (!profile) {
    profile = buildProfile(bases[id].base, readDefinitionsTable(file));
    withDefinitionsFile.set(key, profile);
  }
  return profile;
}
