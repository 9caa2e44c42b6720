import { describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { IngestCounts } from './ingest';
import { SyncSummary, type SummarisedStatus } from './sync-summary';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('sync', 'info', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

const idle = { backfillRemainingLedgers: 0n } as const;

describe('SyncSummary', () => {
  it('says every few seconds where sync is, how fast it follows the tip, and what backfill has left at what pace', () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const ingest = new IngestCounts(() => now);
    let status: SummarisedStatus = { currentLedgerIndex: 1000, highestLedgerIndex: 1000, lagLedgers: 0, completeRanges: [{ first: 900, last: 1000 }], ...idle };
    const summary = new SyncSummary(() => status, ingest, logger, () => now);
    now = 5_000;
    // 10 ledgers followed at the tip, 400 backfilled below it.
    ingest.stored('live', 10);
    ingest.stored('backfill', 400);
    status = { currentLedgerIndex: 1010, highestLedgerIndex: 1012, lagLedgers: 2, completeRanges: [{ first: 500, last: 1010 }], backfillRemainingLedgers: 499n };
    summary.summarise();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: "at ledger 1010, 2 behind the upstream's 1012, following 2.0 ledgers/s; backfill: 499 left, 80 ledgers/s, ETA 6 s",
      ledgerIndex: 1010,
      upstreamLedgerIndex: 1012,
      lagLedgers: 2,
      liveLedgersPerSecond: 2,
      backfillRemainingLedgers: 499,
      backfillLedgersPerSecond: 80,
      backfillEtaSeconds: 6,
    });
    // Backfill ends: the next line has the tip's pace only, none of the 499 backfilled.
    now = 10_000;
    ingest.stored('live', 2);
    ingest.stored('backfill', 499);
    status = { currentLedgerIndex: 1012, highestLedgerIndex: 1012, lagLedgers: 0, completeRanges: [{ first: 1, last: 1012 }], ...idle };
    summary.summarise();
    expect(lines[1]).toMatchObject({ msg: 'at ledger 1012, 0 behind the upstream, following 0.4 ledgers/s', lagLedgers: 0, liveLedgersPerSecond: 0.4 });
    expect(lines[1]).not.toHaveProperty('backfillRemainingLedgers');
    expect(lines[1]).not.toHaveProperty('ledgersPerSecond');
  });

  it("says the upstream's pace while level with it, however fast backfill runs below", () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const ingest = new IngestCounts(() => now);
    let status: SummarisedStatus = { currentLedgerIndex: 5000, highestLedgerIndex: 5000, lagLedgers: 0, completeRanges: [{ first: 4000, last: 5000 }], backfillRemainingLedgers: 4000n };
    const summary = new SyncSummary(() => status, ingest, logger, () => now);
    now = 5_000;
    ingest.stored('live', 5);
    ingest.stored('backfill', 395);
    status = { ...status, currentLedgerIndex: 5005, highestLedgerIndex: 5005, completeRanges: [{ first: 3610, last: 5005 }], backfillRemainingLedgers: 3609n };
    summary.summarise();
    expect(lines[0]!.msg).toBe('at ledger 5005, 0 behind the upstream, following 1.0 ledgers/s; backfill: 3609 left, 79 ledgers/s, ETA 46 s');
    expect(lines[0]).toMatchObject({ liveLedgersPerSecond: 1, backfillLedgersPerSecond: 79, backfillEtaSeconds: 46 });
    expect(Number.isInteger(lines[0]!.backfillEtaSeconds)).toBe(true);
    // A period in which backfill stored nothing says 0 and an unknown ETA, not the last period's pace.
    now = 10_000;
    ingest.stored('live', 5);
    status = { ...status, currentLedgerIndex: 5010, highestLedgerIndex: 5010, completeRanges: [{ first: 3610, last: 5010 }] };
    summary.summarise();
    expect(lines[1]!.msg).toBe('at ledger 5010, 0 behind the upstream, following 1.0 ledgers/s; backfill: 3609 left, 0.0 ledgers/s, ETA unknown');
    expect(lines[1]).toMatchObject({ backfillLedgersPerSecond: 0, backfillEtaSeconds: null });
  });

  it('logs nothing for a period in which nothing changed, nor before the first ledger is stored', () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const ingest = new IngestCounts(() => now);
    let status: SummarisedStatus = { currentLedgerIndex: 0, highestLedgerIndex: 0, lagLedgers: 0, completeRanges: [], ...idle };
    const summary = new SyncSummary(() => status, ingest, logger, () => now);
    now = 5_000;
    status = { ...status, highestLedgerIndex: 40, lagLedgers: 40 };
    summary.summarise();
    ingest.stored('live', 1);
    status = { ...status, currentLedgerIndex: 40, lagLedgers: 0, completeRanges: [{ first: 40, last: 40 }] };
    now = 10_000;
    summary.summarise();
    now = 15_000;
    summary.summarise();
    expect(lines.map((line) => line.msg)).toEqual(['at ledger 40, 0 behind the upstream, following 0.2 ledgers/s']);
  });
});

describe('IngestCounts', () => {
  it('keeps live and backfill apart, and backfill at 0 at once when told it ended, with no fading tail', () => {
    let now = 0;
    const ingest = new IngestCounts(() => now);
    for (let second = 1; second <= 10; second++) {
      now = second * 1000;
      ingest.stored('live', 1);
      ingest.stored('backfill', 80);
    }
    expect(ingest.total('live')).toBe(10);
    expect(ingest.total('backfill')).toBe(800);
    expect(ingest.rates.live.ledgersPerSecond()).toBeCloseTo(1.1, 1);
    expect(ingest.rates.backfill.ledgersPerSecond()).toBeGreaterThan(80);
    // ETAs in whole seconds.
    expect(ingest.rates.backfill.etaSeconds(1000)).toBe(11);
    expect(ingest.rates.backfill.etaSeconds(0)).toBeUndefined();
    ingest.rates.backfill.reset();
    now += 100;
    expect(ingest.rates.backfill.ledgersPerSecond()).toBe(0);
    expect(ingest.rates.backfill.etaSeconds(10)).toBeUndefined();
    expect(ingest.rates.live.ledgersPerSecond()).toBeGreaterThan(0.9);
  });
});
