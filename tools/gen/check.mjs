// The drift check run by `npm test`: the committed libs/contracts/src must equal a fresh generation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contractsSrcRelative, generateContracts, lintProtos, repoRoot } from './contracts.mjs';
import { describeDrift, findDrift, hasDrift } from './drift.mjs';

const outputBase = mkdtempSync(path.join(tmpdir(), 'contracts-drift-'));
let exitCode = 0;
try {
  lintProtos();
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
