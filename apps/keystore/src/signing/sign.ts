import { hashTransaction, type ChainProfile } from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';
import type { LocalKey } from '../keyfiles/keystore';
import { guardTransaction } from './guard';

/**
 * The bytes a jt_sign signature covers: UTF-8(profile.signMessagePrefix) || message. They are
 * signed with the chain's `sign` (ripple-keypairs `sign(hex, privateKey)`): for secp256k1, ECDSA
 * over SHA-512Half of those bytes with a canonical DER signature; for ed25519, Ed25519 over the
 * bytes themselves. Verify with ripple-keypairs `verify(hex, signature, publicKey)` on the same
 * bytes. The prefix starts with 0x19 while a transaction's signing bytes start with 'STX\0', so a
 * message signature can never pass for a transaction's.
 */
export function messageSigningBytes(profile: ChainProfile, message: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(profile.signMessagePrefix, 'utf8'), message]);
}

export interface MessageSignature {
  /** DER (secp256k1) or 64 bytes (ed25519). */
  signature: Buffer;
  publicKey: Buffer;
  address: string;
}

export function signMessage(profile: ChainProfile, key: LocalKey, message: Uint8Array): MessageSignature {
  const signatureHex = profile.keys.sign(messageSigningBytes(profile, message).toString('hex'), key.privateKey);
  return { signature: Buffer.from(signatureHex, 'hex'), publicKey: Buffer.from(key.publicKey, 'hex'), address: key.address };
}

export interface SignedTransaction {
  /** Canonical binary form with TxnSignature. */
  blob: Buffer;
  /** Transaction id: SHA-512Half('TXN\0' || blob). */
  hash: Buffer;
}

/** Parses the request's JSON; the guard then decides whether it may be signed. */
export function parseTransactionJson(txJson: string): unknown {
  try {
    return JSON.parse(txJson) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) throw new InvalidParams(`tx_json is not valid JSON: ${error.message}`, 'tx_json');
    throw error;
  }
}

/** Guards, encodes and signs a transaction (rippled: the signature covers 'STX\0' + the signing fields). */
export function signTransaction(profile: ChainProfile, key: LocalKey, fields: unknown): SignedTransaction {
  const tx = guardTransaction(fields, key);
  let signingData: string;
  try {
    signingData = profile.codec.encodeForSigning(tx);
  } catch (error) {
    if (error instanceof InvalidParams) throw error;
    throw new InvalidParams(`transaction cannot be encoded: ${error instanceof Error ? error.message : String(error)}`, 'tx_json');
  }
  const TxnSignature = profile.keys.sign(signingData, key.privateKey);
  const blobHex = profile.codec.encode({ ...tx, TxnSignature });
  return { blob: Buffer.from(blobHex, 'hex'), hash: Buffer.from(hashTransaction(blobHex), 'hex') };
}
