import path from 'node:path';
import { InvalidParams } from '@ledger-node/errors';
import { parseDatabaseUrl } from '@ledger-node/postgres';
import type { ParsedFlags } from './parse';
import { dataDir } from './paths';
import { readSecretFile, secretFileAccess } from './secrets';

/**
 * Where the ledger-store keeps the ledgers: RocksDB in `<data_dir>/<database_name>` (the default),
 * or a PostgreSQL database, written by one writer (`-store`) and read by any number of readers
 * (`-store_read`, typically on replicas).
 */
export type StoreTarget =
  | { kind: 'rocksdb'; path: string }
  | {
      kind: 'postgres';
      /** A writer takes the writer lock and writes; a reader takes no writes and follows what its database holds. */
      role: 'writer' | 'reader';
      /** The URL without a password (the flags refuse one). */
      url: string;
      /** From -store_password_file; otherwise PGPASSWORD or PGPASSFILE, which the pg client reads itself. */
      password?: string;
    };

/**
 * Why a -store or -store_read value is unusable, or undefined. A password in the URL is refused
 * (a command line is public: ps, /proc); the password comes from -store_password_file or the
 * standard PG* environment (PGPASSWORD, PGPASSFILE). Several hosts (a primary and its standbys)
 * are named as libpq names them: HOST1:PORT1,HOST2:PORT2, with target_session_attrs.
 */
export function storeUrlProblem(value: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(value)) return 'must be postgres://[USER@]HOST[:PORT][,HOST[:PORT]…]/DATABASE';
  const userInfo = /^postgres(?:ql)?:\/\/([^@/?#]*)@/.exec(value)?.[1];
  if (userInfo?.includes(':') || /[?&]password=/.test(value)) {
    return 'holds a password: give it in -store_password_file or the PGPASSWORD or PGPASSFILE environment, which stay off the command line';
  }
  try {
    parseDatabaseUrl(value);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/**
 * A -store or -store_read value as an error may show it: its user (and any password) as `***`, its
 * hosts, its database, no query (which may carry a password); `(not a URL)` when it is none.
 */
export function shownStoreUrl(value: string): string {
  const match = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?/.exec(value);
  if (!match) return '(not a URL)';
  const [, scheme, userInfo, hosts, pathname = ''] = match;
  return `${scheme}${userInfo === undefined ? '' : '***@'}${hosts}${pathname}`;
}

/** The store the flags select: -store or -store_read (not both), else RocksDB under -data_dir. */
export function storeTarget(flags: ParsedFlags): StoreTarget {
  const writerUrl = flags.string('store');
  const readerUrl = flags.string('store_read');
  if (writerUrl !== undefined && readerUrl !== undefined) {
    throw new InvalidParams('-store and -store_read select a writer and a reader: give one of them', 'store_read');
  }
  const url = writerUrl ?? readerUrl;
  const passwordFile = flags.string('store_password_file');
  if (url === undefined) {
    if (passwordFile !== undefined) throw new InvalidParams('-store_password_file is for a PostgreSQL store: give -store or -store_read too', 'store_password_file');
    return { kind: 'rocksdb', path: path.join(dataDir(flags), flags.string('database_name')!) };
  }
  const problem = storeUrlProblem(url);
  if (problem) throw new InvalidParams(`-${writerUrl ? 'store' : 'store_read'}: ${problem}`, writerUrl ? 'store' : 'store_read');
  return {
    kind: 'postgres',
    role: writerUrl ? 'writer' : 'reader',
    url,
    ...(passwordFile === undefined ? {} : { password: readSecretFile(passwordFile, 'store_password_file', secretFileAccess(flags)) }),
  };
}
