// The contract check run by `npm test`: proto/ keeps buf's lint rules and breaks no client of the last
// release (proto/release), and the committed libs/contracts/src equals a fresh generation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkBreaking, contractsSrcRelative, generateContracts, lastRelease, lintProtos, repoRoot } from './contracts.mjs';
import { describeDrift, findDrift, hasDrift } from './drift.mjs';

const outputBase = mkdtempSync(path.join(tmpdir(), 'contracts-drift-'));
let exitCode = 0;
try {
  lintProtos();
  const release = lastRelease();
  if (release === undefined) throw new Error('no release of the contracts is recorded in proto/release: the breaking-change check has nothing to compare with');
  checkBreaking(release);
  console.log(`contracts compatible with ${path.relative(repoRoot, release)}`);
  const freshSrc = generateContracts(outputBase);
  const drift = findDrift(freshSrc, path.join(repoRoot, contractsSrcRelative));
  if (hasDrift(drift)) {
    console.error(`${contractsSrcRelative} differs from what proto/ generates:`);
    for (const line of describeDrift(drift)) console.error(`  ${line}`);
    console.error('run npm run gen');
    exitCode = 1;
  } else {
    console.log(`contracts up to date: ${contractsSrcRelative} matches proto/`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  rmSync(outputBase, { recursive: true, force: true });
}
process.exit(exitCode);
