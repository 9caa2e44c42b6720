import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_LOGGED_TEXT } from './logger';

const loggerModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'logger.ts');

/** The lines a fresh process logs with `script` (the logger writes to its own stdout). */
function logged(script: string): Record<string, unknown>[] {
  const program = `import { createLogger } from ${JSON.stringify(loggerModule)}; const logger = createLogger('test'); ${script}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe('createLogger', () => {
  it('bounds each text of a line, message and fields, and keeps the rest as it is', () => {
    const [line] = logged(`logger.warn({ account: 'é'.repeat(50000), count: 3, nested: { text: 'x' } }, 'no local account ' + 'y'.repeat(50000));`);
    expect(line).toMatchObject({ level: 'warn', service: 'test', count: 3, nested: { text: 'x' } });
    expect((line!.msg as string).length).toBeLessThan(MAX_LOGGED_TEXT + 40);
    expect(line!.msg).toMatch(/^no local account y+… \(50017 characters\)$/);
    expect((line!.account as string).length).toBeLessThan(MAX_LOGGED_TEXT + 40);
    const [short] = logged(`logger.info({ url: 'ws://a:1' }, 'subscribed');`);
    expect(short).toMatchObject({ url: 'ws://a:1', msg: 'subscribed' });
  });
});
