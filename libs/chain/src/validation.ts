/**
 * Validations (rippled STValidation): a validator's signed statement that a ledger hash is the
 * ledger it validated at a sequence. The signature covers 'VAL\0' + the object's signing fields
 * (every field but Signature), made with the key in SigningPubKey; a full validation has flag
 * 0x00000001 (vfFullValidation). Validator keys are written as rippled prints node public keys
 * (`n…`, base58 version 0x1C, in the chain's alphabet) or as 66 hex digits.
 */
import { readFileSync } from 'node:fs';
import { InvalidParams } from '@ledger-node/errors';
import { Base58Check, JINGTUM_ALPHABET, XRPL_ALPHABET } from './base58';
import { isPublicKeyHex } from './keys';
import type { ChainProfile } from './profiles';

/** HashPrefix::validation, 'VAL\0'. */
const VALIDATION_PREFIX = '56414C00';
/** Base58 version byte of a node public key (TokenType::NodePublic). */
const NODE_PUBLIC_VERSION = 0x1c;
/** rippled TokenType::AccountPublic: an account's public key in base58 (`aB…`). */
const ACCOUNT_PUBLIC_VERSION = 0x23;
const FULL_VALIDATION = 0x00000001;
const FULLY_CANONICAL_SIGNATURE = 0x80000000;
const HASH = /^[0-9A-F]{64}$/;

export interface Validation {
  ledgerIndex: number;
  /** Uppercase hex. */
  ledgerHash: string;
  /** Seconds since the XRP Ledger epoch. */
  signingTime: number;
  full: boolean;
  /** The signing key, uppercase hex (33 bytes). */
  publicKey: string;
}

/** A node public key as 33-byte uppercase hex, from `n…` (in the chain's alphabet) or hex; InvalidParams otherwise. */
export function nodePublicKeyHex(text: string, profile: Pick<ChainProfile, 'addressAlphabet'>): string {
  if (isPublicKeyHex(text.toUpperCase())) return text.toUpperCase();
  const payload = new Base58Check(profile.addressAlphabet).decode(text);
  const key = payload?.length === 34 && payload[0] === NODE_PUBLIC_VERSION ? Buffer.from(payload.subarray(1)).toString('hex').toUpperCase() : undefined;
  if (key === undefined || !isPublicKeyHex(key)) throw new InvalidParams(`'${text}' is not a validator public key (n… or 66 hex digits)`, 'validator');
  return key;
}

export interface ValidatorList {
  /** Public keys, 33-byte uppercase hex. */
  keys: string[];
  /** Distinct trusted validations that prove a ledger. */
  quorum: number;
}

/**
 * A `-validators` file: one validator public key per line (`n…` in either chain's alphabet, or 66
 * hex digits), `#` comments, and optionally `quorum N` (default: 80% of the keys, rounded up, as
 * rippled's UNL quorum). InvalidParams naming the line when it is not such a file.
 */
export function readValidatorList(file: string): ValidatorList {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidParams(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'validators');
  }
  const keys = new Set<string>();
  let quorum: number | undefined;
  for (const [position, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') continue;
    const where = `${file} line ${position + 1}`;
    const quorumLine = /^quorum\s+(\S+)$/.exec(line);
    if (quorumLine) {
      quorum = Number(quorumLine[1]);
      if (!Number.isInteger(quorum) || quorum < 1) throw new InvalidParams(`${where}: quorum must be a whole number of at least 1`, 'validators');
      continue;
    }
    const key = [XRPL_ALPHABET, JINGTUM_ALPHABET].map((addressAlphabet) => {
      try {
        return nodePublicKeyHex(line, { addressAlphabet });
      } catch {
        return undefined;
      }
    }).find((hex) => hex !== undefined);
    if (key === undefined) throw new InvalidParams(`${where}: '${line.slice(0, 80)}' is not a validator public key (n… or 66 hex digits)`, 'validators');
    keys.add(key);
  }
  if (keys.size === 0) throw new InvalidParams(`${file} names no validator key`, 'validators');
  const list = { keys: [...keys], quorum: quorum ?? Math.ceil(keys.size * 0.8) };
  if (list.quorum > keys.size) throw new InvalidParams(`${file}: quorum ${list.quorum} is more than the ${keys.size} keys listed`, 'validators');
  return list;
}

