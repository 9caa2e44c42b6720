import { createECDH, createPrivateKey, createPublicKey, sign as signWithOpenSsl, verify as verifyWithOpenSsl, type KeyObject } from 'node:crypto';
import { InvalidParams } from '@ledger-node/errors';
import * as keypairs from 'ripple-keypairs';
import { AddressCodec, Base58Check, XRPL_ALPHABET } from './base58';
import { sha512Half } from './hash';

export type KeyAlgorithm = 'secp256k1' | 'ed25519';

export interface ChainKeys {
  /** A new family seed (`s…`) in the chain's alphabet; secp256k1 unless asked otherwise. */
  generateSeed(options?: { algorithm?: KeyAlgorithm; entropy?: Uint8Array }): string;
  /** Key pair of a seed, hex with the type prefix (0xED for ed25519) as rippled prints it. */
  deriveKeypair(seed: string): { publicKey: string; privateKey: string };
  deriveAddress(publicKey: string): string;
  /** DER (secp256k1) or 64-byte (ed25519) signature of the message bytes, uppercase hex. */
  sign(messageHex: string, privateKey: string): string;
  /** `sign` with the key read once: for a holder that signs many messages (an Ed25519 key object costs more to make than a signature). */
  signer(privateKey: string): (messageHex: string) => string;
  verify(messageHex: string, signatureHex: string, publicKey: string): boolean;
}

const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
const PUBLIC_KEY_HEX = /^(?:0[23][0-9A-F]{64}|ED[0-9A-F]{64})$/;

/** Whether `hex` is a public key as rippled prints one: 33 bytes of uppercase hex, secp256k1 (02/03) or ed25519 (ED). */
export function isPublicKeyHex(hex: string): boolean {
  return PUBLIC_KEY_HEX.test(hex);
}

/**
 * Signatures are verified in OpenSSL (node:crypto), some twenty times faster here than
 * ripple-keypairs' pure-JavaScript curves, with the same verdicts:
 * - Ed25519 (RFC 8032, S below the group order) signs there too: its signatures are deterministic,
 *   the same bytes either way.
 * - secp256k1 signs over SHA-512Half of the message, the first 256 bits of its SHA-512: ECDSA with
 *   SHA-512 on a 256-bit curve takes exactly those bits, so OpenSSL verifies it as `sha512`. Only a
 *   low S is canonical (rippled, ripple-keypairs), which OpenSSL does not ask: checked here. Signing
 *   stays with ripple-keypairs, whose signatures are deterministic (RFC 6979) and low-S.
 */
const ED25519_KEY = /^ED[0-9A-F]{64}$/i;
const SECP256K1_PUBLIC_KEY = /^0[23][0-9A-F]{64}$/i;
/** The DER around an Ed25519 private key's 32 bytes (PKCS#8), an Ed25519 public key's and a compressed secp256k1 public key's (SPKI). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SECP256K1_SPKI_PREFIX = Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex');
/** The order of secp256k1's group, and half of it: a canonical S is at most the half. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SECP256K1_HALF_ORDER = SECP256K1_ORDER >> 1n;
/** Public keys a process keeps as key objects (forgotten all at once past this); private keys are never kept. */
const KEPT_PUBLIC_KEYS = 1024;
const publicKeys = new Map<string, KeyObject>();

/** The key object of an Ed25519 key (uppercase hex with its ED prefix) or a compressed secp256k1 key (02/03…). */
function publicKeyObject(publicKeyHex: string, ed25519: boolean): KeyObject {
  let key = publicKeys.get(publicKeyHex);
  if (key === undefined) {
    const der = ed25519
      ? Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex.slice(2), 'hex')])
      : Buffer.concat([SECP256K1_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]);
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    if (publicKeys.size >= KEPT_PUBLIC_KEYS) publicKeys.clear();
    publicKeys.set(publicKeyHex, key);
  }
  return key;
}

function ed25519Signer(privateKeyHex: string): (messageHex: string) => string {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(privateKeyHex.slice(2), 'hex')]), format: 'der', type: 'pkcs8' });
  return (messageHex) => signWithOpenSsl(null, Buffer.from(requireHex(messageHex, 'message'), 'hex'), key).toString('hex').toUpperCase();
}

/** An unsigned 32-bit big-endian integer's bytes. */
function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** The compressed public key (33 bytes) of a secp256k1 private key. */
function secp256k1PublicKey(privateKey: bigint): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(privateKey.toString(16).padStart(64, '0'), 'hex'));
  return ecdh.getPublicKey(null, 'compressed') as Buffer;
}

/** The first SHA-512Half of `prefix` and a 32-bit counter (from 0) that is a valid secp256k1 private key. */
function secp256k1Scalar(...prefix: Uint8Array[]): bigint {
  for (let sequence = 0; ; sequence++) {
    const scalar = BigInt(`0x${sha512Half(...prefix, uint32(sequence)).toString('hex')}`);
    if (scalar > 0n && scalar < SECP256K1_ORDER) return scalar;
  }
}

/**
 * A seed's key pair as rippled derives it, the curve arithmetic in OpenSSL (ripple-keypairs does it
 * in JavaScript and then signs and verifies a test message, some 20 ms a key pair here, which every
 * devnet and test paid for its validators' keys at start):
 * - Ed25519: the private key is SHA-512Half of the seed's 16 bytes;
 * - secp256k1: a root key from the seed, then the key of account 0, root + SHA-512Half(root's
 *   public key ‖ 0 ‖ n) modulo the group order (each hash the first of n = 0, 1, … below the order).
 * Tests hold it to ripple-keypairs' answer for random seeds of both kinds.
 */
