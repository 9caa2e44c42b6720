import { describe, expect, it } from 'vitest';
import { getProfile } from './profiles';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeNodePublicKey, nodePublicKeyHex, readValidatorList, signValidation, verifyValidation } from './validation';

const ledger = { ledgerIndex: 11119604, ledgerHash: 'C5B6E0C0AE4CA9AD7E16CCF74DA2DDE40E1ECFF0C70CB3A6B1A6E59A96C91EA0', signingTime: 500000000 };

describe('validations', () => {
  for (const profile of [getProfile('xrpl'), getProfile('jingtum')]) {
    const keypair = profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(5) }));

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

describe('readValidatorList (-validators FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'validators-'));
  const file = (name: string, text: string) => {
    const location = path.join(dir, name);
    writeFileSync(location, text);
    return location;
  };
  const xrpl = getProfile('xrpl');
  const keys = [...[5, 1, 2, 3, 4].map((fill) => xrpl.keys.deriveKeypair(xrpl.keys.generateSeed({ entropy: new Uint8Array(16).fill(fill) })).publicKey)];

  it('reads n… keys of either chain and hex keys, skips comments, and takes 80% (rounded up) as the default quorum', () => {
    const text = ['# trusted', encodeNodePublicKey(keys[0]!, xrpl), `${encodeNodePublicKey(keys[1]!, getProfile('jingtum'))}  # a Jingtum-alphabet key`, keys[2]!.toLowerCase(), '', keys[3], keys[4], keys[4]].join('\n');
    expect(readValidatorList(file('five.txt', text))).toEqual({ keys, quorum: 4 });
    expect(readValidatorList(file('quorum.txt', `${text}\nquorum 2\n`)).quorum).toBe(2);
  });

  it('says which line is wrong, and refuses a list with no key or a quorum it cannot reach', () => {
    expect(() => readValidatorList(file('bad.txt', `${keys[0]}\nrHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh\n`))).toThrow(/bad.txt line 2: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' is not a validator public key/);
    expect(() => readValidatorList(file('empty.txt', '# nobody\n'))).toThrow(/names no validator key/);
    expect(() => readValidatorList(file('high.txt', `${keys[0]}\nquorum 2\n`))).toThrow(/quorum 2 is more than the 1 keys listed/);
    expect(() => readValidatorList(file('zero.txt', `${keys[0]}\nquorum 0\n`))).toThrow(/quorum must be a whole number/);
    expect(() => readValidatorList(path.join(dir, 'missing.txt'))).toThrow(/cannot read .*missing.txt: ENOENT/);
  });
});
