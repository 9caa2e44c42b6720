import type pg from 'pg';
import { parseDatabaseUrl } from './hosts';

/**
 * `the PostgreSQL database at postgres://user@host:port/name`: a database as logs, errors and
 * statuses name it — never with a password (a URL's is shown as ***) nor its query parameters
 * (which may carry one). A URL of several hosts names them all.
 */
export function describeDatabase(url: string): string {
  const match = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?/.exec(url);
  if (!match) {
    // Not a URL: none of its text is shown, as it may hold a password.
    return 'the PostgreSQL database its connection string names';
  }
  const [, scheme, userInfo, hosts, pathname = ''] = match;
  const colon = userInfo?.indexOf(':') ?? -1;
  const user = userInfo === undefined ? '' : colon >= 0 ? `${userInfo.slice(0, colon)}:***@` : `${userInfo}@`;
  return `the PostgreSQL database at ${scheme}${user}${hosts}${pathname}`;
}

/**
 * The pg client settings for a one-host database URL (which holds no password: the flags refuse
 * one) and the password read from a file, if any; without it the pg client reads PGPASSWORD or
 * PGPASSFILE. A URL of several hosts: its first host's (databaseHosts gives each).
 */
export function connectionConfig(url: string, password?: string): pg.ClientConfig {
  return parseDatabaseUrl(url, password).hosts[0]!.config;
}
