import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_LOGGED_TEXT, resolveLogFormat } from '../src/logger';

/** No colours, and nothing asking for them (Node warns when FORCE_COLOR, set by some test runners, overrides NO_COLOR). */
const colorless = { ...process.env, FORCE_COLOR: undefined, NO_COLOR: '1' };

const loggerModule = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/logger.ts');

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

/** What a fresh process logs with `script` run with its stdout on a terminal (util-linux `script` gives it one). */
function loggedOnTerminal(script: string, format?: string): string {
  const setFormat = format === undefined ? '' : `setLogFormat(${JSON.stringify(format)});`;
  const program = `import { createLogger, setLogFormat } from ${JSON.stringify(loggerModule)}; ${setFormat} const logger = createLogger('test'); ${script}`;
  const command = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', program].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: colorless });
  expect(run.status, run.stderr).toBe(0);
  // The terminal carries the process's stderr too (a runtime warning under load, say): the logger's lines are those it writes.
  return run.stdout
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => /^(\{"level"|\[\d\d:)/.test(line))
    .map((line) => `${line}\n`)
    .join('');
}

describe('the log format', () => {
  it('is pretty on a terminal and JSON anywhere else, unless -log_format says which', () => {
    expect(resolveLogFormat('auto', { isTTY: true })).toBe('pretty');
    expect(resolveLogFormat('auto', { isTTY: false })).toBe('json');
    expect(resolveLogFormat('auto', {})).toBe('json');
    expect(resolveLogFormat('json', { isTTY: true })).toBe('json');
    expect(resolveLogFormat('pretty', { isTTY: false })).toBe('pretty');
  });

  it('writes pretty lines when stdout is a terminal: time, level, service, message, the fields it does not say', () => {
    const output = loggedOnTerminal(`logger.info({ ledgerIndex: 7, url: 'ws://a:1' }, 'stored ledger 7');`);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: test {9}stored ledger 7 {2}url=ws:\/\/a:1\n$/);
  });

  it('writes JSON on a terminal when told to (-log_format json), and pretty lines into a pipe when told to', () => {
    const json = loggedOnTerminal(`logger.info({ ledgerIndex: 7 }, 'stored ledger 7');`, 'json');
    expect(JSON.parse(json)).toMatchObject({ level: 'info', service: 'test', ledgerIndex: 7, msg: 'stored ledger 7' });
    const program = `import { createLogger, setLogFormat } from ${JSON.stringify(loggerModule)}; setLogFormat('pretty'); createLogger('test').warn('disk nearly full');`;
    const piped = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8', env: colorless });
    expect(piped.stdout).toMatch(/^\[[\d:.]+\] WARN: test {9}disk nearly full\n$/);
  });

  it('writes JSON into a pipe by default', () => {
    const [line] = logged(`logger.info({ ledgerIndex: 7 }, 'stored ledger 7');`);
    expect(line).toMatchObject({ level: 'info', service: 'test', ledgerIndex: 7, msg: 'stored ledger 7' });
  });
});
