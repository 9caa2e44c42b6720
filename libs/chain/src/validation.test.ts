import { describe, expect, it } from 'vitest';
import { getProfile } from './profiles';
import { devnetValidatorKeypair, encodeNodePublicKey, nodePublicKeyHex, signValidation, verifyValidation } from './validation';

const ledger = { ledgerIndex: 11119604, ledgerHash: 'C5B6E0C0AE4CA9AD7E16CCF74DA2DDE40E1ECFF0C70CB3A6B1A6E59A96C91EA0', signingTime: 500000000 };

describe('validations', () => {
  for (const profile of [getProfile('xrpl'), getProfile('jingtum')]) {
    const keypair = devnetValidatorKeypair(profile);

    it(`${profile.id}: a signed full validation verifies and states its ledger`, () => {
      const blob = signValidation(profile, keypair, ledger);
      expect(verifyValidation(profile, blob)).toEqual({ ...ledger, full: true, publicKey: keypair.publicKey });
      expect(profile.codec.decode(blob)).toMatchObject({ LedgerSequence: ledger.ledgerIndex, LedgerHash: ledger.ledgerHash, Flags: 0x80000001 });
    });

    it(`${profile.id}: a validation with any field changed, or signed by another key, does not verify`, () => {
      const decoded = profile.codec.decode(signValidation(profile, keypair, ledger));
      const otherHash = profile.codec.encode({ ...decoded, LedgerHash: '00'.repeat(32) });
      expect(() => verifyValidation(profile, otherHash)).toThrow(/is not signed by/);
      const other = profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(7) }));
      const impostor = profile.codec.encode({ ...decoded, SigningPubKey: other.publicKey });
      expect(() => verifyValidation(profile, impostor)).toThrow(/is not signed by/);
      const { Signature: _signature, ...unsigned } = decoded;
      expect(() => verifyValidation(profile, profile.codec.encode(unsigned))).toThrow(/signature/);
    });

    it(`${profile.id}: validator keys read as n… or hex, and nothing else`, () => {
      const text = encodeNodePublicKey(keypair.publicKey, profile);
      expect(text.startsWith('n')).toBe(true);
      expect(nodePublicKeyHex(text, profile)).toBe(keypair.publicKey);
      expect(nodePublicKeyHex(keypair.publicKey.toLowerCase(), profile)).toBe(keypair.publicKey);
      expect(() => nodePublicKeyHex(profile.genesis.address, profile)).toThrow(/not a validator public key/);
      expect(() => nodePublicKeyHex(text.slice(0, -1), profile)).toThrow(/not a validator public key/);
    });
  }
});
