import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { workspaceRoot } from './fixtures';

/**
 * What the fault suites share: random choices from a printed seed (LEDGER_NODE_SEED replays a run),
 * a size that `npm run soak` raises (LEDGER_NODE_SOAK=1), and one line of figures per suite
 * (`figures <suite>: name=value …`) that `npm test` and the soak print.
 */

/** A seeded generator (mulberry32): the same seed gives the same choices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of this run: LEDGER_NODE_SEED when set (to replay a failure), else a new one; printed (and kept with the figures) either way. */
export function runSeed(suite: string): number {
  const configured = process.env.LEDGER_NODE_SEED;
  const seed = configured !== undefined && configured !== '' ? Number(configured) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new Error(`LEDGER_NODE_SEED must be an integer, got ${configured}`);
  report(`seed ${suite}: ${seed} (LEDGER_NODE_SEED=${seed} replays it)\n`);
  return seed;
}

/** True under `npm run soak`: suites run at full size. */
export function soaking(): boolean {
  return process.env.LEDGER_NODE_SOAK === '1';
}

/** The p-quantile (0..1) of the values, nearest rank; NaN for none. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/**
 * Prints one line of figures, `figures <suite>: name=value …`, and appends it to
 * test-output/figures.txt, which `npm test` and `npm run soak` print at the end.
 */
export function printFigures(suite: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([name, value]) => `${name}=${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(1) : value}`)
    .join(' ');
  report(`figures ${suite}: ${text}\n`);
}

/** Prints a line and appends it to test-output/figures.txt (a seed too: the end of a failed run names it). */
function report(line: string): void {
  process.stdout.write(line);
  const outputDir = path.join(workspaceRoot(), 'test-output');
  mkdirSync(outputDir, { recursive: true });
  appendFileSync(path.join(outputDir, 'figures.txt'), line);
}
