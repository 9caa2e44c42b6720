import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedScriptPackages, checkLockfile, INSTALL_SCRIPT_REASONS, packageName, readAuditOutput, type AllowScripts, type Lockfile } from './lockfile';

const root = path.resolve(import.meta.dirname, '../..');
const integrity = 'sha512-SN9RRLfqDEGfZ6MgfjpQ4DIn3+TdN5ECKYHgeuPKFy6Yw0I9hYyE46giLidngjZU47JXUmWXJDZuU1CyEcf4Fw==';

const { allowScripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { allowScripts?: AllowScripts };

describe("the workspace's package-lock.json", () => {
  it('installs every package from the npm registry with a sha512 integrity, and runs install scripts only where package.json allows them', () => {
    const report = checkLockfile(JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lockfile, allowScripts);
    expect(report.problems).toEqual([]);
    expect(report.packages).toBeGreaterThan(100);
    for (const script of report.installScripts) expect([...allowedScriptPackages(allowScripts)]).toContain(script.slice(0, script.lastIndexOf('@')));
  });

  it("allows in package.json's allowScripts, which npm reads, every package whose install script runs, each with its reason here", () => {
    // npm ci warns of each package whose install script runs and that allowScripts does not cover.
    const report = checkLockfile(JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lockfile, allowScripts);
    const allowed = allowedScriptPackages(allowScripts);
    for (const script of report.installScripts) expect(allowed).toContain(script.slice(0, script.lastIndexOf('@')));
    expect([...allowed].sort()).toEqual(Object.keys(INSTALL_SCRIPT_REASONS).sort());
  });
});

describe('checkLockfile', () => {
  const lockOf = (packages: Lockfile['packages']): Lockfile => ({ lockfileVersion: 3, packages: { '': {}, 'libs/x': {}, 'node_modules/@ledger-node/x': { link: true }, ...packages } });

  it('names each package that breaks a rule, and why', () => {
    const report = checkLockfile(
      lockOf({
        'node_modules/good': { version: '1.0.0', integrity },
        'node_modules/from-git': { version: '1.0.0', resolved: 'git+ssh://git@example.com/x.git#abc', integrity },
        'node_modules/no-hash': { version: '1.0.0' },
        'node_modules/sha1-only': { version: '1.0.0', integrity: 'sha1-abc=' },
        'node_modules/a/node_modules/@scope/runs-code': { version: '2.0.0', integrity, hasInstallScript: true },
        'node_modules/rocksdb': { version: '5.2.1', integrity, hasInstallScript: true },
      }),
      { rocksdb: true },
    );
    expect(report.packages).toBe(6);
    expect(report.installScripts).toEqual(['@scope/runs-code@2.0.0', 'rocksdb@5.2.1']);
    expect(report.problems).toEqual([
      'from-git@1.0.0 (node_modules/from-git) comes from git+ssh://git@example.com/x.git#abc, not the npm registry',
      'no-hash@1.0.0 (node_modules/no-hash) has no integrity hash: npm ci could not tell a changed tarball',
      'sha1-only@1.0.0 (node_modules/sha1-only) has no sha512 integrity (sha1 only)',
      '@scope/runs-code@2.0.0 (node_modules/a/node_modules/@scope/runs-code) runs an install script and is not allowed by package.json allowScripts',
    ]);
  });

  it('refuses a lockfile of another version', () => {
    expect(checkLockfile({ lockfileVersion: 1 }, {}).problems).toEqual(['lockfileVersion 1: expected 3, with "packages"']);
  });

  it("reads npm's allowScripts: a name or a pinned name@version allows, false denies", () => {
    expect([...allowedScriptPackages({ rocksdb: true, 'esbuild@0.28.2': true, '@scope/pkg@1.0.0 || 1.0.1': true, '@scope/bare': true, denied: false })].sort()).toEqual([
      '@scope/bare',
      '@scope/pkg',
      'esbuild',
      'rocksdb',
    ]);
    expect(allowedScriptPackages(undefined).size).toBe(0);
    const lock = lockOf({ 'node_modules/denied': { version: '1.0.0', integrity, hasInstallScript: true } });
    expect(checkLockfile(lock, { denied: false }).problems).toEqual(['denied@1.0.0 (node_modules/denied) runs an install script and is not allowed by package.json allowScripts']);
  });

  it('names packages by their place in node_modules', () => {
    expect(packageName('node_modules/a/node_modules/@b/c')).toBe('@b/c');
    expect(packageName('node_modules/rocksdb')).toBe('rocksdb');
  });
});

describe('readAuditOutput', () => {
  it("reads npm audit's counts by severity", () => {
    const text = JSON.stringify({ auditReportVersion: 2, vulnerabilities: {}, metadata: { vulnerabilities: { info: 0, low: 1, moderate: 2, high: 0, critical: 0, total: 3 } } });
    expect(readAuditOutput(text)).toEqual({ checked: true, vulnerabilities: { info: 0, low: 1, moderate: 2, high: 0, critical: 0 } });
  });

  it("says the advisories were not checked when the registry refuses the query (this workplace's registry: 405 on the bulk endpoint)", () => {
    const text = JSON.stringify({ message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk', statusCode: 405 });
    expect(readAuditOutput(text)).toEqual({ checked: false, reason: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk' });
    expect(readAuditOutput('npm error network')).toMatchObject({ checked: false, reason: expect.stringMatching(/printed no JSON/) });
  });
});
