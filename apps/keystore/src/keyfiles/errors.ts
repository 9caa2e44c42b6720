import path from 'node:path';
import { LedgerNodeError, type ErrorKind } from '@ledger-node/errors';

export type KeyFileErrorCode =
  /** Wrong passphrase, or an edited ciphertext, tag, IV, KDF parameter or clear field. */
  | 'KEY_FILE_LOCKED'
  /** Not JSON, or not the key file format. */
  | 'KEY_FILE_INVALID'
  | 'KEY_FILE_UNREADABLE'
  /** A new file cannot be written: a read-only directory or a full disk. */
  | 'KEY_FILE_UNWRITABLE'
  /** Decrypted, but the seed does not give the file's address. */
  | 'KEY_FILE_MISMATCH'
  | 'KEY_FILE_EXISTS';

const kindByCode: Record<KeyFileErrorCode, ErrorKind> = {
  KEY_FILE_LOCKED: 'unavailable',
  KEY_FILE_INVALID: 'unavailable',
  KEY_FILE_UNREADABLE: 'unavailable',
  KEY_FILE_UNWRITABLE: 'unavailable',
  KEY_FILE_MISMATCH: 'unavailable',
  KEY_FILE_EXISTS: 'conflict',
};

/**
 * A key file that cannot be used; never carries key material. The message and details name the
 * file as `keystore/<name>` (under the data directory): they reach callers, who have no business
 * with the host's paths. `file` keeps the whole path for the keystore's own log.
 */
export class KeyFileError extends LedgerNodeError {
  readonly code: KeyFileErrorCode;
  readonly file: string;
  /** The file as callers are told of it: `keystore/<name>`. */
  readonly shownFile: string;

  constructor(file: string, code: KeyFileErrorCode, problem: string) {
    const shownFile = `keystore/${path.basename(file)}`;
    super(kindByCode[code], `key file ${shownFile} ${problem}`, { data: { code, file: shownFile } });
    this.shownFile = shownFile;
    this.code = code;
    this.file = file;
  }
}
