import path from 'node:path';
import type { ChainProfile, KeyAlgorithm } from '@ledger-node/chain';
import { MIN_SECRET_LENGTH } from '@ledger-node/config';
import { Conflict, InvalidParams, NoLocalAccount, Unavailable } from '@ledger-node/errors';
import { KeyFileCatalog, type CatalogOptions } from './catalog';
import { KeyFileError } from './errors';
import {
  DEFAULT_SCRYPT,
  decryptKeyFile,
  encryptKeyFile,
  isValidNickname,
  metadataOf,
  removeAbandonedTempFiles,
  UnlockedKeys,
  writeKeyFile,
  type AccountMetadata,
  type KeyFileJson,
  type ScryptParams,
} from './keyFile';
import { FairQueue } from '../signing/fair-queue';

/**
 * Signatures one caller may have waiting, and all callers together: at 0.4 s a derivation, 16 are
 * about the 10 s a caller waits by default (-unlock_seconds makes repeated ones cheap).
 */
const SIGNATURES_WAITING_PER_CALLER = 16;
const SIGNATURES_WAITING = 128;

export interface KeystoreOptions {
  /** `<data_dir>/keystore`. */
  directory: string;
  profile: ChainProfile;
  /** Unlocks every key file of this keystore; without it accounts can be listed but not created or used. */
  passphrase: string | undefined;
  /** Cost of new key files (tests lower it; existing files keep their own). */
  scrypt?: ScryptParams;
  /** Seconds a derived key-file key stays in memory after its derivation (-unlock_seconds; 0: none). */
  unlockSeconds?: number;
  /** Told of a key file whose group or other permission bits the keystore took away. */
  onTightened?: (file: string, mode: number) => void;
  /** Reads and checks one key file (readKeyFile; tests count the reads). */
  readKeyFile?: CatalogOptions['read'];
}

export interface LocalKey {
  address: string;
  keyType: KeyAlgorithm;
  /** Hex with the type prefix (0xED for ed25519). */
  publicKey: string;
  /** Hex; only ever passed to the chain's `sign`. */
  privateKey: string;
}

export interface KeystoreScan {
  /** Accounts of this keystore's chain, oldest first. */
  accounts: AccountMetadata[];
  /** Files that could not be read, each naming its file; the other accounts stay usable. */
  problems: KeyFileError[];
}

/**
 * The local accounts: key files under one directory, all encrypted with one passphrase. Seeds
 * are decrypted only inside `withKey`, for the length of one signature, and never leave it.
 */
export class Keystore {
  private generating: Promise<unknown> = Promise.resolve();
  private readonly signing = new FairQueue(SIGNATURES_WAITING_PER_CALLER, SIGNATURES_WAITING);
  private readonly unlocked: UnlockedKeys;
  /** The key files as last read: each is read again only once it changed. */
  private readonly catalog: KeyFileCatalog;

  constructor(private readonly options: KeystoreOptions) {
    this.unlocked = new UnlockedKeys((options.unlockSeconds ?? 0) * 1000);
    this.catalog = new KeyFileCatalog(options.directory, { onTightened: options.onTightened, read: options.readKeyFile });
  }

  get directory(): string {
    return this.options.directory;
  }

  get hasPassphrase(): boolean {
    return this.options.passphrase !== undefined;
  }

  /** Reads every key file's clear fields; nothing is decrypted. */
  scan(): KeystoreScan {
    const documents = this.readAll();
    const accounts = documents.documents
      .map((entry) => metadataOf(entry.document))
      .sort((a, b) => Date.parse(a.created) - Date.parse(b.created) || a.address.localeCompare(b.address));
    return { accounts, problems: documents.problems };
  }

  /** Removes what writes killed midway left (temp files, never key files); returns their paths. */
  removeAbandonedWrites(): string[] {
    return removeAbandonedTempFiles(this.options.directory).map((name) => path.join(this.options.directory, name));
  }

  /** An account by address or nickname; "no local account" otherwise. */
  resolve(addressOrNickname: string): { file: string; document: KeyFileJson } {
    if (typeof addressOrNickname !== 'string' || addressOrNickname.length === 0) {
      throw new InvalidParams('an account address or nickname is required', 'account');
    }
    const { documents, problems } = this.readAll();
    const found =
      documents.find((entry) => entry.document.address === addressOrNickname) ??
      documents.find((entry) => entry.document.nickname === addressOrNickname);
    if (found) return found;
    // An address whose own file cannot be read: that file's problem is the answer, not "no local account".
    const ownFile = problems.find((problem) => path.basename(problem.file) === `${addressOrNickname}.json`);
    if (ownFile) throw ownFile;
    const unreadable = problems.length > 0 ? ` (${problems.length} key file(s) could not be read: ${problems.map((p) => p.shownFile).join(', ')})` : '';
    throw new NoLocalAccount(`no local account ${JSON.stringify(addressOrNickname)}${unreadable}`, { account: addressOrNickname });
  }

