/**
 * Which build of ledger-node this process runs: the version of the workspace's package.json and the
 * git commit it was built from. The bundle (`npm run build`, tools/build/build.mjs) carries both,
 * written in at build time, so that the image needs neither package.json nor git; from the sources
 * they are read once, package.json beside the checkout and the commit from `git rev-parse HEAD`
 * ("unknown" where git or the repository is missing, e.g. a source archive).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  /** The workspace's version (package.json), e.g. `0.1.0`. */
  readonly version: string;
  /** The full git commit hash, or `unknown`. */
  readonly commit: string;
  /** The Node.js version running it, e.g. `v20.19.0`. */
  readonly nodeVersion: string;
}

/** Replaced by the bundler with the version and the commit (tools/build/build.mjs); not defined when run from the sources. */
declare const __LEDGER_NODE_VERSION__: string | undefined;
declare const __LEDGER_NODE_COMMIT__: string | undefined;

const unknown = 'unknown';
/** The bundle's build; undefined from the sources. */
const bundled = typeof __LEDGER_NODE_VERSION__ === 'string' && typeof __LEDGER_NODE_COMMIT__ === 'string' ? { version: __LEDGER_NODE_VERSION__, commit: __LEDGER_NODE_COMMIT__ } : undefined;
let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  cached ??= { ...(bundled ?? fromCheckout()), nodeVersion: process.version };
  return cached;
}

/** The version with the commit's first 12 digits as semver build metadata (`0.1.0+1a2b3c4d5e6f`), or the version alone when the commit is unknown. */
export function buildVersion(info: BuildInfo = buildInfo()): string {
  return info.commit === unknown ? info.version : `${info.version}+${info.commit.slice(0, 12)}`;
}

/** This file is libs/telemetry/src/build-info.ts of the checkout. */
function fromCheckout(): { version: string; commit: string } {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  return { version: checkoutVersion(root), commit: checkoutCommit(root) };
}

function checkoutVersion(root: string): string {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof version === 'string' && version !== '' ? version : unknown;
}

function checkoutCommit(root: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim();
    return /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(commit) ? commit : unknown;
  } catch (error) {
    // No git on this machine (ENOENT), or no repository here (git exits non-zero): the commit is unknown, nothing more.
    if (error instanceof Error) return unknown;
    throw error;
  }
}
