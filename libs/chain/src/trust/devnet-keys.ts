/**
 * The keys of the network a devnet plays: a validator-list publisher and its validators, each a
 * master key (ed25519, as validator-keys-tool makes them) with a signing key named by a manifest.
 *
 * - With a key file (`-devnet_keys FILE`, what `ledger-node -dev` uses), the keys are random, made
 *   at the first start and kept in that file (mode 0600), so one data directory keeps one network.
 * - Without one, they come from public entropy, the same on every devnet: tests and the benchmark
 *   start devnets and trust them without reading a file. Trusting those keys trusts any devnet.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidParams } from '@ledger-node/errors';
import { XRPL_ALPHABET } from '../base58';
import { createChainKeys, type KeyAlgorithm } from '../keys';
import type { ChainProfile } from '../profiles';
import { encodeNodePublicKey } from '../validation';
import type { KeyPair } from './manifest';

const keys = createChainKeys(XRPL_ALPHABET);

export interface DevnetKeyHolder {
  master: KeyPair;
  signing: KeyPair;
}

export interface DevnetNetworkKeys {
  publisher: DevnetKeyHolder;
  validators: DevnetKeyHolder[];
  /** Makes the next signing key of a holder (a rotation): random with a key file, else from public entropy. */
  nextSigningKey(label: string): KeyPair;
}

/** How many validators a devnet runs unless told otherwise. */
export const DEFAULT_DEVNET_VALIDATORS = 5;

interface KeyFileHolder {
  master_seed: string;
  signing_seed: string;
}

interface KeyFile {
  version: 1;
  publisher: KeyFileHolder;
  validators: KeyFileHolder[];
}

function publicSeed(label: string, algorithm: KeyAlgorithm): string {
  return keys.generateSeed({ algorithm, entropy: createHash('sha256').update(`ledger-node devnet ${label}`).digest().subarray(0, 16) });
}

function randomSeed(algorithm: KeyAlgorithm): string {
  return keys.generateSeed({ algorithm, entropy: randomBytes(16) });
}

function holderOf(entry: KeyFileHolder): DevnetKeyHolder {
  return { master: keys.deriveKeypair(entry.master_seed), signing: keys.deriveKeypair(entry.signing_seed) };
}

function readKeyFile(file: string, validatorCount: number): KeyFile | undefined {
  if (!existsSync(file)) return undefined;
  let content: KeyFile;
  try {
    content = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
    holderOf(content.publisher);
    content.validators.forEach(holderOf);
  } catch (error) {
    throw new InvalidParams(`${file} is not a devnet key file: ${(error as Error).message}`, 'devnet_keys');
  }
  if (content.version !== 1 || content.validators.length !== validatorCount) {
    throw new InvalidParams(`${file} holds the keys of ${content.validators.length} validators, not ${validatorCount}: remove it to make a new network`, 'devnet_keys');
  }
  return content;
}

/** The devnet's network keys: kept in `file` when given (made on the first start), else from public entropy. */
export function devnetNetworkKeys(options: { file?: string; validatorCount?: number } = {}): DevnetNetworkKeys {
  const validatorCount = options.validatorCount ?? DEFAULT_DEVNET_VALIDATORS;
  const { file } = options;
  let content: KeyFile;
  if (file === undefined) {
    const holder = (label: string) => ({ master_seed: publicSeed(`${label} master`, 'ed25519'), signing_seed: publicSeed(`${label} signing 1`, 'secp256k1') });
    content = { version: 1, publisher: holder('publisher'), validators: Array.from({ length: validatorCount }, (_, index) => holder(`validator ${index + 1}`)) };
  } else {
    const kept = readKeyFile(file, validatorCount);
    if (kept) content = kept;
    else {
      const holder = () => ({ master_seed: randomSeed('ed25519'), signing_seed: randomSeed('secp256k1') });
      content = { version: 1, publisher: holder(), validators: Array.from({ length: validatorCount }, holder) };
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
    }
  }
  let rotations = 0;
  return {
    publisher: holderOf(content.publisher),
    validators: content.validators.map(holderOf),
    nextSigningKey(label) {
      rotations++;
      return keys.deriveKeypair(file === undefined ? publicSeed(`${label} signing rotation ${rotations}`, 'secp256k1') : randomSeed('secp256k1'));
    },
  };
}

/**
 * A `-validators` file naming the master keys of the public-entropy devnet's validators (the
 * devnet run without -devnet_keys): their validations count through the manifests the devnet's
 * `manifest` command gives.
 */
export function devnetValidatorsFileText(profile: ChainProfile, validatorCount = DEFAULT_DEVNET_VALIDATORS): string {
  const lines = devnetNetworkKeys({ validatorCount }).validators.map((validator, index) => `${encodeNodePublicKey(validator.master.publicKey, profile)}  # devnet validator ${index + 1}`);
  return `# the validators of any devnet run without -devnet_keys (ledger-node devnet)\n${lines.join('\n')}\n`;
}
