import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The workspace root: the nearest folder above this file that holds nx.json. */
export function workspaceRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(path.join(dir, 'nx.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('nx.json not found above ' + import.meta.dirname);
    dir = parent;
  }
  return dir;
}

/** The repository's recorded test data: `fixtures/` at the workspace root (see its INDEX.md). */
export function fixturesDir(): string {
  return path.join(workspaceRoot(), 'fixtures');
}

/** Reads and parses a JSON fixture, by its path relative to the fixtures folder. */
export function readFixture<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(path.join(fixturesDir(), relativePath), 'utf8')) as T;
}

/** The JSON files of a fixtures folder, as paths relative to the fixtures folder, in name order ([] when the folder is absent). */
export function fixtureFiles(folder: string): string[] {
  const dir = path.join(fixturesDir(), folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `${folder}/${name}`);
}
