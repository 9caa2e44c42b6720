/**
 * rippled `channel_verify` (PayChanClaim.cpp doChannelVerify): whether `signature` by `public_key`
 * authorizes a claim of `amount` drops from channel `channel_id`. The signed message is rippled's
 * `serializePayChanAuthorization`: the claim prefix `CLM\0`, the 32-byte channel id and the amount
 * as a big-endian u64. No ledger is read.
 */
import { Base58Check, type ChainProfile } from '@ledger-node/chain';
import { missingField, RpcError } from './errors';
import type { JsonObject } from './protocol';

/** rippled HashPrefix::paymentChannelClaim: 'C' 'L' 'M' 0. */
const CLAIM_PREFIX = '434C4D00';
/** rippled TokenType::AccountPublic. */
const ACCOUNT_PUBLIC_VERSION = 0x23;
const HASH256 = /^[0-9A-Fa-f]{64}$/;
const HEX_DIGITS = /^[0-9A-Fa-f]+$/;
const DECIMAL_DIGITS = /^\d+$/;
const MAX_U64 = (1n << 64n) - 1n;

/** rippled `strUnHex`: an odd count of digits reads the first as a byte of its own. */
function unhex(text: string): Buffer | undefined {
  if (!HEX_DIGITS.test(text)) return undefined;
  return Buffer.from(text.length % 2 === 1 ? `0${text}` : text, 'hex');
}

/** rippled `publicKeyType`: 33 bytes, 0x02/0x03 (secp256k1) or 0xED (ed25519). */
function isPublicKey(bytes: Uint8Array): boolean {
  return bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03 || bytes[0] === 0xed);
}

/** The key as hex: base58 (`aB…`, in the chain's alphabet) first, then hex, as rippled tries them. */
function readPublicKey(value: unknown, profile: ChainProfile): string {
  if (typeof value !== 'string') throw new RpcError('publicMalformed');
  const decoded = new Base58Check(profile.addressAlphabet).decode(value);
  if (decoded !== null && decoded.length === 34 && decoded[0] === ACCOUNT_PUBLIC_VERSION && isPublicKey(decoded.subarray(1))) {
    return Buffer.from(decoded.subarray(1)).toString('hex').toUpperCase();
  }
  const bytes = unhex(value);
  if (bytes === undefined || !isPublicKey(bytes)) throw new RpcError('publicMalformed');
  return bytes.toString('hex').toUpperCase();
}

/** The message a claim signature covers (rippled `serializePayChanAuthorization`), uppercase hex. */
export function channelClaimMessage(channelId: string, drops: bigint): string {
  const amount = Buffer.alloc(8);
  amount.writeBigUInt64BE(drops);
  return `${CLAIM_PREFIX}${channelId.toUpperCase()}${amount.toString('hex').toUpperCase()}`;
}

export function channelVerify(params: JsonObject, profile: ChainProfile): { signature_verified: boolean } {
  for (const field of ['public_key', 'channel_id', 'amount', 'signature']) {
    if (params[field] === undefined) throw missingField(field);
  }
  const publicKey = readPublicKey(params.public_key, profile);
  const channelId = params.channel_id;
  if (typeof channelId !== 'string' || !HASH256.test(channelId)) throw new RpcError('channelMalformed');
  const amount = params.amount;
  // rippled: only a string of digits within a u64 is an amount.
  if (typeof amount !== 'string' || !DECIMAL_DIGITS.test(amount) || BigInt(amount) > MAX_U64) throw new RpcError('channelAmtMalformed');
  const signature = typeof params.signature === 'string' ? unhex(params.signature) : undefined;
  if (signature === undefined || signature.length === 0) throw new RpcError('invalidParams');
  const message = channelClaimMessage(channelId, BigInt(amount));
  return { signature_verified: profile.keys.verify(message, signature.toString('hex').toUpperCase(), publicKey) };
}
