import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLedgerNodeError } from '@ledger-node/errors';
import { CatchUpBudget, ClientCatchUps, MAX_CATCH_UPS_PER_CLIENT, resumeRefusal } from './catch-up';
import { metricSample } from './metric-sample';

/** The store holds ledgers 1000 to 2000. */
const stored = [{ first: 1000, last: 2000 }];

describe('the resume window (-max_resume_ledgers)', () => {
  it('accepts a resume point up to -max_resume_ledgers behind the newest stored ledger', () => {
    expect(resumeRefusal(2000 - 256, stored, 256, 'rippled')).toBeUndefined();
    expect(resumeRefusal(2000, stored, 256, 'rippled')).toBeUndefined();
    expect(resumeRefusal(2000 - 256, stored, 256, 'jsonrpc')).toBeUndefined();
  });

  it("refuses one further on rippled's API, naming the earliest from_ledger allowed", () => {
    const refusal = resumeRefusal(1743, stored, 256, 'rippled');
    expect(refusal?.reason).toBe('window');
    expect(refusal?.error.kind).toBe('out_of_range');
    expect(refusal?.error.message).toBe(
      'cannot resume after ledger 1743: it is 257 ledgers behind the newest validated ledger 2000, and a resume replays at most 256 (-max_resume_ledgers); ' +
        'resume after ledger 1744 or later, or subscribe without from_ledger',
    );
    expect(refusal?.error.details.data).toEqual({ stored: '1000-2000', newest_ledger: 2000, max_resume_ledgers: 256, earliest_resume_point: 1744 });
  });

  it('refuses one further on JSON-RPC in fromBlock terms: the earliest fromBlock is one above the earliest ledger seen', () => {
    // fromBlock 1744 is the last ledger seen 1743.
    const refusal = resumeRefusal(1743, stored, 256, 'jsonrpc');
    expect(refusal?.reason).toBe('window');
    expect(refusal?.error.message).toBe(
      'cannot resume from block 1744: it is 257 ledgers behind the newest validated ledger 2000, and a resume replays at most 256 (-max_resume_ledgers); ' +
        'give fromBlock 1745 or later, or subscribe without fromBlock',
    );
    expect(refusal?.error.details.data).toMatchObject({ earliest_resume_point: 1745 });
  });

  it('refuses the whole history (from_ledger 0, fromBlock 1) on a store longer than the window', () => {
    expect(resumeRefusal(0, stored, 256, 'rippled')?.reason).toBe('window');
    expect(resumeRefusal(0, [{ first: 1, last: 722 }], 256, 'jsonrpc')?.error.details.data).toMatchObject({ earliest_resume_point: 467 });
  });

  it('with -max_resume_ledgers 0 accepts a resume at the newest ledger only', () => {
    expect(resumeRefusal(2000, stored, 0, 'rippled')).toBeUndefined();
    expect(resumeRefusal(1999, stored, 0, 'rippled')?.error.message).toContain('resume after ledger 2000 or later');
  });

  it('names the stored range when it, not the window, holds the resume back', () => {
    const refusal = resumeRefusal(900, [{ first: 1000, last: 1100 }], 256, 'rippled');
    expect(refusal?.reason).toBe('not_stored');
    expect(refusal?.error.message).toBe(
      'cannot resume after ledger 900: ledgers 901 to 999 are not stored (this node holds 1000-1100); resume after ledger 999 or later, or subscribe without from_ledger',
    );
    expect(refusal?.error.details.data).toMatchObject({ earliest_resume_point: 999 });
    expect(resumeRefusal(999, [{ first: 1000, last: 1100 }], 256, 'rippled')).toBeUndefined();
  });

  it('refuses a point beyond the newest stored ledger, and any point while nothing is stored', () => {
    expect(resumeRefusal(2001, stored, 256, 'rippled')).toMatchObject({ reason: 'beyond_newest' });
    expect(resumeRefusal(2001, stored, 256, 'rippled')?.error.message).toBe('cannot resume after ledger 2001: the newest stored ledger is 2000');
    expect(resumeRefusal(5, [], 256, 'jsonrpc')?.error.message).toBe('cannot resume from block 6: no ledger is stored yet');
  });
});

