import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { RetryLog } from './retry-log';

/** A logger at debug whose JSON lines are kept. */
function capturedLogger() {
  const lines: Record<string, any>[] = [];
  const logger = createLogger('test', 'debug', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

class UpstreamRefusal extends Error {}

describe('RetryLog', () => {
  it('warns once per reason, without a stack, repeats at debug, and says when the failures end', () => {
    const { logger, lines } = capturedLogger();
    const log = new RetryLog(logger, 'state download');
    const refusal = new UpstreamRefusal('ledger_data failed: notSupported');
    log.failed(refusal, 500);
    log.failed(refusal, 1000);
    log.failed(refusal, 2000);
    log.failed(new UpstreamRefusal('the upstream is unavailable'), 4000);
    log.succeeded();
    log.succeeded();
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'state download: ledger_data failed: notSupported; trying again in 500 ms (while it fails for this reason, at debug level)'],
      ['debug', 'state download: ledger_data failed: notSupported; trying again in 1000 ms'],
      ['debug', 'state download: ledger_data failed: notSupported; trying again in 2000 ms'],
      ['warn', 'state download: the upstream is unavailable; trying again in 4000 ms (while it fails for this reason, at debug level)'],
      ['info', 'state download goes on: the failure "the upstream is unavailable" is over'],
    ]);
    expect(lines.some((line) => 'err' in line)).toBe(false);
  });

  it('keeps the stack of an error of the node\'s own code', () => {
    const { logger, lines } = capturedLogger();
    new RetryLog(logger, 'state proofs').failed(new TypeError("Cannot read properties of undefined (reading 'key')"), 500);
    expect(lines[0]).toMatchObject({ level: 'warn', err: { type: 'TypeError' } });
    expect(lines[0]!.err.stack).toContain('TypeError');
  });

  it('warns again for a reason that comes back after a success', () => {
    const { logger, lines } = capturedLogger();
    const log = new RetryLog(logger, 'state download');
    log.failed(new Error('lgrNotFound'), 500);
    log.succeeded();
    log.failed(new Error('lgrNotFound'), 500);
    expect(lines.map((line) => line.level)).toEqual(['warn', 'info', 'warn']);
  });
});
