import { describe, expect, it } from 'vitest';
import { devnetValidatorKeypair, getProfile, signValidation } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { AnchorProof, type AnchorProofOptions } from './anchor-proof';

const profile = getProfile('xrpl');
const logger = createLogger('sync', 'silent');
const hash = 'AB'.repeat(32);
const otherHash = 'CD'.repeat(32);
const keypairs = [devnetValidatorKeypair(profile), ...[1, 2].map((fill) => profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(fill) })))];
const signed = (keypair: (typeof keypairs)[number], ledgerHash = hash) => signValidation(profile, keypair, { ledgerIndex: 500, ledgerHash, signingTime: 1 });

function proof(options: Partial<AnchorProofOptions>): AnchorProof {
  return new AnchorProof({ profile, logger, validators: undefined, endpoints: ['ws://a'], ledgerHashFrom: async () => hash, validationWaitMs: 200, ...options });
}

describe('AnchorProof with a validator list', () => {
  const validators = { keys: keypairs.map((keypair) => keypair.publicKey), quorum: 2 };

  it('proves a ledger once a quorum of distinct trusted validators signed its hash', async () => {
    const anchor = proof({ validators });
    anchor.onValidation(signed(keypairs[0]!));
    anchor.onValidation(signed(keypairs[0]!));
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBeUndefined();
    anchor.onValidation(signed(keypairs[1]!, otherHash));
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBeUndefined();
    anchor.onValidation(signed(keypairs[2]!));
    expect(await anchor.prove(500, hash.toLowerCase(), new AbortController().signal)).toBe('validated by 2 of 3 trusted validators');
    expect(anchor.state).toBe('ledger 500 validated by 2 of 3 trusted validators');
  });

  it('stops waiting for a ledger once a later one is validated: its validations were withheld, or it is a fork', async () => {
    const anchor = proof({ validators: { keys: [keypairs[0]!.publicKey], quorum: 1 }, validationWaitMs: 60_000 });
    const later = signValidation(profile, keypairs[0]!, { ledgerIndex: 501, ledgerHash: otherHash, signingTime: 2 });
    const waiting = anchor.prove(500, hash, new AbortController().signal);
    anchor.onValidation(later);
    expect(await waiting).toBeUndefined();
    expect(anchor.state).toBe(`ledger 500 ${hash} not proven: 0 of the 1 trusted validations needed came, and ledger 501 is validated already`);
    // A validation that came in time still proves its ledger, later ones notwithstanding.
    anchor.onValidation(signed(keypairs[0]!));
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBe('validated by 1 of 1 trusted validators');
  });

  it('counts nothing from a validation whose signature does not check out, nor from a key not on the list', async () => {
    const anchor = proof({ validators: { keys: [keypairs[0]!.publicKey], quorum: 1 } });
    const decoded = profile.codec.decode(signed(keypairs[0]!));
    anchor.onValidation(profile.codec.encode({ ...decoded, LedgerHash: otherHash }));
    anchor.onValidation('00');
    anchor.onValidation(signed(keypairs[1]!));
    expect(anchor.rejectedValidations).toBe(2n);
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBeUndefined();
    expect(await anchor.prove(500, otherHash, new AbortController().signal)).toBeUndefined();
  });
});

describe('AnchorProof without a validator list', () => {
  it('proves a ledger when at least two endpoints name its hash and none names another', async () => {
    const named: Record<string, string | Error> = { 'ws://a': hash, 'ws://b': hash, 'ws://c': new Error('down') };
    const ledgerHashFrom = async (url: string) => {
      const answer = named[url]!;
      if (answer instanceof Error) throw answer;
      return answer;
    };
    const anchor = proof({ endpoints: Object.keys(named), ledgerHashFrom });
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBe('named by 2 of 3 endpoints');
    named['ws://c'] = otherHash;
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBeUndefined();
    expect(anchor.state).toBe(`ledger 500 ${hash} not proven: 2 endpoints name it, 1 name another hash`);
  });

  it('proves nothing with a single endpoint, and says so', async () => {
    const anchor = proof({});
    expect(anchor.trustText()).toBe('nothing: no -validators list and a single -endpoint');
    expect(await anchor.prove(500, hash, new AbortController().signal)).toBeUndefined();
    expect(anchor.state).toBe('ledger 500 not proven: nothing proves an anchor with no -validators list and a single -endpoint');
  });
});
