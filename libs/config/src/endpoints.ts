import { InvalidParams } from '@ledger-node/errors';
import { OWNER_ONLY, readFlagFile, readSecretText, secretFileAccess, type SecretFileAccess } from './secrets';

/**
 * The upstream endpoints a service connects to. Each is known by its shown URL: the URL with its
 * credentials (user and password, query values) replaced by `***`, which is all that logs, errors
 * and /v1/status ever name. The URL with the credentials is asked for only to open a socket.
 */
export interface UpstreamEndpoints {
  /** Shown URLs, in the order they are tried. */
  readonly urls: readonly string[];
  /** The URL to connect to for a shown URL (itself when it holds no credentials). */
  connectUrl(shown: string): string;
}

const WEBSOCKET_URL = /^wss?:\/\/[^\s/]+/;

/** Why an upstream URL is unusable, or undefined when it is a ws:// or wss:// URL. */
export function endpointProblem(url: string): string | undefined {
  if (!WEBSOCKET_URL.test(url)) return 'must be ws://HOST:PORT or wss://HOST[:PORT]';
  try {
    new URL(url);
    return undefined;
  } catch {
    return 'is not a valid URL';
  }
}

/** Whether a URL holds what may be credentials: a user or password, or a query string. */
export function hasCredentials(url: string): boolean {
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '' || parsed.search !== '';
}

/** `url` with its user, password and query values replaced by `***` (as it is when it holds none). */
export function shownUrl(url: string): string {
  if (!hasCredentials(url)) return url;
  const parsed = new URL(url);
  const hidden = parsed.username !== '' || parsed.password !== '';
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join('&');
  return `${parsed.protocol}//${hidden ? '***@' : ''}${parsed.host}${parsed.pathname}${query ? `?${query}` : ''}`;
}

/**
 * One spelling of a WebSocket URL: scheme and host in lower case, the scheme's default port left
 * out, and no lone trailing `/` (`WS://Host:80/` is `ws://host`), so that one server named twice is
 * seen as one. (`localhost` beside `127.0.0.1` is two spellings of one server that only its answers
 * tell apart: sync counts agreeing endpoints by the server identity they state.)
 */
export function canonicalUrl(url: string): string {
  const parsed = new URL(url);
  const href = parsed.href;
  return parsed.pathname === '/' && parsed.search === '' && parsed.hash === '' ? href.slice(0, -1) : href;
}

/** Comma-separated URLs as an error may show them: credentials as `***`, a part that is no URL as `(not a URL)`. */
export function shownUrlList(value: string): string {
  return value
    .split(',')
    .map((part) => {
      try {
        return shownUrl(part.trim());
      } catch {
        return '(not a URL)';
      }
    })
    .join(',');
}

/** The URLs of an -endpoint_file (a secret file: its URLs may hold credentials). */
export function readEndpointFile(file: string, access: SecretFileAccess = OWNER_ONLY): string[] {
  return endpointLines(readSecretText(file, 'endpoint_file', access), file);
}

/** The lines of an -endpoint_file's text: one URL each; blank lines and `#` comments skipped. */
export function endpointLines(text: string, file: string): string[] {
  const urls = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (urls.length === 0) throw new InvalidParams(`-endpoint_file ${file} names no endpoint`, 'endpoint_file');
  for (const [position, url] of urls.entries()) {
    const problem = endpointProblem(url);
    // The line itself may hold credentials: it is named by its number only.
    if (problem) throw new InvalidParams(`-endpoint_file ${file}, endpoint ${position + 1}: ${problem}`, 'endpoint_file');
  }
  return urls;
}

/** The URLs of an -endpoint_file, its permission bits unchecked: the flag's own check at parse time (-secret_group_read may come later). */
export function endpointFileUrls(file: string): string[] {
  return endpointLines(readFlagFile(file, 'endpoint_file'), file);
}

/**
 * -endpoint (comma-separated) or -endpoint_file (credentials kept off the command line), else the
 * chain's default. One server named twice is one endpoint: it must not count twice when endpoints
 * are to agree.
 */
export function upstreamEndpoints(flags: { string(name: string): string | undefined; boolean(name: string): boolean }, defaultEndpoint: string): UpstreamEndpoints {
  const file = flags.string('endpoint_file');
  const listed = flags.string('endpoint');
  if (file !== undefined && listed !== undefined) throw new InvalidParams('-endpoint and -endpoint_file exclude each other: give one', 'endpoint_file');
  const given = file !== undefined ? readEndpointFile(file, secretFileAccess(flags)) : (listed ?? defaultEndpoint).split(',').map((url) => url.trim());
  const connectUrls = new Map<string, string>();
  for (const url of given.filter((url) => url.length > 0).map(canonicalUrl)) {
    const shown = shownUrl(url);
    const known = connectUrls.get(shown);
    if (known !== undefined && known !== url) throw new InvalidParams(`two endpoints differ only in their credentials (${shown}): give each server once`, 'endpoint');
    connectUrls.set(shown, url);
  }
  return {
    urls: [...connectUrls.keys()],
    connectUrl: (shown) => connectUrls.get(shown) ?? shown,
  };
}
