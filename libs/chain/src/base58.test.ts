import fc from 'fast-check';
import { decodeAccountID, encodeAccountID } from 'ripple-address-codec';
import { describe, expect, it } from 'vitest';
import { AddressCodec, Base58Check, JINGTUM_ALPHABET, XRPL_ALPHABET } from './base58';

const xrpl = new AddressCodec(XRPL_ALPHABET);
const jingtum = new AddressCodec(JINGTUM_ALPHABET);
const accountId = fc.uint8Array({ minLength: 20, maxLength: 20 });

describe('Base58Check and AddressCodec', () => {
  it('write every AccountID as ripple-address-codec does, and read its addresses back', () => {
    fc.assert(
      fc.property(accountId, (id) => {
        const address = xrpl.encodeAccountId(id);
        expect(address).toBe(encodeAccountID(id));
        expect(Buffer.from(xrpl.decodeAccountId(address))).toEqual(Buffer.from(decodeAccountID(address)));
      }),
    );
  });

  it("write a Jingtum address as the XRPL one in the Jingtum alphabet ('r' and 'j' swapped)", () => {
    const swap = (text: string) => text.replace(/[rj]/g, (character) => (character === 'r' ? 'j' : 'r'));
    fc.assert(
      fc.property(accountId, (id) => {
        const address = jingtum.encodeAccountId(id);
        expect(address).toBe(swap(encodeAccountID(id)));
        expect(Buffer.from(jingtum.decodeAccountId(address))).toEqual(Buffer.from(id));
        expect(xrpl.tryDecodeAccountId(address)).toBeNull();
      }),
    );
  });

  it('keep leading zero bytes as leading zero digits', () => {
    const codec = new Base58Check(XRPL_ALPHABET);
    const payload = Uint8Array.of(0, 0, 0, 7);
    const text = codec.encode(payload);
    expect(text.startsWith('rrr')).toBe(true);
    expect(Buffer.from(codec.decode(text)!)).toEqual(Buffer.from(payload));
  });

  it('refuse a wrong checksum, a character outside the alphabet and the empty text', () => {
    const address = xrpl.encodeAccountId(new Uint8Array(20).fill(9));
    const last = address.at(-1)!;
    const changed = address.slice(0, -1) + (last === 'p' ? 's' : 'p');
    expect(xrpl.tryDecodeAccountId(changed)).toBeNull();
    expect(xrpl.tryDecodeAccountId(`${address.slice(0, -1)}0`)).toBeNull();
    expect(xrpl.tryDecodeAccountId(`${address.slice(0, -1)}é`)).toBeNull();
    expect(new Base58Check(XRPL_ALPHABET).decode('')).toBeNull();
    expect(() => xrpl.decodeAccountId(changed)).toThrow(/is not a valid address/);
  });
});
