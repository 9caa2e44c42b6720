/**
 * rippled `ledger_entry` selectors (LedgerEntry.cpp) and `ledger_data` / `account_objects` type
 * filters: which state object a request names, as its key, and the entry type it must have.
 */
import { currencyToBytes, keylet, longCurrencyHex, type ChainProfile } from '@ledger-node/chain';
import { isLedgerNodeError } from '@ledger-node/errors';
import { RpcError } from './errors';
import { isHash256 } from './params';
import { isJsonObject, type ApiVersion, type JsonObject } from './protocol';

/** The state object a ledger_entry request names: its key, and the entry type rippled expects there. */
export interface EntrySelection {
  /** Uppercase hex. */
  readonly key: string;
  /** Absent for a bare `index`, which may name any entry. */
  readonly expectedType?: string;
}

function malformed(token: string): RpcError {
  return new RpcError('invalidParams', token);
}

/** Converts a bad-input error of the codec into rippled's invalidParams with its token. */
function orMalformed<T>(token: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isLedgerNodeError(error) && error.kind === 'invalid_params') throw malformed(token);
    throw error;
  }
}

/** 20-byte currency of an issued asset, in the chain's spelling (Jingtum also has four-to-six-letter codes). */
export function issuedCurrencyBytes(code: string, profile: Pick<ChainProfile, 'nativeCurrency' | 'longCurrencyCodes'>): Uint8Array {
  const long = profile.longCurrencyCodes ? longCurrencyHex(code) : undefined;
  return currencyToBytes(long ?? code, profile.nativeCurrency);
}

type Reader = (value: unknown, profile: ChainProfile) => string;

function hexKey(value: unknown): string {
  if (!isHash256(value)) throw malformed('malformedRequest');
  return value.toUpperCase();
}

function accountOf(value: unknown, profile: ChainProfile, token: string): Uint8Array {
  if (typeof value !== 'string' || !profile.codec.isValidAddress(value)) throw malformed(token);
  return profile.codec.decodeAccountId(value);
}

/** rippled requiredUInt32: a non-negative integer, or its decimal text. */
function uint32Of(value: unknown, token: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > 0xffffffff) throw malformed(token);
  return number;
}

/** A selector that takes the key itself, or an object of the fields the keylet is made of. */
function keyOrObject(fromObject: (value: JsonObject, profile: ChainProfile) => string): Reader {
  return (value, profile) => (isJsonObject(value) ? fromObject(value, profile) : hexKey(value));
}

const readers: ReadonlyArray<{ field: string; type: (profile: ChainProfile) => string | undefined; read: Reader }> = [
  { field: 'index', type: () => undefined, read: hexKey },
  {
    field: 'account_root',
    type: () => 'AccountRoot',
    read: (value, profile) => keylet.account(accountOf(value, profile, 'malformedAddress')),
  },
  {
    field: 'ripple_state',
    type: (profile) => profile.trustLineEntryType,
    read: keyOrObject((line, profile) => {
      if (!Array.isArray(line.accounts) || line.accounts.length !== 2 || typeof line.currency !== 'string') throw malformed('malformedRequest');
      const [first, second] = line.accounts as unknown[];
      const low = accountOf(first, profile, 'malformedAddress');
      const high = accountOf(second, profile, 'malformedAddress');
      if (Buffer.compare(low, high) === 0) throw malformed('malformedRequest');
      const currency = orMalformed('malformedCurrency', () => issuedCurrencyBytes(line.currency as string, profile));
      return keylet.rippleState(low, high, currency);
    }),
  },
  {
    field: 'offer',
    type: () => 'Offer',
    read: keyOrObject((offer, profile) => keylet.offer(accountOf(offer.account, profile, 'malformedAddress'), uint32Of(offer.seq, 'malformedRequest'))),
  },
  {
    field: 'directory',
    type: () => 'DirectoryNode',
    read: keyOrObject((directory, profile) => {
      const subIndex = directory.sub_index === undefined ? 0 : uint32Of(directory.sub_index, 'malformedRequest');
      if ((directory.owner === undefined) === (directory.dir_root === undefined)) throw malformed('malformedRequest');
      if (directory.dir_root !== undefined) {
        if (!isHash256(directory.dir_root)) throw malformed('malformedDirRoot');
        return keylet.dirPage(directory.dir_root.toUpperCase(), BigInt(subIndex));
      }
      return keylet.dirPage(keylet.ownerDir(accountOf(directory.owner, profile, 'malformedAddress')), BigInt(subIndex));
    }),
  },
  { field: 'check', type: () => 'Check', read: hexKey },
  {
    field: 'escrow',
    type: () => 'Escrow',
    read: keyOrObject((escrow, profile) => keylet.escrow(accountOf(escrow.owner, profile, 'malformedOwner'), uint32Of(escrow.seq, 'malformedSeq'))),
  },
  {
    field: 'deposit_preauth',
    type: () => 'DepositPreauth',
    read: keyOrObject((preauth, profile) => {
      if (preauth.authorized === undefined) throw malformed('malformedRequest');
      const owner = accountOf(preauth.owner, profile, 'malformedOwner');
      return keylet.depositPreauth(owner, accountOf(preauth.authorized, profile, 'malformedAuthorized'));
    }),
  },
  {
    field: 'ticket',
    type: () => 'Ticket',
    read: keyOrObject((ticket, profile) => keylet.ticket(accountOf(ticket.account, profile, 'malformedAddress'), uint32Of(ticket.ticket_seq, 'malformedRequest'))),
  },
  { field: 'payment_channel', type: () => 'PayChannel', read: hexKey },
  { field: 'signer_list', type: () => 'SignerList', read: hexKey },
  { field: 'amendments', type: () => 'Amendments', read: hexKey },
  { field: 'fee', type: () => 'FeeSettings', read: hexKey },
  { field: 'hashes', type: () => 'LedgerHashes', read: hexKey },
  { field: 'nft_page', type: () => 'NFTokenPage', read: hexKey },
  { field: 'nft_offer', type: () => 'NFTokenOffer', read: hexKey },
];