/** The `n…` form of a node public key in the chain's alphabet. */
export function encodeNodePublicKey(publicKeyHex: string, profile: ChainProfile): string {
  return new Base58Check(profile.addressAlphabet).encode(Buffer.concat([Buffer.of(NODE_PUBLIC_VERSION), Buffer.from(publicKeyHex, 'hex')]));
}

/** An account public key (33 bytes, hex) as rippled prints it in base58 (TokenType::AccountPublic). */
export function encodeAccountPublicKey(publicKeyHex: string, profile: ChainProfile): string {
  return new Base58Check(profile.addressAlphabet).encode(Buffer.concat([Buffer.of(ACCOUNT_PUBLIC_VERSION), Buffer.from(publicKeyHex, 'hex')]));
}

/** A full validation of `ledgerHash` at `ledgerIndex`, signed with the key pair; hex of the serialized object. */
export function signValidation(
  profile: ChainProfile,
  keypair: { publicKey: string; privateKey: string },
  ledger: { ledgerIndex: number; ledgerHash: string; signingTime: number },
): string {
  const fields = {
    Flags: (FULLY_CANONICAL_SIGNATURE | FULL_VALIDATION) >>> 0,
    LedgerSequence: ledger.ledgerIndex,
    SigningTime: ledger.signingTime,
    LedgerHash: ledger.ledgerHash.toUpperCase(),
    SigningPubKey: keypair.publicKey.toUpperCase(),
  };
  const signature = profile.keys.sign(VALIDATION_PREFIX + profile.codec.encode(fields), keypair.privateKey);
  return profile.codec.encode({ ...fields, Signature: signature });
}

/** A serialized STValidation's fields: what it states, and what its signature covers. */
function readFields(profile: ChainProfile, blobHex: string): { validation: Validation; signed: Record<string, unknown>; signature: string } {
  const { Signature: signature, ...signed } = profile.codec.decode(blobHex);
  const { LedgerSequence: ledgerIndex, LedgerHash: ledgerHash, SigningPubKey: publicKey, SigningTime: signingTime, Flags: flags } = signed;
  if (typeof ledgerIndex !== 'number' || typeof ledgerHash !== 'string' || !HASH.test(ledgerHash) || typeof signingTime !== 'number') {
    throw new InvalidParams('the validation lacks LedgerSequence, LedgerHash or SigningTime', 'validation');
  }
  if (typeof publicKey !== 'string' || !isPublicKeyHex(publicKey.toUpperCase()) || typeof signature !== 'string' || signature.length === 0) {
    throw new InvalidParams('the validation lacks its signing key or signature', 'validation');
  }
  return { validation: { ledgerIndex, ledgerHash, signingTime, full: typeof flags === 'number' && (flags & FULL_VALIDATION) !== 0, publicKey: publicKey.toUpperCase() }, signed, signature };
}

/**
 * What a serialized STValidation states, its signature present but not checked (a validation
 * verified when it was received); InvalidParams when it is not one.
 */
export function readValidation(profile: ChainProfile, blobHex: string): Validation {
  return readFields(profile, blobHex).validation;
}

/** The validation a serialized STValidation states, once its signature checks out; InvalidParams otherwise. */
export function verifyValidation(profile: ChainProfile, blobHex: string): Validation {
  const { validation, signed, signature } = readFields(profile, blobHex);
  if (!profile.keys.verify(VALIDATION_PREFIX + profile.codec.encode(signed), signature, validation.publicKey)) {
    throw new InvalidParams(`the validation of ledger ${validation.ledgerIndex} is not signed by ${validation.publicKey}`, 'validation');
  }
  return validation;
}

/** rippled `network_id` of every devnet: at most 1024, so that its transactions need no NetworkID field. */
export const DEVNET_NETWORK_ID = 0;
