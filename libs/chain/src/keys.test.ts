import { randomBytes, verify as cryptoVerify } from 'node:crypto';
import * as keypairs from 'ripple-keypairs';
import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { chainIds, getProfile } from './profiles';

const message = Buffer.from('ledger-node signing test').toString('hex').toUpperCase();

describe('ChainKeys', () => {
  for (const id of chainIds) {
    const profile = getProfile(id);

    describe(profile.displayName, () => {
      it('derives the genesis address from the genesis secret', () => {
        const { publicKey } = profile.keys.deriveKeypair(profile.genesis.secret);
        expect(profile.keys.deriveAddress(publicKey)).toBe(profile.genesis.address);
        expect(profile.codec.isValidAddress(profile.genesis.address)).toBe(true);
      });

      for (const algorithm of ['secp256k1', 'ed25519'] as const) {
        it(`signs and verifies with a new ${algorithm} seed, and rejects a changed signature or message`, () => {
          const seed = profile.keys.generateSeed({ algorithm });
          expect(seed.startsWith(algorithm === 'ed25519' ? 'sEd' : 's')).toBe(true);
          const { publicKey, privateKey } = profile.keys.deriveKeypair(seed);
          expect(publicKey.startsWith('ED')).toBe(algorithm === 'ed25519');
          const signature = profile.keys.sign(message, privateKey);
          expect(profile.keys.verify(message, signature, publicKey)).toBe(true);
          expect(profile.keys.signer(privateKey)(message)).toBe(signature);
          expect(() => profile.keys.signer(privateKey)('not hex')).toThrow(expect.objectContaining({ kind: 'invalid_params' }));

          const flipped = signature.slice(0, 20) + (signature[20] === '0' ? '1' : '0') + signature.slice(21);
          expect(profile.keys.verify(message, flipped, publicKey)).toBe(false);
          expect(profile.keys.verify(message.slice(0, -2) + '00', signature, publicKey)).toBe(false);
          expect(profile.keys.verify(message, 'ZZ', publicKey)).toBe(false);
        });
      }

      it('derives the same key pair from the same entropy every time', () => {
        const entropy = new Uint8Array(16).fill(7);
        const seed = profile.keys.generateSeed({ entropy });
        expect(profile.keys.generateSeed({ entropy })).toBe(seed);
        expect(profile.keys.deriveKeypair(seed)).toEqual(profile.keys.deriveKeypair(seed));
      });

      it('refuses a seed whose checksum fails, with InvalidParams', () => {
        const seed = profile.genesis.secret;
        const broken = seed.slice(0, -1) + (seed.endsWith('b') ? 'c' : 'b');
        expect(() => profile.keys.deriveKeypair(broken)).toThrow(expect.objectContaining({ kind: 'invalid_params' }));
      });
    });
  }

  it('derives from every seed the key pair ripple-keypairs derives, secp256k1 and Ed25519', () => {
    const keys = getProfile('xrpl').keys;
    for (let round = 0; round < 60; round++) {
      for (const algorithm of ['secp256k1', 'ed25519'] as const) {
        const seed = keys.generateSeed({ algorithm, entropy: randomBytes(16) });
        const expected = keypairs.deriveKeypair(seed);
        expect(keys.deriveKeypair(seed), seed).toEqual({ publicKey: expected.publicKey.toUpperCase(), privateKey: expected.privateKey.toUpperCase() });
      }
    }
    // The XRP Ledger's genesis account (rippled's documentation) and entropy at the ends of its range.
    expect(keys.deriveKeypair('snoPBrXtMeMyMHUVTgbuqAfg1SUTb').publicKey).toBe('0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020');
    for (const fill of [0x00, 0xff]) {
      for (const algorithm of ['secp256k1', 'ed25519'] as const) {
        const seed = keys.generateSeed({ algorithm, entropy: new Uint8Array(16).fill(fill) });
        expect(keys.deriveKeypair(seed).privateKey).toBe(keypairs.deriveKeypair(seed).privateKey.toUpperCase());
      }
    }
  });

  it('signs with Ed25519 the bytes ripple-keypairs signs, and each verifies the other', () => {
    const keys = getProfile('xrpl').keys;
    for (let round = 0; round < 40; round++) {
      const { publicKey, privateKey } = keys.deriveKeypair(keys.generateSeed({ algorithm: 'ed25519', entropy: randomBytes(16) }));
      const signed = randomBytes(round * 7).toString('hex').toUpperCase();
      const signature = keys.sign(signed, privateKey);
      expect(signature).toBe(keypairs.sign(signed, privateKey).toUpperCase());
      expect(keys.verify(signed, signature, publicKey)).toBe(true);
      expect(keys.verify(signed.toLowerCase(), signature.toLowerCase(), publicKey.toLowerCase())).toBe(true);
      expect(keypairs.verify(signed, signature, publicKey)).toBe(true);
      expect(keys.verify(signed + '00', signature, publicKey)).toBe(false);
      expect(keys.verify(signed, signature.slice(0, -2), publicKey)).toBe(false);
    }
  });

  it('refuses an Ed25519 signature whose S is not below the group order, as ripple-keypairs does', () => {
    const keys = getProfile('xrpl').keys;
    const { publicKey, privateKey } = keys.deriveKeypair(keys.generateSeed({ algorithm: 'ed25519', entropy: new Uint8Array(16).fill(3) }));
    const signature = Buffer.from(keys.sign(message, privateKey), 'hex');
    // S + L: the same S modulo the group order, a second encoding RFC 8032 forbids.
    const order = 2n ** 252n + 27742317777372353535851937790883648493n;
    const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`) + order;
    const malleated = Buffer.concat([signature.subarray(0, 32), Buffer.from(s.toString(16).padStart(64, '0'), 'hex').reverse()]).toString('hex');
    expect(keypairs.verify(message, malleated, publicKey)).toBe(false);
    expect(keys.verify(message, malleated, publicKey)).toBe(false);
  });

  it('verifies secp256k1 signatures as ripple-keypairs does: SHA-512Half, canonical DER, low S only', () => {
    const keys = getProfile('xrpl').keys;
    const order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    for (let round = 0; round < 40; round++) {
      const { publicKey, privateKey } = keys.deriveKeypair(keys.generateSeed({ entropy: randomBytes(16) }));
      const signed = randomBytes(round * 7).toString('hex').toUpperCase();
      const signature = keys.sign(signed, privateKey);
      expect(keys.verify(signed, signature, publicKey)).toBe(true);
      expect(keys.verify(signed.toLowerCase(), signature.toLowerCase(), publicKey.toLowerCase())).toBe(true);
      expect(keys.verify(signed + '00', signature, publicKey)).toBe(false);
      expect(keys.verify(signed, `${signature}00`, publicKey)).toBe(false);
      // The same signature with S turned to n - S: valid ECDSA, which OpenSSL alone accepts, but not canonical.
      const der = Buffer.from(signature, 'hex');
      const rLength = der[3]!;
      const s = BigInt(`0x${der.subarray(6 + rLength).toString('hex')}`);
      let highS = (order - s).toString(16);
      highS = (highS.length % 2 ? '0' : '') + highS;
      if (Number.parseInt(highS.slice(0, 2), 16) >= 0x80) highS = `00${highS}`;
      const r = der.subarray(4, 4 + rLength).toString('hex');
      const body = `02${rLength.toString(16).padStart(2, '0')}${r}02${(highS.length / 2).toString(16).padStart(2, '0')}${highS}`;
      const malleated = `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`;
      const spki = Buffer.concat([Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex'), Buffer.from(publicKey, 'hex')]);
      expect(cryptoVerify('sha512', Buffer.from(signed, 'hex'), { key: spki, format: 'der', type: 'spki' }, Buffer.from(malleated, 'hex'))).toBe(true);
      expect(keypairs.verify(signed, malleated, publicKey)).toBe(false);
      expect(keys.verify(signed, malleated, publicKey)).toBe(false);
    }
    const { publicKey } = keys.deriveKeypair(keys.generateSeed({ entropy: new Uint8Array(16).fill(5) }));
    const notOnTheCurve = `02${'FF'.repeat(32)}`;
    expect(keys.verify(message, keys.sign(message, keys.deriveKeypair(keys.generateSeed({ entropy: new Uint8Array(16).fill(5) })).privateKey), notOnTheCurve)).toBe(false);
    expect(keys.verify(message, '3006020101020101', publicKey)).toBe(false);
  });

  it('reads a Jingtum seed as the XRPL seed with the same digits: same keys, addresses in each alphabet', () => {
    const xrpl = getProfile('xrpl');
    const jingtum = getProfile('jingtum');
    const jingtumSeed = jingtum.keys.generateSeed({ entropy: new Uint8Array(16).fill(42) });
    const xrplSeed = xrpl.keys.generateSeed({ entropy: new Uint8Array(16).fill(42) });
    expect(jingtum.keys.deriveKeypair(jingtumSeed)).toEqual(xrpl.keys.deriveKeypair(xrplSeed));
    const { publicKey } = xrpl.keys.deriveKeypair(xrplSeed);
    const accountId = xrpl.codec.decodeAccountId(xrpl.keys.deriveAddress(publicKey));
    expect(jingtum.keys.deriveAddress(publicKey)).toBe(jingtum.codec.encodeAccountId(accountId));
  });

  it('matches the xrpl package wallet for the XRPL genesis secret', () => {
    const wallet = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb');
    const xrpl = getProfile('xrpl');
    expect(xrpl.keys.deriveKeypair('snoPBrXtMeMyMHUVTgbuqAfg1SUTb').publicKey).toBe(wallet.publicKey);
    expect(wallet.classicAddress).toBe(xrpl.genesis.address);
  });

  it('signs a transaction that the xrpl package accepts as correctly signed', () => {
    const xrpl = getProfile('xrpl');
    const { publicKey, privateKey } = xrpl.keys.deriveKeypair(xrpl.genesis.secret);
    const tx = {
      TransactionType: 'Payment',
      Account: xrpl.genesis.address,
      Destination: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
      Amount: '1000000',
      Fee: '12',
      Sequence: 1,
      Flags: 0,
      SigningPubKey: publicKey,
    };
    const signed = { ...tx, TxnSignature: xrpl.keys.sign(xrpl.codec.encodeForSigning(tx), privateKey) };
    const blob = xrpl.codec.encode(signed);
    expect(xrpl.keys.verify(xrpl.codec.encodeForSigning(xrpl.codec.decode(blob)), signed.TxnSignature, publicKey)).toBe(true);
    expect(Wallet.fromSeed(xrpl.genesis.secret).sign(tx as never).tx_blob).toBe(blob);
  });
});
