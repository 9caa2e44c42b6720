import { describe, expect, it } from 'vitest';
import { decode } from 'ripple-binary-codec';
import { getProfile } from '@ledger-node/chain';
import type { LocalKey } from '../keyfiles/keystore';
import { FEE_CAP_DROPS, guardTransaction, TRANSACTION_ALLOW_LIST, TransactionRefused } from './guard';
import { messageSigningBytes, signMessage, signTransaction } from './sign';

const xrpl = getProfile('xrpl');

function keyOf(entropyByte: number, algorithm: 'secp256k1' | 'ed25519' = 'secp256k1'): LocalKey {
  const seed = xrpl.keys.generateSeed({ entropy: new Uint8Array(16).fill(entropyByte), algorithm });
  const { publicKey, privateKey } = xrpl.keys.deriveKeypair(seed);
  return { address: xrpl.keys.deriveAddress(publicKey), keyType: algorithm, publicKey, privateKey };
}

const alice = keyOf(1);
const bob = keyOf(2);
const payment = { TransactionType: 'Payment', Destination: bob.address, Amount: '1000000', Fee: '12', Sequence: 1, LastLedgerSequence: 100 };

function refusal(fields: unknown): TransactionRefused {
  try {
    guardTransaction(fields, alice);
  } catch (error) {
    if (error instanceof TransactionRefused) return error;
    throw error;
  }
  throw new Error('the guard let the transaction through');
}

describe('transaction guard', () => {
  it('allows exactly Payment, TrustSet and AccountSet', () => {
    expect(Object.keys(TRANSACTION_ALLOW_LIST)).toEqual(['Payment', 'TrustSet', 'AccountSet']);
  });

  it('sets Account and SigningPubKey from the key', () => {
    expect(guardTransaction(payment, alice)).toEqual({ ...payment, Account: alice.address, SigningPubKey: alice.publicKey });
  });

  it.each([
    ['a type off the list', { ...payment, TransactionType: 'SetRegularKey', RegularKey: bob.address }, 'TX_TYPE_NOT_ALLOWED', 'TransactionType'],
    ['no type', { Fee: '12', Sequence: 1 }, 'TX_TYPE_NOT_ALLOWED', 'TransactionType'],
    ['a field off the list', { ...payment, Paths: [] }, 'TX_FIELD_NOT_ALLOWED', 'Paths'],
    ['a field of another type', { ...payment, LimitAmount: { currency: 'USD', issuer: bob.address, value: '1' } }, 'TX_FIELD_NOT_ALLOWED', 'LimitAmount'],
    ['a ready-made signature', { ...payment, TxnSignature: 'AB' }, 'TX_FIELD_NOT_ALLOWED', 'TxnSignature'],
    ['multi-signing', { ...payment, Signers: [] }, 'TX_FIELD_NOT_ALLOWED', 'Signers'],
    ['another account', { ...payment, Account: bob.address }, 'TX_ACCOUNT_MISMATCH', 'Account'],
    ['another public key', { ...payment, SigningPubKey: bob.publicKey }, 'TX_SIGNING_KEY_MISMATCH', 'SigningPubKey'],
    ['no fee', { ...payment, Fee: undefined }, 'TX_FIELD_MISSING', 'Fee'],
    ['no sequence', { ...payment, Sequence: undefined }, 'TX_FIELD_MISSING', 'Sequence'],
    ['a fee as a number', { ...payment, Fee: 12 }, 'TX_FEE_INVALID', 'Fee'],
    ['a fractional fee', { ...payment, Fee: '0.5' }, 'TX_FEE_INVALID', 'Fee'],
    ['a fee above one native unit', { ...payment, Fee: String(FEE_CAP_DROPS + 1n) }, 'TX_FEE_ABOVE_CAP', 'Fee'],
    ['disabling the master key', { TransactionType: 'AccountSet', SetFlag: 4, Fee: '12', Sequence: 1 }, 'TX_DISABLES_MASTER_KEY', 'SetFlag'],
  ])('refuses %s', (_case, fields, code, field) => {
    const error = refusal(JSON.parse(JSON.stringify(fields)));
    expect(error.code).toBe(code);
    expect(error.kind).toBe('invalid_params');
    expect(error.details).toEqual({ param: field, data: { code } });
    expect(error.message).toMatch(/^transaction refused: /);
  });

  it('refuses a JSON value that is not an object', () => {
    expect(refusal([payment]).code).toBe('TX_NOT_AN_OBJECT');
  });

  it('allows a fee of exactly the cap', () => {
    expect(guardTransaction({ ...payment, Fee: String(FEE_CAP_DROPS) }, alice).Fee).toBe('1000000');
  });
});

describe('signTransaction', () => {
  for (const algorithm of ['secp256k1', 'ed25519'] as const) {
    it(`signs a Payment (${algorithm}) whose blob decodes and verifies over encodeForSigning`, () => {
      const key = keyOf(3, algorithm);
      const signed = signTransaction(xrpl, key, payment);
      const decoded = decode(signed.blob.toString('hex')) as Record<string, unknown>;
      expect(decoded).toMatchObject({ ...payment, Account: key.address, SigningPubKey: key.publicKey });
      const { TxnSignature, ...unsigned } = decoded;
      expect(xrpl.keys.verify(xrpl.codec.encodeForSigning(unsigned), TxnSignature as string, key.publicKey)).toBe(true);
      expect(signed.hash).toHaveLength(32);
    });
  }
});

describe('signMessage', () => {
  it('signs UTF-8(prefix) || message, verifiable with the public key', () => {
    const message = Buffer.from('hello, ledger');
    const signed = signMessage(xrpl, alice, message);
    const bytes = messageSigningBytes(xrpl, message);
    expect(bytes.toString('utf8')).toBe('\x19XRP Ledger Signed Message:\nhello, ledger');
    expect(xrpl.keys.verify(bytes.toString('hex'), signed.signature.toString('hex'), signed.publicKey.toString('hex'))).toBe(true);
    // The bare message is not what was signed.
    expect(xrpl.keys.verify(message.toString('hex'), signed.signature.toString('hex'), signed.publicKey.toString('hex'))).toBe(false);
  });
});
