import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLockfile, readAuditOutput, type AllowScripts, type Lockfile } from './lockfile';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lockfile;
const { allowScripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { allowScripts?: AllowScripts };
const report = checkLockfile(lock, allowScripts);
process.stdout.write(
  `lockfile: ${report.packages} packages (${report.devPackages} for development only), all from the npm registry with sha512 integrity` +
    `${report.problems.length === 0 ? '' : ' — EXCEPT:'}; install scripts: ${report.installScripts.join(', ')}\n`,
);
for (const problem of report.problems) process.stdout.write(`  ${problem}\n`);

const audit = spawnSync('npm', ['audit', '--package-lock-only', '--json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
const advisories = readAuditOutput(audit.stdout ?? '');
if (advisories.checked) {
  const counts = advisories.vulnerabilities!;
  const shown = ['critical', 'high', 'moderate', 'low', 'info'].map((severity) => `${counts[severity] ?? 0} ${severity}`).join(', ');
  process.stdout.write(`advisories: ${shown} (npm audit --package-lock-only; details: npm audit)\n`);
} else {
  process.stdout.write(`advisories: NOT CHECKED — the registry did not answer npm audit: ${advisories.reason}\n`);
}

const severe = advisories.checked && ((advisories.vulnerabilities!.high ?? 0) > 0 || (advisories.vulnerabilities!.critical ?? 0) > 0);
process.exitCode = report.problems.length > 0 || severe ? 1 : advisories.checked ? 0 : 2;
