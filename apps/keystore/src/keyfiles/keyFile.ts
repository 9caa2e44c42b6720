/**
 * The encrypted key file: one JSON file per account, `<keystore dir>/<address>.json`.
 *
 * The public description (version, chain, address, nickname, key type, creation time) is in clear
 * so accounts can be listed without the passphrase. The family seed is encrypted with AES-256-GCM
 * under a key derived from the passphrase with scrypt; the clear fields are the cipher's
 * additional authenticated data, so editing any of them makes decryption fail like a wrong
 * passphrase does. This module is the one definition of the format (docs/operating.md "Key file format").
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { chainIds, isChainId, type ChainId, type KeyAlgorithm } from '@ledger-node/chain';
import { KeyFileError } from './errors';

export const KEY_FILE_VERSION = 1;

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  n: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
  /** Length of the derived key in bytes: 32 for AES-256. */
  dklen: number;
}

/**
 * scrypt cost of new key files: N = 2^17, r = 8, p = 1 (128 MiB, about 0.4 s per derivation on
 * one core), between the interactive (2^14) and file-encryption (2^20) settings of the scrypt
 * paper and go-ethereum's keystore. Each file records its own parameters, so they can be raised later.
 */
export const DEFAULT_SCRYPT: ScryptParams = { n: 2 ** 17, r: 8, p: 1, dklen: 32 };

/** Bounds on the parameters a file may ask for: weaker is refused, dearer would stall the keystore. */
const SCRYPT_N_MIN = 2 ** 10;
const SCRYPT_N_MAX = 2 ** 20;
const SALT_BYTES = 32;
/** NIST SP 800-38D: a 96-bit IV is the recommended GCM nonce; random per file (one encryption per key). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CIPHER = 'aes-256-gcm';

/** What anyone may read about a local account: never secret. */
export interface AccountMetadata {
  chain: ChainId;
  address: string;
  /** Operator-chosen name, unique among the keystore's accounts; null when none. */
  nickname: string | null;
  keyType: KeyAlgorithm;
  /** ISO 8601 UTC creation time, millisecond precision. */
  created: string;
}

/** The JSON document on disk. */
export interface KeyFileJson {
  version: number;
  chain: ChainId;
  address: string;
  nickname: string | null;
  key_type: KeyAlgorithm;
  created: string;
  crypto: {
    cipher: typeof CIPHER;
    /** Hex of the encrypted family seed (UTF-8 bytes of the `s…` string). */
    ciphertext: string;
    /** Hex, 12 bytes. */
    iv: string;
    /** Hex, 16-byte GCM authentication tag. */
    tag: string;
    kdf: 'scrypt';
    kdfparams: ScryptParams & { salt: string };
  };
}

const NICKNAME = /^[A-Za-z0-9_.-]{1,64}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;

export function isValidNickname(nickname: string): boolean {
  return NICKNAME.test(nickname);
}

/** The bytes the GCM tag binds besides the ciphertext: the clear fields in a fixed order. */
function additionalData(version: number, metadata: AccountMetadata): Buffer {
  return Buffer.from(
    JSON.stringify([version, metadata.chain, metadata.address, metadata.nickname, metadata.keyType, metadata.created]),
    'utf8',
  );
}

/**
 * Derivations run one at a time: each holds 128 * N * r bytes (128 MiB at the default cost), and
 * the keystore must stay within one service's memory budget (300 MiB) however many signatures
 * are asked for at once. Signing throughput is bounded by the derivation cost either way.
 */
const maxConcurrentDerivations = 1;
let runningDerivations = 0;
const waitingDerivations: (() => void)[] = [];

async function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  if (runningDerivations >= maxConcurrentDerivations) await new Promise<void>((resolve) => waitingDerivations.push(resolve));
  runningDerivations++;
  try {
    // Node refuses scrypt above `maxmem`; 128 * N * r bytes is what the algorithm needs, plus slack.
    const options: ScryptOptions = { N: params.n, r: params.r, p: params.p, maxmem: 128 * params.n * params.r + 16 * 1024 * 1024 };
    return await new Promise((resolve, reject) =>
      scryptCallback(Buffer.from(passphrase, 'utf8'), salt, params.dklen, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } finally {
    runningDerivations--;
    waitingDerivations.shift()?.();
  }
}

/** Encrypts a seed into a key file document. */
export async function encryptKeyFile(
  metadata: AccountMetadata,
  seed: string,
  passphrase: string,
  scryptParams: ScryptParams = DEFAULT_SCRYPT,
): Promise<KeyFileJson> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const key = await deriveKey(passphrase, salt, scryptParams);
  const plaintext = Buffer.from(seed, 'utf8');
  try {
    const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(KEY_FILE_VERSION, metadata));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return {
      version: KEY_FILE_VERSION,
      chain: metadata.chain,
      address: metadata.address,
      nickname: metadata.nickname,
      key_type: metadata.keyType,
      created: metadata.created,
      crypto: {
        cipher: CIPHER,
        ciphertext: ciphertext.toString('hex'),
        iv: iv.toString('hex'),
        tag: cipher.getAuthTag().toString('hex'),
        kdf: 'scrypt',
        kdfparams: { ...scryptParams, salt: salt.toString('hex') },
      },
    };
  } finally {
    key.fill(0);
    plaintext.fill(0);
  }
}

