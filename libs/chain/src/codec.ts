import { InvalidParams } from '@ledger-node/errors';
import {
  decode as decodeBinary,
  encode as encodeBinary,
  encodeForMultisigning as encodeBinaryForMultisigning,
  encodeForSigning as encodeBinaryForSigning,
  DEFAULT_DEFINITIONS,
  type XrplDefinitionsBase,
} from 'ripple-binary-codec';
import { AddressCodec, XRPL_ALPHABET, Base58Check } from './base58';
import { BinaryJsonDecoder } from './binary-json';
import { longCurrencyCode, longCurrencyHex } from './currency';
import { applyRippledForms, planRippledForms, showEmptyAccounts } from './rippled-forms';

export interface ChainCodec {
  /** Uppercase hex of the canonical binary form; addresses in the profile alphabet. */
  encode(json: object): string;
  /**
   * JSON with every AccountID (fields, Amount/Issue issuers, path steps) in the profile alphabet,
   * from hex or from the bytes themselves (read where they are: nothing converted to hex and back).
   */
  decode(binary: string | Uint8Array): Record<string, any>;
  /** 'STX\0' + the signing fields, the bytes a single signature covers. */
  encodeForSigning(json: object): string;
  /** 'SMT\0' + the signing fields + the signer's AccountID. */
  encodeForMultisigning?(json: object, signer: string): string;
  isValidAddress(address: string): boolean;
  encodeAccountId(accountId: Uint8Array): string;
  /** Throws InvalidParams for a malformed address. */
  decodeAccountId(address: string): Uint8Array;
}

type AddressConverter = (address: string, fieldName: string) => string;

/** How addresses and issued-currency codes are written on one side of the codec. */
interface WireConverter {
  address: AddressConverter;
  currency(code: string): string;
}

const ACCOUNT_ID_HEX = /^[0-9A-Fa-f]{40}$/;
/** Addresses whose AccountID hex a codec remembers (forgotten all at once past this). */
const REMEMBERED_ADDRESSES = 4096;

/** Rebuilds a value with its AccountIDs and currency codes converted, guided by the field types of the definitions table. */
class WireMapper {
  constructor(private readonly definitions: XrplDefinitionsBase) {}

  private typeOf(fieldName: string): string | undefined {
    return this.definitions.field.fromString(fieldName)?.type.name;
  }

  mapObject(object: Record<string, unknown>, convert: WireConverter): Record<string, unknown> {
    const mapped: Record<string, unknown> = {};
    for (const [fieldName, value] of Object.entries(object)) {
      mapped[fieldName] = this.mapField(fieldName, value, convert);
    }
    return mapped;
  }

  private mapField(fieldName: string, value: unknown, convert: WireConverter): unknown {
    switch (this.typeOf(fieldName)) {
      case 'AccountID':
        return typeof value === 'string' ? convert.address(value, fieldName) : value;
      case 'Amount':
      case 'Issue':
        return isRecord(value) ? this.mapAsset(value, fieldName, convert) : value;
      case 'PathSet':
        return Array.isArray(value)
          ? value.map((path) => (Array.isArray(path) ? path.map((step) => (isRecord(step) ? this.mapAsset(step, fieldName, convert) : step)) : path))
          : value;
      case 'STObject':
      case 'XChainBridge':
        return isRecord(value) ? this.mapObject(value, convert) : value;
      case 'STArray':
        return Array.isArray(value) ? value.map((member) => (isRecord(member) ? this.mapObject(member, convert) : member)) : value;
      default:
        return value;
    }
  }

  /** An amount, issue or path step: its `issuer`, `account` and `currency`. */
  private mapAsset(asset: Record<string, unknown>, fieldName: string, convert: WireConverter): Record<string, unknown> {
    const mapped: Record<string, unknown> = { ...asset };
    if (typeof asset.account === 'string') mapped.account = convert.address(asset.account, `${fieldName}.account`);
    if (typeof asset.issuer === 'string') mapped.issuer = convert.address(asset.issuer, `${fieldName}.issuer`);
    if (typeof asset.currency === 'string') mapped.currency = convert.currency(asset.currency);
    return mapped;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Errors of the JavaScript engine (a TypeError's text names the codec's internals), and node:assert's. */
const ENGINE_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];
const CUT_SHORT = /^read: requested \d+ bytes but only \d+ available$/;

/**
 * A codec failure as a caller may read it: the codec's own message where it wrote one, never the
 * engine's. Malformed binary makes ripple-binary-codec read past an unknown field code (a
 * TypeError) or past the end of the data (an empty assertion): said in plain words instead.
 */
function describe(error: unknown): string {
  const isEngineError = error instanceof Error && (ENGINE_ERRORS.some((type) => error instanceof type) || (error as NodeJS.ErrnoException).code === 'ERR_ASSERTION');
  if (!(error instanceof Error) || isEngineError) return 'malformed: a field or type the chain does not define, or a value that does not fit its field';
  if (error.message === '' || CUT_SHORT.test(error.message)) return 'the data ends inside a field';
  return error.message;
}

/**
 * Runs one of ripple-binary-codec's encoders without stack traces: it asks of every string value
 * whether it is an X-address by decoding it and catching the error, so an encode throws and
 * catches an error for each field, and capturing their stacks was half its time. Its own errors
 * reach asInvalidParams (outside) stackless; the InvalidParams made there has its stack.
 */
function withoutStacks<T>(run: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Binary-codec failures are caller input errors: rethrow them as InvalidParams with the cause kept. */
function asInvalidParams<T>(action: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof InvalidParams) throw error;
    const invalid = new InvalidParams(`cannot ${action}: ${describe(error)}`);
    invalid.cause = error;
    throw invalid;
  }
}

