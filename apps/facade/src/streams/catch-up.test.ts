import { describe, expect, it } from 'vitest';
import { resumeRefusal } from './catch-up';

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