/**
 * Decrypts the seed of a key file document. Wrong passphrase and any edited byte (ciphertext, tag,
 * IV, salt, scrypt parameters or a clear field) fail the same way: GCM cannot tell them apart.
 */
export async function decryptKeyFile(file: string, document: KeyFileJson, passphrase: string, unlocked?: UnlockedKeys): Promise<string> {
  const { crypto } = document;
  const params: ScryptParams = { n: crypto.kdfparams.n, r: crypto.kdfparams.r, p: crypto.kdfparams.p, dklen: crypto.kdfparams.dklen };
  const salt = Buffer.from(crypto.kdfparams.salt, 'hex');
  const key = unlocked ? await unlocked.derive(passphrase, salt, params) : await deriveKey(passphrase, salt, params);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv(CIPHER, key, Buffer.from(crypto.iv, 'hex'), { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(document.version, metadataOf(document)));
    decipher.setAuthTag(Buffer.from(crypto.tag, 'hex'));
    plaintext = Buffer.concat([decipher.update(Buffer.from(crypto.ciphertext, 'hex')), decipher.final()]);
  } catch (error) {
    if (error instanceof Error) {
      throw new KeyFileError(file, 'KEY_FILE_LOCKED', 'cannot be unlocked: wrong passphrase, or the file was modified');
    }
    throw error;
  } finally {
    key.fill(0);
  }
  const seed = plaintext.toString('utf8');
  plaintext.fill(0);
  return seed;
}

/**
 * Derived key-file keys kept in memory for `ttlMs` after their derivation (-unlock_seconds), so
 * that signatures with that account meanwhile cost no scrypt derivation; each is zeroed when it
 * expires. Keyed by salt and parameters: a file written anew misses. The seeds themselves are
 * never kept: each signature still decrypts its seed and lets it go.
 */
export class UnlockedKeys {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly ttlMs: number) {}

  /** The derived key (a copy the caller may zero), from memory while it is kept. */
  async derive(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
    const id = `${salt.toString('hex')}:${params.n}:${params.r}:${params.p}:${params.dklen}`;
    let key = this.keys.get(id);
    if (key === undefined) {
      key = await deriveKey(passphrase, salt, params);
      if (this.ttlMs === 0) return key;
      const kept = key;
      this.keys.set(id, kept);
      setTimeout(() => {
        kept.fill(0);
        this.keys.delete(id);
      }, this.ttlMs).unref();
    }
    return Buffer.from(key);
  }

  /** Keys held now. */
  get size(): number {
    return this.keys.size;
  }
}

export function metadataOf(document: KeyFileJson): AccountMetadata {
  return {
    chain: document.chain,
    address: document.address,
    nickname: document.nickname,
    keyType: document.key_type,
    created: document.created,
  };
}