describe('the catch-up budget (-resume_rate)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function budget(ledgersPerSecond: number): CatchUpBudget {
    vi.useFakeTimers();
    return new CatchUpBudget(ledgersPerSecond, () => Date.now());
  }

  it("lets a second's worth of reads go at once, then one each 1/rate of a second, first come first served", async () => {
    const reads = budget(10);
    const order: number[] = [];
    const takes = Array.from({ length: 15 }, (_, reader) => reads.take().then(() => order.push(reader)));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(reads.waiters).toBe(5);
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toHaveLength(11);
    await vi.advanceTimersByTimeAsync(400);
    await Promise.all(takes);
    expect(order).toEqual(Array.from({ length: 15 }, (_, reader) => reader));
    expect(reads.waiters).toBe(0);
  });

  it('ends the wait of a reader that stops, and gives its turn to the next', async () => {
    const reads = budget(1);
    await reads.take();
    const stopping = new AbortController();
    let stoppedWaitEnded = false;
    let nextRead = false;
    void reads.take(stopping.signal).then(() => (stoppedWaitEnded = true));
    void reads.take().then(() => (nextRead = true));
    expect(reads.waiters).toBe(2);
    stopping.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(stoppedWaitEnded).toBe(true);
    expect(reads.waiters).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(nextRead).toBe(true);
    expect(reads.waiters).toBe(0);
  });

  it('takes no token for a reader already stopped', async () => {
    const reads = budget(1);
    const stopped = new AbortController();
    stopped.abort();
    await reads.take(stopped.signal);
    let read = false;
    void reads.take().then(() => (read = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toBe(true);
  });

  it('refuses a rate below one ledger a second', () => {
    expect(() => new CatchUpBudget(0)).toThrow(/1 or more ledgers a second/);
  });
});

describe('resumes catching up per client', () => {
  it(`admits ${MAX_CATCH_UPS_PER_CLIENT} at once per client, refuses one more saying why, and admits again once one is released`, () => {
    const catchUps = new ClientCatchUps();
    const tickets = Array.from({ length: MAX_CATCH_UPS_PER_CLIENT }, () => catchUps.admit('192.0.2.7', 'jsonrpc'));
    let refusal: unknown;
    try {
      catchUps.admit('192.0.2.7', 'rippled');
    } catch (error) {
      refusal = error;
    }
    expect(isLedgerNodeError(refusal) && refusal.kind).toBe('rate_limited');
    expect((refusal as Error).message).toBe(
      `too many resumes catching up for this client: at most ${MAX_CATCH_UPS_PER_CLIENT} at once; resume again once one has caught up, or subscribe without a resume point`,
    );
    // Another client is not held back by this one.
    catchUps.admit('198.51.100.2', 'rippled').release();
    tickets[0]!.release();
    tickets[0]!.release();
    expect(catchUps.catchingUp('192.0.2.7')).toBe(MAX_CATCH_UPS_PER_CLIENT - 1);
    catchUps.admit('192.0.2.7', 'rippled');
    expect(() => catchUps.admit('192.0.2.7', 'rippled')).toThrow(/too many resumes/);
    for (const ticket of tickets) ticket.release();
    expect(catchUps.catchingUp('192.0.2.7')).toBe(1);
  });
});

describe('resume metrics', () => {
  it('counts each resume admitted by API in ledger_node_stream_resumes_total, and refusals apart by reason', async () => {
    const before = {
      rippled: await metricSample('ledger_node_stream_resumes_total', { api: 'rippled' }),
      jsonrpc: await metricSample('ledger_node_stream_resumes_total', { api: 'jsonrpc' }),
      refused: await metricSample('ledger_node_stream_resumes_refused_total', { api: 'rippled', reason: 'client_limit' }),
    };
    const catchUps = new ClientCatchUps(1);
    const ticket = catchUps.admit('203.0.113.9', 'rippled');
    expect(() => catchUps.admit('203.0.113.9', 'rippled')).toThrow(/too many resumes/);
    ticket.release();
    catchUps.admit('203.0.113.9', 'jsonrpc').release();
    expect(await metricSample('ledger_node_stream_resumes_total', { api: 'rippled' })).toBe(before.rippled + 1);
    expect(await metricSample('ledger_node_stream_resumes_total', { api: 'jsonrpc' })).toBe(before.jsonrpc + 1);
    expect(await metricSample('ledger_node_stream_resumes_refused_total', { api: 'rippled', reason: 'client_limit' })).toBe(before.refused + 1);
  });
});