  /** Creates a key pair and its key file. Calls run one at a time so nickname checks cannot race. */
  generate(request: { nickname?: string; keyType: KeyAlgorithm }): Promise<AccountMetadata & { file: string }> {
    const next = this.generating.then(
      () => this.generateNow(request),
      () => this.generateNow(request),
    );
    this.generating = next;
    return next;
  }

  /**
   * Decrypts one account's key, hands it to `use`, and lets it go. Signatures wait their turn
   * fairly per caller (signing/fair-queue.ts); one whose caller is gone is not derived at all.
   */
  async withKey<T>(addressOrNickname: string, use: (key: LocalKey) => T, request: { caller?: string; signal?: AbortSignal } = {}): Promise<T> {
    const { file, document } = this.resolve(addressOrNickname);
    return this.signing.run(request.caller ?? 'unnamed', request.signal, async () => use(await this.unlock(file, document)));
  }

  private async generateNow(request: { nickname?: string; keyType: KeyAlgorithm }): Promise<AccountMetadata & { file: string }> {
    const passphrase = this.requirePassphrase();
    const nickname = request.nickname === undefined || request.nickname === '' ? null : request.nickname;
    const { profile } = this.options;
    if (nickname !== null) {
      if (!isValidNickname(nickname)) throw new InvalidParams('nickname must be 1-64 letters, digits, _ . or -', 'nickname');
      // A nickname names an account wherever an address is accepted, so it must not look like one.
      if (profile.codec.isValidAddress(nickname)) throw new InvalidParams('nickname must not be an address', 'nickname');
    }
    const { documents } = this.readAll();
    const taken = documents.find((entry) => entry.document.nickname === nickname);
    if (nickname !== null && taken) {
      throw new Conflict(`nickname "${nickname}" is already used by account ${taken.document.address}`, { nickname });
    }
    // One passphrase per keystore: a new account under a different one could never be used with the others.
    const newest = documents.sort((a, b) => Date.parse(b.document.created) - Date.parse(a.document.created))[0];
    if (newest) await this.unlock(newest.file, newest.document);
    // The first key file sets the keystore's passphrase: a short one is refused there, never for keystores it already opens.
    else if (passphrase.length < MIN_SECRET_LENGTH) {
      throw new InvalidParams(
        `the passphrase of a new keystore must be at least ${MIN_SECRET_LENGTH} characters (-password_file, LEDGER_NODE_PASSWORD or the prompt): it is all that protects every key file of this data directory`,
        'passphrase',
      );
    }

    const seed = profile.keys.generateSeed({ algorithm: request.keyType });
    const { publicKey } = profile.keys.deriveKeypair(seed);
    const metadata: AccountMetadata = {
      chain: profile.id,
      address: profile.keys.deriveAddress(publicKey),
      nickname,
      keyType: request.keyType,
      created: new Date().toISOString(),
    };
    const document = await encryptKeyFile(metadata, seed, passphrase, this.options.scrypt ?? DEFAULT_SCRYPT);
    const file = writeKeyFile(this.options.directory, document);
    return { ...metadata, file };
  }

  private async unlock(file: string, document: KeyFileJson): Promise<LocalKey> {
    const passphrase = this.requirePassphrase();
    const seed = await decryptKeyFile(file, document, passphrase, this.unlocked);
    const { keys } = this.options.profile;
    let keypair: { publicKey: string; privateKey: string };
    try {
      keypair = keys.deriveKeypair(seed);
    } catch (error) {
      if (error instanceof Error) throw new KeyFileError(file, 'KEY_FILE_MISMATCH', 'holds no valid seed for this chain');
      throw error;
    }
    const keyType: KeyAlgorithm = keypair.publicKey.startsWith('ED') ? 'ed25519' : 'secp256k1';
    if (keys.deriveAddress(keypair.publicKey) !== document.address || keyType !== document.key_type) {
      throw new KeyFileError(file, 'KEY_FILE_MISMATCH', 'holds a key that does not match its address or key type');
    }
    return { address: document.address, keyType, publicKey: keypair.publicKey, privateKey: keypair.privateKey };
  }

  private requirePassphrase(): string {
    const { passphrase } = this.options;
    if (passphrase === undefined) {
      throw new Unavailable('the keystore has no passphrase: start it with -password_file FILE or LEDGER_NODE_PASSWORD');
    }
    return passphrase;
  }

  private readAll(): { documents: { file: string; document: KeyFileJson }[]; problems: KeyFileError[] } {
    const { profile } = this.options;
    const listed = this.catalog.list();
    const documents: { file: string; document: KeyFileJson }[] = [];
    const problems = [...listed.problems];
    for (const entry of listed.documents) {
      if (entry.document.chain === profile.id) documents.push(entry);
      else problems.push(new KeyFileError(entry.file, 'KEY_FILE_INVALID', `belongs to chain ${entry.document.chain} (use -chain ${entry.document.chain}); this keystore serves ${profile.id}`));
    }
    return { documents, problems };
  }
}
