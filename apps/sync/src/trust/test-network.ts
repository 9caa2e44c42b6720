/**
 * A validator network for sync's unit tests: the public-entropy devnet's publisher and validators
 * (libs/chain devnet-keys), a list signed by the publisher, and each validator's validations signed
 * with its signing key as the `validations` stream carries them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devnetNetworkKeys, encodeNodePublicKey, signManifest, signPublishedList, signValidation, unixMsToRippleTime, type ChainProfile, type ValidatorList } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { ValidatorLists } from './validator-lists';

export function testNetwork(profile: ChainProfile, validatorCount = 3) {
  const keys = devnetNetworkKeys({ validatorCount });
  const manifestOf = (holder: (typeof keys)['publisher']) => signManifest({ master: holder.master, signing: holder.signing, sequence: 1 });
  const now = unixMsToRippleTime(Date.now());
  const document = (sequence = 1, expiration = now + 3600) =>
    signPublishedList({
      manifest: manifestOf(keys.publisher),
      signing: keys.publisher.signing,
      publisherKey: keys.publisher.master.publicKey,
      version: 1,
      blobs: [{ sequence, expiration, validators: keys.validators.map((validator) => ({ masterKey: validator.master.publicKey, manifest: Buffer.from(manifestOf(validator), 'hex').toString('base64') })) }],
    });
  /** ValidatorLists trusting the publisher (its list applied) or, with `validators`, those keys alone. */
  const lists = (options: { validators?: ValidatorList; applyList?: boolean } = {}) => {
    const validators = options.validators;
    const trusting = new ValidatorLists({
      config: {
        publisherKeys: validators ? [] : [keys.publisher.master.publicKey],
        sites: [],
        listFiles: [],
        validators,
        origin: 'the tests',
        keptListsDir: path.join(mkdtempSync(path.join(tmpdir(), 'lists-')), 'validator-lists'),
      },
      logger: createLogger('sync', 'silent'),
    });
    if (!validators && options.applyList !== false) trusting.trust.applyList(document(), { site: 'test', now });
    return trusting;
  };
  /** Validator `index`'s full validation of a ledger, as the stream message carries it. */
  const validation = (index: number, ledgerIndex: number, ledgerHash: string) => {
    const validator = keys.validators[index]!;
    return { data: signValidation(profile, validator.signing, { ledgerIndex, ledgerHash, signingTime: 1 }), master_key: encodeNodePublicKey(validator.master.publicKey, profile) };
  };
  return { keys, document, lists, validation, manifestOf, now };
}
