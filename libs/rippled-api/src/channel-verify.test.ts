import { describe, expect, it } from 'vitest';
import { Base58Check, getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { channelClaimMessage, channelVerify } from './channel-verify';
import { RpcError } from './errors';
import type { JsonObject } from './protocol';

const xrpl = getProfile('xrpl');

/** A mainnet PaymentChannelClaim: its Signature authorizes Balance drops from Channel, signed by PublicKey. */
function recordedClaim(name: string): { channel_id: string; amount: string; signature: string; public_key: string } {
  const tx = readFixture<JsonObject>(`xrpl/corpus/transactions/${name}.json`);
  return { channel_id: tx.Channel as string, amount: tx.Balance as string, signature: tx.Signature as string, public_key: tx.PublicKey as string };
}

function errorOf(params: JsonObject): { token: string; message: string } | undefined {
  try {
    channelVerify(params, xrpl);
    return undefined;
  } catch (error) {
    if (error instanceof RpcError) return { token: error.token, message: error.message };
    throw error;
  }
}

describe('channel_verify', () => {
  const claim = recordedClaim('PaymentChannelClaim-358D8E70');

  it('serializes a claim as rippled: CLM\\0, channel id, amount as a big-endian u64', () => {
    expect(channelClaimMessage('ab'.repeat(32), 8806247n)).toBe(`434C4D00${'AB'.repeat(32)}0000000000865F67`);
  });

  it('verifies the signature of recorded mainnet claims', () => {
    expect(channelVerify(claim, xrpl)).toEqual({ signature_verified: true });
    expect(channelVerify(recordedClaim('PaymentChannelClaim-81B9ECAE'), xrpl)).toEqual({ signature_verified: true });
  });

  it('refuses the same signature for another amount, channel or key', () => {
    expect(channelVerify({ ...claim, amount: String(BigInt(claim.amount) + 1n) }, xrpl)).toEqual({ signature_verified: false });
    expect(channelVerify({ ...claim, channel_id: recordedClaim('PaymentChannelClaim-81B9ECAE').channel_id }, xrpl)).toEqual({ signature_verified: false });
    expect(channelVerify({ ...claim, public_key: recordedClaim('PaymentChannelClaim-81B9ECAE').public_key }, xrpl)).toEqual({ signature_verified: false });
    expect(channelVerify({ ...claim, signature: '00' }, xrpl)).toEqual({ signature_verified: false });
  });

  it('takes the public key in base58 (aB…) as well as hex', () => {
    const base58 = new Base58Check(xrpl.addressAlphabet).encode(Buffer.concat([Buffer.from([0x23]), Buffer.from(claim.public_key, 'hex')]));
    expect(base58.startsWith('a')).toBe(true);
    expect(channelVerify({ ...claim, public_key: base58 }, xrpl)).toEqual({ signature_verified: true });
  });

  it("answers rippled's errors for each malformed field, missing fields first", () => {
    expect(errorOf({ ...claim, public_key: undefined })).toEqual({ token: 'invalidParams', message: "Missing field 'public_key'." });
    expect(errorOf({ channel_id: 'zz' })).toEqual({ token: 'invalidParams', message: "Missing field 'public_key'." });
    expect(errorOf({ ...claim, signature: undefined })).toEqual({ token: 'invalidParams', message: "Missing field 'signature'." });
    expect(errorOf({ ...claim, public_key: 'ED00' })?.token).toBe('publicMalformed');
    expect(errorOf({ ...claim, public_key: `04${claim.public_key.slice(2)}` })?.token).toBe('publicMalformed');
    expect(errorOf({ ...claim, public_key: 7 })?.token).toBe('publicMalformed');
    expect(errorOf({ ...claim, channel_id: claim.channel_id.slice(2) })).toEqual({ token: 'channelMalformed', message: 'Payment channel is malformed.' });
    expect(errorOf({ ...claim, amount: 8806247 })).toEqual({ token: 'channelAmtMalformed', message: 'Payment channel amount is malformed.' });
    expect(errorOf({ ...claim, amount: '-1' })?.token).toBe('channelAmtMalformed');
    expect(errorOf({ ...claim, amount: '18446744073709551616' })?.token).toBe('channelAmtMalformed');
    expect(errorOf({ ...claim, signature: '' })).toEqual({ token: 'invalidParams', message: 'Invalid parameters.' });
    expect(errorOf({ ...claim, signature: 'not hex' })?.token).toBe('invalidParams');
  });
});