/**
 * The entry a ledger_entry request selects. Exactly one selector; none is rippled's
 * `unknownOption` in API v1 and invalidParams in v2.
 */
export function readEntrySelection(request: JsonObject, profile: ChainProfile, apiVersion: ApiVersion): EntrySelection {
  const given = readers.filter(({ field }) => request[field] !== undefined);
  if (given.length > 1) throw new RpcError('invalidParams', 'Too many fields provided.');
  const selector = given[0];
  if (!selector) throw apiVersion > 1 ? new RpcError('invalidParams', 'No ledger_entry params provided.') : malformed('unknownOption');
  const key = selector.read(request[selector.field], profile);
  const expectedType = selector.type(profile);
  return expectedType === undefined ? { key } : { key, expectedType };
}

/**
 * rippled's short `type` filter names of ledger_data and account_objects (RPCHelpers
 * chooseLedgerEntryType); `state` is the chain's trust-line type.
 */
const typeFilters: Readonly<Record<string, string>> = {
  account: 'AccountRoot',
  amendments: 'Amendments',
  amm: 'AMM',
  bridge: 'Bridge',
  check: 'Check',
  credential: 'Credential',
  deposit_preauth: 'DepositPreauth',
  did: 'DID',
  directory: 'DirectoryNode',
  escrow: 'Escrow',
  fee: 'FeeSettings',
  hashes: 'LedgerHashes',
  mpt_issuance: 'MPTokenIssuance',
  mptoken: 'MPToken',
  nft_offer: 'NFTokenOffer',
  nft_page: 'NFTokenPage',
  nunl: 'NegativeUNL',
  offer: 'Offer',
  oracle: 'Oracle',
  payment_channel: 'PayChannel',
  signer_list: 'SignerList',
  ticket: 'Ticket',
};

/** The entry type a `type` filter names, or undefined for a name rippled does not know. */
export function entryTypeOfFilter(filter: unknown, profile: Pick<ChainProfile, 'trustLineEntryType'>): string | undefined {
  if (typeof filter !== 'string') return undefined;
  if (filter === 'state') return profile.trustLineEntryType;
  return Object.hasOwn(typeFilters, filter) ? typeFilters[filter] : undefined;
}

/** Entry types an account can own (rippled isAccountObjectsValidType excludes the singletons and directories' own type). */
export function ownableEntryType(entryType: string): boolean {
  return !['Amendments', 'DirectoryNode', 'FeeSettings', 'LedgerHashes', 'NegativeUNL'].includes(entryType);
}
