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
