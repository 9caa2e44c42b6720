// `npm run gen`: lints proto/ and regenerates libs/contracts/src (gen/ and index.ts) in place.
import path from 'node:path';
import { generateContracts, lintProtos, listFiles, repoRoot } from './contracts.mjs';

try {
  lintProtos();
  const contractsSrc = generateContracts(repoRoot);
  const written = listFiles(contractsSrc).filter((file) => file === 'index.ts' || file.startsWith('gen/'));
  console.log(`generated ${written.length} files in ${path.relative(repoRoot, contractsSrc)}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
