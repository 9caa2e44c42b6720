import { createPrivateKey, createPublicKey, sign as signWithOpenSsl, verify as verifyWithOpenSsl, type KeyObject } from 'node:crypto';
import { InvalidParams } from '@ledger-node/errors';
import * as keypairs from 'ripple-keypairs';
import { AddressCodec, Base58Check, XRPL_ALPHABET } from './base58';

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
/** Half the order of secp256k1's group: a canonical S is at most this. */
const SECP256K1_HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
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
      let keypair: { publicKey: string; privateKey: string };
      try {
        keypair = keypairs.deriveKeypair(xrplSeed);
      } catch (error) {
        throw new InvalidParams(`cannot derive a key pair from the seed: ${error instanceof Error ? error.message : String(error)}`, 'seed');
      }
      return { publicKey: keypair.publicKey.toUpperCase(), privateKey: keypair.privateKey.toUpperCase() };
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