function keypairOfSeed(entropy: Uint8Array, type: 'ed25519' | 'secp256k1'): { publicKey: string; privateKey: string } {
  if (type === 'ed25519') {
    const privateKey = sha512Half(entropy);
    const der = createPublicKey(createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, privateKey]), format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' });
    return { privateKey: `ED${privateKey.toString('hex').toUpperCase()}`, publicKey: `ED${der.subarray(ED25519_SPKI_PREFIX.length).toString('hex').toUpperCase()}` };
  }
  const root = secp256k1Scalar(entropy);
  const privateKey = (root + secp256k1Scalar(secp256k1PublicKey(root), uint32(0))) % SECP256K1_ORDER;
  return { privateKey: `00${privateKey.toString(16).padStart(64, '0').toUpperCase()}`, publicKey: secp256k1PublicKey(privateKey).toString('hex').toUpperCase() };
}

/** The S of a DER ECDSA signature (30 len 02 rlen r 02 slen s, nothing after), or undefined when it is not one. */
function derSignatureS(signature: Buffer): bigint | undefined {
  if (signature.length < 8 || signature[0] !== 0x30 || signature[1] !== signature.length - 2 || signature[2] !== 0x02) return undefined;
  const rEnd = 4 + signature[3]!;
  if (rEnd + 2 > signature.length || signature[rEnd] !== 0x02 || rEnd + 2 + signature[rEnd + 1]! !== signature.length) return undefined;
  const s = signature.subarray(rEnd + 2);
  return s.length === 0 ? undefined : BigInt(`0x${s.toString('hex')}`);
}

/** Whether a signature of the message checks out under the key (hex, either case; an Ed25519 key with its ED prefix). */
function verifyWithKeyObject(messageHex: string, signatureHex: string, publicKeyHex: string): boolean {
  const ed25519 = ED25519_KEY.test(publicKeyHex);
  const key = publicKeyObject(publicKeyHex.toUpperCase(), ed25519);
  const message = Buffer.from(messageHex, 'hex');
  const signature = Buffer.from(signatureHex, 'hex');
  if (ed25519) return signature.length === 64 && verifyWithOpenSsl(null, message, key, signature);
  const s = derSignatureS(signature);
  return s !== undefined && s <= SECP256K1_HALF_ORDER && verifyWithOpenSsl('sha512', message, key, signature);
}

function requireHex(value: string, what: string): string {
  if (typeof value !== 'string' || !HEX.test(value)) throw new InvalidParams(`${what} must be an even-length hex string`, what);
  return value;
}

/**
 * Keys for one chain. Seeds and addresses differ from the XRPL only in their base58 alphabet, so
 * seeds are checked in the chain's alphabet and rewritten digit by digit for ripple-keypairs.
 */
export function createChainKeys(alphabet: string): ChainKeys {
  const chainBase58 = new Base58Check(alphabet);
  const xrplBase58 = new Base58Check(XRPL_ALPHABET);
  const addresses = new AddressCodec(alphabet);
  const xrplAddresses = new AddressCodec(XRPL_ALPHABET);

  const seedToXrpl = (seed: string): string => {
    if (typeof seed !== 'string' || chainBase58.decode(seed) === null) {
      throw new InvalidParams('the seed is not a valid base58 family seed for this chain', 'seed');
    }
    return chainBase58.translate(seed, xrplBase58);
  };

  const signer = (privateKey: string): ((messageHex: string) => string) => {
    requireHex(privateKey, 'privateKey');
    if (ED25519_KEY.test(privateKey)) return ed25519Signer(privateKey);
    return (messageHex) => keypairs.sign(requireHex(messageHex, 'message'), privateKey).toUpperCase();
  };

  return {
    generateSeed(options = {}) {
      const seed = keypairs.generateSeed({ algorithm: options.algorithm === 'ed25519' ? 'ed25519' : 'ecdsa-secp256k1', entropy: options.entropy });
      return xrplBase58.translate(seed, chainBase58);
    },
    deriveKeypair(seed) {
      const xrplSeed = seedToXrpl(seed);
      let decoded: ReturnType<typeof keypairs.decodeSeed>;
      try {
        decoded = keypairs.decodeSeed(xrplSeed);
      } catch (error) {
        throw new InvalidParams(`cannot derive a key pair from the seed: ${error instanceof Error ? error.message : String(error)}`, 'seed');
      }
      return keypairOfSeed(decoded.bytes, decoded.type === 'ed25519' ? 'ed25519' : 'secp256k1');
    },
    deriveAddress(publicKey) {
      const xrplAddress = keypairs.deriveAddress(requireHex(publicKey, 'publicKey'));
      return addresses.encodeAccountId(xrplAddresses.decodeAccountId(xrplAddress));
    },
    sign: (messageHex, privateKey) => signer(privateKey)(messageHex),
    signer,
    verify(messageHex, signatureHex, publicKey) {
      if (![messageHex, signatureHex, publicKey].every((value) => typeof value === 'string' && HEX.test(value))) return false;
      try {
        if (ED25519_KEY.test(publicKey) || SECP256K1_PUBLIC_KEY.test(publicKey)) return verifyWithKeyObject(messageHex, signatureHex, publicKey);
        return keypairs.verify(messageHex, signatureHex, publicKey);
      } catch (error) {
        // A malformed signature or key (bad DER, wrong length, point not on the curve) is a failed verification.
        if (error instanceof Error) return false;
        throw error;
      }
    },
  };
}
