import { describe, expect, it } from 'vitest';
import { DependencyLog, STARTUP_GRACE_MS } from './dependency-log';
import { createLogger } from './logger';

/** A logger at debug whose JSON lines are kept, as level and message. */
function capturedLogger() {
  const lines: { level: string; msg: string }[] = [];
  const logger = createLogger('test', 'debug', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

describe('DependencyLog', () => {
  it('logs the failures of a dependency that has not answered yet at debug while the node starts, then warns once, without a stack', () => {
    const { logger, lines } = capturedLogger();
    let now = 1_000_000;
    const log = new DependencyLog(logger, 'ledger-store', { now: () => now });
    log.failed('ledger-store GetStatus failed: cannot connect; retrying in 200 ms', { reason: 'cannot connect' });
    now += STARTUP_GRACE_MS - 1;
    log.failed('ledger-store GetStatus failed: cannot connect; retrying in 5000 ms');
    now += 1;
    log.failed('ledger-store GetStatus failed: cannot connect; retrying in 5000 ms');
    log.failed('ledger-store GetStatus failed: cannot connect; retrying in 5000 ms');
    expect(lines.map((line) => line.level)).toEqual(['debug', 'debug', 'warn', 'debug']);
    expect(lines[2]!.msg).toBe('ledger-store GetStatus failed: cannot connect; retrying in 5000 ms (not answered since start-up, 30 s ago)');
    expect(lines.some((line) => 'err' in line || 'stack' in line)).toBe(false);
    now += 2_500;
    log.answered();
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'ledger-store answers again, after 32.5 s' });
  });

  it('says nothing more than debug about a dependency that answers within the start-up grace', () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const log = new DependencyLog(logger, 'the upstream', { now: () => now });
    log.failed('upstream ws://127.0.0.1:1 unavailable: connect ECONNREFUSED');
    now += 3_000;
    log.answered();
    expect(lines.map((line) => line.level)).toEqual(['debug']);
  });

  it('warns at the first failure of an outage after the dependency had answered, once per outage', () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const log = new DependencyLog(logger, 'ledger-store', { now: () => now });
    log.answered();
    now += 1_000;
    log.failed('ledger-store PutLedgers failed: cannot connect; retrying in 200 ms');
    log.failed('ledger-store PutLedgers failed: cannot connect; retrying in 400 ms');
    now += 1_000;
    log.answered();
    log.failed('ledger-store PutLedgers failed: cannot connect; retrying in 200 ms');
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'ledger-store PutLedgers failed: cannot connect; retrying in 200 ms'],
      ['debug', 'ledger-store PutLedgers failed: cannot connect; retrying in 400 ms'],
      ['info', 'ledger-store answers again, after 1.0 s'],
      ['warn', 'ledger-store PutLedgers failed: cannot connect; retrying in 200 ms'],
    ]);
  });
});