export interface ChainCodecOptions {
  /** Base58 alphabet of addresses on this chain. */
  alphabet: string;
  /** Field, type and code tables; the stock XRPL table when omitted. */
  definitions?: XrplDefinitionsBase;
  /** Jingtum: issued-currency codes of four to six characters besides the three-character ones. */
  longCurrencyCodes?: boolean;
  /**
   * false: decode with ripple-binary-codec alone, without the single-pass decoder in front of it
   * (the reference the decoder's tests compare against). Default true.
   */
  singlePassDecode?: boolean;
}

/**
 * A codec for one chain. On the way in, addresses become 40-hex AccountIDs, which ripple-binary-codec
 * accepts as they are: it speaks XRPL-alphabet addresses only, and decodes (and checksums) each
 * address twice, once asking whether it is an X-address; the hex is decoded once and remembered.
 * On the XRPL a value that is not a classic address (an X-address) is left to the codec. On the way
 * out its `r…` text is rewritten digit by digit into the chain's alphabet (base58 checksums do not
 * depend on the alphabet).
 * Decoding first tries the single-pass decoder (binary-json.ts), which renders the same JSON with
 * addresses directly in the chain's alphabet, and leaves to the codec whatever it does not render.
 */
export function createChainCodec(options: ChainCodecOptions): ChainCodec {
  const definitions = options.definitions ?? DEFAULT_DEFINITIONS;
  const longCodes = options.longCurrencyCodes === true;
  const addresses = new AddressCodec(options.alphabet);
  const wireBase58 = new Base58Check(XRPL_ALPHABET);
  const mapper = new WireMapper(definitions);
  const sameAlphabet = options.alphabet === XRPL_ALPHABET;
  const singlePass = options.singlePassDecode === false ? undefined : new BinaryJsonDecoder(definitions, addresses, longCodes);

  // The codec's own output (XRPL addresses, three-character codes) needs no mapping on the XRPL.
  const mapped = !sameAlphabet || longCodes;
  const accountIdHex = new Map<string, string>();
  const toWire: WireConverter = {
    address: (address, fieldName) => {
      if (address === '' || ACCOUNT_ID_HEX.test(address)) return address;
      let hex = accountIdHex.get(address);
      if (hex === undefined) {
        const accountId = addresses.tryDecodeAccountId(address);
        if (accountId === null) {
          if (sameAlphabet) return address;
          throw new InvalidParams(`${fieldName} '${address}' is not a valid address`, fieldName);
        }
        hex = Buffer.from(accountId).toString('hex').toUpperCase();
        if (accountIdHex.size >= REMEMBERED_ADDRESSES) accountIdHex.clear();
        accountIdHex.set(address, hex);
      }
      return hex;
    },
    currency: (code) => (longCodes ? (longCurrencyHex(code) ?? code) : code),
  };
  const fromWire: WireConverter = {
    address: (address) => wireBase58.translate(address, addresses.base58),
    currency: (code) => (longCodes && ACCOUNT_ID_HEX.test(code) ? (longCurrencyCode(Buffer.from(code, 'hex')) ?? code) : code),
  };

  const decodeWithCodec = (hex: string): Record<string, unknown> => {
    const decoded = showEmptyAccounts(decodeBinary(hex, definitions) as Record<string, unknown>, hex, definitions);
    return mapped ? mapper.mapObject(decoded, fromWire) : decoded;
  };

  /** The single-pass decoder's JSON, else (a type it leaves to the codec, or bytes it cannot read) the codec's, which throws its own error for malformed input. */
  const decodeBytes = (bytes: Buffer, hexOf: () => string): Record<string, unknown> => {
    if (singlePass !== undefined) {
      try {
        return singlePass.decode(bytes);
      } catch {
        // Left to the codec.
      }
    }
    return decodeWithCodec(hexOf());
  };

  const prepare = (json: object): Record<string, unknown> => {
    if (!isRecord(json)) throw new InvalidParams('a transaction or ledger entry must be a JSON object');
    return mapper.mapObject(json, toWire);
  };

  return {
    encode: (json) =>
      asInvalidParams('encode', () => {
        const { json: encodable, rewrites } = planRippledForms(prepare(json), definitions);
        return applyRippledForms(withoutStacks(() => encodeBinary(encodable, definitions)).toUpperCase(), definitions, rewrites);
      }),
    decode: (binary) =>
      asInvalidParams('decode', () => {
        if (typeof binary === 'string') {
          if (!/^(?:[0-9A-Fa-f]{2})+$/.test(binary)) throw new InvalidParams('binary input must be a non-empty even-length hex string');
          return decodeBytes(Buffer.from(binary, 'hex'), () => binary);
        }
        if (!(binary instanceof Uint8Array) || binary.length === 0) throw new InvalidParams('binary input must be non-empty bytes');
        const bytes = Buffer.isBuffer(binary) ? binary : Buffer.from(binary.buffer, binary.byteOffset, binary.byteLength);
        return decodeBytes(bytes, () => bytes.toString('hex'));
      }),
    encodeForSigning: (json) =>
      asInvalidParams('encode for signing', () => withoutStacks(() => encodeBinaryForSigning(prepare(json), definitions)).toUpperCase()),
    encodeForMultisigning: (json, signer) =>
      asInvalidParams('encode for multisigning', () =>
        withoutStacks(() => encodeBinaryForMultisigning(prepare(json), sameAlphabet ? signer : toWire.address(signer, 'signer'), definitions)).toUpperCase(),
      ),
    isValidAddress: (address) => addresses.isValidAddress(address),
    encodeAccountId: (accountId) => addresses.encodeAccountId(accountId),
    decodeAccountId: (address) => addresses.decodeAccountId(address),
  };
}