/** Checks the shape of a parsed key file; the message names what is wrong, never a value of `crypto`. */
export function validateKeyFile(file: string, value: unknown): KeyFileJson {
  const fail = (problem: string): never => {
    throw new KeyFileError(file, 'KEY_FILE_INVALID', `is not a valid key file: ${problem}`);
  };
  if (!isObject(value)) return fail('not a JSON object');
  if (value.version !== KEY_FILE_VERSION) return fail(`unsupported version ${JSON.stringify(value.version)} (expected ${KEY_FILE_VERSION})`);
  if (typeof value.chain !== 'string' || !isChainId(value.chain)) return fail(`chain must be one of ${chainIds.join(', ')}`);
  if (typeof value.address !== 'string' || value.address.length === 0) return fail('address missing');
  if (value.nickname !== null && (typeof value.nickname !== 'string' || !isValidNickname(value.nickname))) {
    return fail('nickname must be null or 1-64 letters, digits, _ . or -');
  }
  if (value.key_type !== 'secp256k1' && value.key_type !== 'ed25519') return fail('key_type must be secp256k1 or ed25519');
  if (typeof value.created !== 'string' || Number.isNaN(Date.parse(value.created))) return fail('created must be an ISO 8601 time');
  const crypto = value.crypto;
  if (!isObject(crypto)) return fail('crypto missing');
  if (crypto.cipher !== CIPHER) return fail(`crypto.cipher must be ${CIPHER}`);
  if (crypto.kdf !== 'scrypt') return fail('crypto.kdf must be scrypt');
  for (const field of ['ciphertext', 'iv', 'tag'] as const) {
    if (typeof crypto[field] !== 'string' || !HEX.test(crypto[field])) return fail(`crypto.${field} must be lowercase hex`);
  }
  if ((crypto.iv as string).length !== IV_BYTES * 2) return fail(`crypto.iv must be ${IV_BYTES} bytes`);
  if ((crypto.tag as string).length !== TAG_BYTES * 2) return fail(`crypto.tag must be ${TAG_BYTES} bytes`);
  const params = crypto.kdfparams;
  if (!isObject(params)) return fail('crypto.kdfparams missing');
  const { n, r, p, dklen, salt } = params;
  if (!Number.isSafeInteger(n) || (n as number) < SCRYPT_N_MIN || (n as number) > SCRYPT_N_MAX || ((n as number) & ((n as number) - 1)) !== 0) {
    return fail(`crypto.kdfparams.n must be a power of two from ${SCRYPT_N_MIN} to ${SCRYPT_N_MAX}`);
  }
  if (!Number.isSafeInteger(r) || (r as number) < 1 || (r as number) > 32) return fail('crypto.kdfparams.r must be from 1 to 32');
  if (!Number.isSafeInteger(p) || (p as number) < 1 || (p as number) > 16) return fail('crypto.kdfparams.p must be from 1 to 16');
  if (dklen !== 32) return fail('crypto.kdfparams.dklen must be 32');
  if (typeof salt !== 'string' || !HEX.test(salt) || salt.length < 32) return fail('crypto.kdfparams.salt must be at least 16 bytes of hex');
  return value as unknown as KeyFileJson;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file of an account inside a keystore directory. */
export function keyFilePath(directory: string, address: string): string {
  return path.join(directory, `${address}.json`);
}

/** Reads and checks a key file; its name must be its address. */
export function readKeyFile(file: string): KeyFileJson {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KeyFileError(file, 'KEY_FILE_UNREADABLE', `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new KeyFileError(file, 'KEY_FILE_INVALID', `is not valid JSON (${error instanceof SyntaxError ? error.message : String(error)})`);
  }
  const document = validateKeyFile(file, parsed);
  if (path.basename(file) !== `${document.address}.json`) {
    throw new KeyFileError(file, 'KEY_FILE_INVALID', `is not a valid key file: its name does not match its address ${document.address}`);
  }
  return document;
}

/**
 * Creates the keystore directory (mode 0700) and tightens it when it already exists: group and
 * other bits are removed, owner bits are never added, so an operator's read-only 0500 stays so.
 */
export function ensureKeystoreDirectory(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const mode = statSync(directory).mode & 0o777;
  if ((mode & 0o077) !== 0) chmodSync(directory, mode & 0o700);
}

/** A write in progress, `.<address>.<writer's pid>.<8 hex digits>.tmp`: the dot keeps it from being read as an account. */
const TEMP_FILE = /^\.(\w+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

function tempFilePath(directory: string, address: string): string {
  return path.join(directory, `.${address}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes a new key file atomically and never over an existing one: the document goes to a temp
 * file (0600) that is fsynced, then hard-linked to its final name (link fails with EEXIST where
 * rename would replace), then the temp name is removed and the directory fsynced. A write killed
 * midway leaves its temp file only, which `removeAbandonedTempFiles` takes away at the next start.
 */
export function writeKeyFile(directory: string, document: KeyFileJson): string {
  const target = keyFilePath(directory, document.address);
  const temp = tempFilePath(directory, document.address);
  let descriptor: number;
  try {
    ensureKeystoreDirectory(directory);
    descriptor = openSync(temp, 'wx', 0o600);
  } catch (error) {
    throw unwritable(target, error);
  }
  try {
    writeSync(descriptor, `${JSON.stringify(document, null, 2)}\n`);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    unlinkSync(temp);
    throw unwritable(target, error);
  }
  closeSync(descriptor);
  try {
    linkSync(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new KeyFileError(target, 'KEY_FILE_EXISTS', 'already exists; it is never overwritten');
    }
    throw unwritable(target, error);
  } finally {
    unlinkSync(temp);
  }
  const directoryDescriptor = openSync(directory, 'r');
  try {
    fsyncSync(directoryDescriptor);
  } finally {
    closeSync(directoryDescriptor);
  }
  return target;
}

/**
 * A failed write as the operator should hear it: a read-only directory (mode bits, an immutable
 * flag or a read-only mount) or a full disk, naming the file; anything else as it came.
 */
function unwritable(target: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new KeyFileError(target, 'KEY_FILE_UNWRITABLE', `cannot be written: its directory is read-only (${code})`);
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') return new KeyFileError(target, 'KEY_FILE_UNWRITABLE', `cannot be written: disk full (${code})`);
  return error;
}

/**
 * Removes the temp files of writes whose process is gone (killed between creating the temp file
 * and removing it); a write still in progress in another live keystore keeps its file, and so does
 * a read-only directory (the file is harmless: never read as an account). Returns the removed names.
 */
export function removeAbandonedTempFiles(directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const abandoned = names.filter((name) => {
    const writer = TEMP_FILE.exec(name)?.[2];
    return writer !== undefined && (Number(writer) === process.pid || !processExists(Number(writer)));
  });
  return abandoned.filter((name) => {
    try {
      unlinkSync(path.join(directory, name));
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOENT') return false;
      throw error;
    }
  });
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
