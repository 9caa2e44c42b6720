import type pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

/**
 * `the PostgreSQL database at postgres://user@host:port/name`: a database as logs, errors and
 * statuses name it — never with a password (a URL's is shown as ***) nor its query parameters
 * (which may carry one).
 */
export function describeDatabase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: none of its text is shown, as it may hold a password.
    return 'the PostgreSQL database its connection string names';
  }
  if (parsed.password !== '') parsed.password = '***';
  parsed.search = '';
  parsed.hash = '';
  return `the PostgreSQL database at ${parsed.toString()}`;
}

/**
 * The pg client settings for a database URL (which holds no password: the flags refuse one) and
 * the password read from a file, if any; without it the pg client reads PGPASSWORD or PGPASSFILE.
 */
export function connectionConfig(url: string, password?: string): pg.ClientConfig {
  // Parsed here rather than given as connectionString: pg would let the URL's empty password
  // override the one given beside it.
  const { password: _none, ...config } = parseIntoClientConfig(url);
  return password === undefined ? config : { ...config, password };
}
