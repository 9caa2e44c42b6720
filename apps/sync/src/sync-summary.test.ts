import { describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { SyncSummary, type SummarisedStatus } from './sync-summary';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('sync', 'info', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

const idle = { backfillRemainingLedgers: 0n, backfillLedgersPerSecond: 0, backfillEtaSeconds: undefined } as const;

describe('SyncSummary', () => {
  it('says every few seconds where sync is, how fast ledgers are stored, and what backfill has left', () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    let status: SummarisedStatus = { currentLedgerIndex: 1000, highestLedgerIndex: 1000, lagLedgers: 0, completeRanges: [{ first: 900, last: 1000 }], ...idle };
    const summary = new SyncSummary(() => status, logger, () => now);
    now = 5_000;
    status = {
      currentLedgerIndex: 1010,
      highestLedgerIndex: 1012,
      lagLedgers: 2,
      completeRanges: [{ first: 500, last: 1010 }],
      backfillRemainingLedgers: 499n,
      backfillLedgersPerSecond: 80,
      backfillEtaSeconds: 6.2,
    };
    summary.summarise();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: "at ledger 1010, 2 behind the upstream's 1012, 82 ledgers/s; backfill: 499 left, 80 ledgers/s, ETA 6 s",
      ledgerIndex: 1010,
      upstreamLedgerIndex: 1012,
      lagLedgers: 2,
      ledgersPerSecond: 82,
      backfillRemainingLedgers: 499,
      backfillLedgersPerSecond: 80,
      backfillEtaSeconds: 6,
    });
    now = 10_000;
    status = { currentLedgerIndex: 1012, highestLedgerIndex: 1012, lagLedgers: 0, completeRanges: [{ first: 1, last: 1012 }], ...idle };
    summary.summarise();
    expect(lines[1]).toMatchObject({ msg: 'at ledger 1012, 0 behind the upstream, 100 ledgers/s', lagLedgers: 0, ledgersPerSecond: 100 });
    expect(lines[1]).not.toHaveProperty('backfillRemainingLedgers');
  });

  it('logs nothing for a period in which nothing changed, nor before the first ledger is stored', () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    let status: SummarisedStatus = { currentLedgerIndex: 0, highestLedgerIndex: 0, lagLedgers: 0, completeRanges: [], ...idle };
    const summary = new SyncSummary(() => status, logger, () => now);
    now = 5_000;
    status = { ...status, highestLedgerIndex: 40, lagLedgers: 40 };
    summary.summarise();
    status = { ...status, currentLedgerIndex: 40, lagLedgers: 0, completeRanges: [{ first: 40, last: 40 }] };
    now = 10_000;
    summary.summarise();
    now = 15_000;
    summary.summarise();
    expect(lines.map((line) => line.msg)).toEqual(['at ledger 40, 0 behind the upstream, 0.2 ledgers/s']);
  });
});
