// Compares freshly generated contracts with the committed ones, file by file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listFiles } from './contracts.mjs';

/** The files the generator owns inside a contracts src folder; tests and hand-written files are not compared. */
export function generatedFiles(contractsSrc) {
  return listFiles(contractsSrc).filter((file) => file === 'index.ts' || file.startsWith('gen/'));
}

/**
 * Differences between a fresh generation and the committed folder: `missing` (generated but not
 * committed), `extra` (committed under gen/ but no longer generated), `changed` (different bytes).
 */
export function findDrift(freshSrc, committedSrc) {
  const freshFiles = generatedFiles(freshSrc);
  const committedFiles = new Set(generatedFiles(committedSrc));
  const missing = [];
  const changed = [];
  for (const file of freshFiles) {
    if (!committedFiles.has(file)) {
      missing.push(file);
      continue;
    }
    const fresh = readFileSync(path.join(freshSrc, file));
    const committed = readFileSync(path.join(committedSrc, file));
    if (!fresh.equals(committed)) changed.push(file);
  }
  const freshSet = new Set(freshFiles);
  const extra = [...committedFiles].filter((file) => !freshSet.has(file));
  return { missing, extra, changed };
}

/** True when the drift report lists no file. */
export function hasDrift(drift) {
  return drift.missing.length + drift.extra.length + drift.changed.length > 0;
}

/** One line per differing file, prefixed by what differs. */
export function describeDrift(drift) {
  return [
    ...drift.changed.map((file) => `changed: ${file}`),
    ...drift.missing.map((file) => `missing: ${file}`),
    ...drift.extra.map((file) => `extra: ${file}`),
  ];
}
