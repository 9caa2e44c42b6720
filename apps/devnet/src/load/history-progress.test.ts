import { createLogger } from '@ledger-node/telemetry';
import { describe, expect, it } from 'vitest';
import { HistoryProgress } from './history-progress';

function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const logger = createLogger('devnet-test', 'info', { format: 'json', destination: { write: (chunk: string) => void chunks.push(chunk) } });
  return { logger, lines: () => chunks.map((chunk) => JSON.parse(chunk) as Record<string, unknown>) };
}

describe('HistoryProgress', () => {
  it('logs how far the build is at most once every five seconds, and not for the last ledger ("history built" says that)', () => {
    const { logger, lines } = capturedLogger();
    let now = 1_000_000;
    const progress = new HistoryProgress(logger, 3000, () => now);
    progress.built(1);
    now += 4_999;
    progress.built(700);
    expect(lines()).toEqual([]);
    now += 1;
    progress.built(701);
    now += 2_000;
    progress.built(900);
    now += 5_000;
    progress.built(2999);
    now += 5_000;
    progress.built(3000);
    expect(lines().map(({ msg, built, ledgers }) => ({ msg, built, ledgers }))).toEqual([
      { msg: 'history: 701 of 3,000 ledgers built', built: 701, ledgers: 3000 },
      { msg: 'history: 2,999 of 3,000 ledgers built', built: 2999, ledgers: 3000 },
    ]);
  });
});
