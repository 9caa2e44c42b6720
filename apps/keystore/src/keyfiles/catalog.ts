import { chmodSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { KeyFileError } from './errors';
import { readKeyFile, type KeyFileJson } from './keyFile';

/** One key file as last read: the file's identity when read, and its document or why it is unusable. */
interface Entry {
  stamp: string;
  read: { document: KeyFileJson } | { problem: KeyFileError };
}

export interface CatalogOptions {
  /** Reads and checks one key file (readKeyFile; tests count the reads). */
  read?: (file: string) => KeyFileJson;
  /** Told of a key file whose group or other permission bits were taken away. */
  onTightened?: (file: string, mode: number) => void;
}

/** What identifies one version of a file: a file written anew, replaced or edited differs in one of them. */
const stampOf = (stats: Stats) => `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * The key files of one keystore directory, each read once while it stays the same file: a call
 * lists the directory and stats each file, and reads again only a file that is new or whose inode,
 * size, modification or change time moved. What is kept is what the file holds at rest — its
 * clear fields and its encrypted document; nothing decrypted, which withKey derives for each
 * signature and lets go.
 *
 * A key file its group or others may read or write (the kubelet adds group bits to a volume's files
 * when the pod sets fsGroup) has those bits taken away, as the keystore does with its directory;
 * one it cannot tighten (another owner's) is refused, naming its mode.
 */
export class KeyFileCatalog {
  private readonly entries = new Map<string, Entry>();
  private readonly read: (file: string) => KeyFileJson;

  constructor(
    private readonly directory: string,
    private readonly options: CatalogOptions = {},
  ) {
    this.read = options.read ?? readKeyFile;
  }

  /** Every key file's document, or why it cannot be used; in file name order. */
  list(): { documents: { file: string; document: KeyFileJson }[]; problems: KeyFileError[] } {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.entries.clear();
        return { documents: [], problems: [] };
      }
      throw error;
    }
    // Temp files of a write in progress start with a dot and are not accounts yet.
    const keyFiles = names.filter((entry) => entry.endsWith('.json') && !entry.startsWith('.')).sort();
    for (const name of this.entries.keys()) if (!keyFiles.includes(name)) this.entries.delete(name);
    const documents: { file: string; document: KeyFileJson }[] = [];
    const problems: KeyFileError[] = [];
    for (const name of keyFiles) {
      const file = path.join(this.directory, name);
      const entry = this.entry(name, file);
      if (entry === undefined) continue;
      if ('document' in entry.read) documents.push({ file, document: entry.read.document });
      else problems.push(entry.read.problem);
    }
    return { documents, problems };
  }

  /** The entry of one file, read again when it changed; undefined when it went away meanwhile. */
  private entry(name: string, file: string): Entry | undefined {
    let stats: Stats;
    try {
      stats = statSync(file);
      if ((stats.mode & 0o077) !== 0) stats = this.tighten(file, stats);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      const problem = error instanceof KeyFileError ? error : new KeyFileError(file, 'KEY_FILE_UNREADABLE', `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      return { stamp: '', read: { problem } };
    }
    const stamp = stampOf(stats);
    const known = this.entries.get(name);
    if (known?.stamp === stamp) return known;
    let read: Entry['read'];
    try {
      read = { document: this.read(file) };
    } catch (error) {
      if (!(error instanceof KeyFileError)) throw error;
      read = { problem: error };
    }
    const entry = { stamp, read };
    this.entries.set(name, entry);
    return entry;
  }

  /** Takes the group and other bits off a key file; its stats after. */
  private tighten(file: string, stats: Stats): Stats {
    try {
      chmodSync(file, stats.mode & 0o700);
    } catch (error) {
      throw new KeyFileError(
        file,
        'KEY_FILE_UNREADABLE',
        `has mode ${octal(stats.mode)}, which lets others than its owner at it, and the keystore cannot take those bits away (${(error as NodeJS.ErrnoException).code ?? String(error)}): chmod 600 it`,
      );
    }
    this.options.onTightened?.(file, stats.mode & 0o777);
    return statSync(file);
  }
}
