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
  verify(messageHex: string, signatureHex: string, publicKey: string): boolean;
}

const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
const PUBLIC_KEY_HEX = /^(?:0[23][0-9A-F]{64}|ED[0-9A-F]{64})$/;

/** Whether `hex` is a public key as rippled prints one: 33 bytes of uppercase hex, secp256k1 (02/03) or ed25519 (ED). */
export function isPublicKeyHex(hex: string): boolean {
  return PUBLIC_KEY_HEX.test(hex);
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
    sign(messageHex, privateKey) {
      return keypairs.sign(requireHex(messageHex, 'message'), requireHex(privateKey, 'privateKey')).toUpperCase();
    },
    verify(messageHex, signatureHex, publicKey) {
      if (![messageHex, signatureHex, publicKey].every((value) => typeof value === 'string' && HEX.test(value))) return false;
      try {
        return keypairs.verify(messageHex, signatureHex, publicKey);
      } catch (error) {
        // A malformed signature or key (bad DER, wrong length, point not on the curve) is a failed verification.
        if (error instanceof Error) return false;
        throw error;
      }
    },
  };
}
