import { describe, expect, it } from 'vitest';
import { prettyMessage } from './pretty';

const base = { level: 30, time: 0, pid: 1, service: 'sync' };

describe('prettyMessage', () => {
  it('gives the service in a column, the message, and the fields the message does not say as key=value', () => {
    const line = prettyMessage({ ...base, ledgerIndex: 1700, ledgerHash: 'AB12', txCount: 0, msg: 'stored validated ledger 1700 (0 transactions)' });
    expect(line).toBe('sync         stored validated ledger 1700 (0 transactions)  ledgerHash=AB12');
  });

  it('shows a value the message holds only as part of a longer word ("17" in "1700")', () => {
    expect(prettyMessage({ ...base, attempt: 17, msg: 'ledger 1700 failed' })).toBe('sync         ledger 1700 failed  attempt=17');
  });

  it('leaves out empty values and a list the message names entry by entry', () => {
    const line = prettyMessage({ ...base, services: ['devnet', 'sync'], etaSeconds: null, msg: 'starting devnet, sync' });
    expect(line).toBe('sync         starting devnet, sync');
  });

  it('quotes texts with spaces, writes objects as JSON, and cuts long values', () => {
    const line = prettyMessage({ ...base, database: 'the database at /data', ranges: [{ first: 1, last: 9 }], blob: 'A'.repeat(500), msg: 'open' });
    expect(line).toBe(`sync         open  database="the database at /data" ranges=[{"first":1,"last":9}] blob=${'A'.repeat(200)}…`);
  });

  it('escapes control characters a logged text may carry (no terminal escape sequences, one line per event)', () => {
    const line = prettyMessage({ ...base, method: 'a\u001b[2Jb', msg: 'unknown method\nforged line' });
    expect(line).toBe('sync         unknown method\\u000aforged line  method="a\\u001b[2Jb"');
  });

  it("shows an error's message, and its stack only on a line at level error or above", () => {
    const err = { type: 'Error', message: 'connect ECONNREFUSED', stack: 'Error: connect ECONNREFUSED\n    at connect (net.js:1:1)' };
    expect(prettyMessage({ ...base, level: 40, err, msg: 'upstream unavailable' })).toBe('sync         upstream unavailable  error="connect ECONNREFUSED"');
    expect(prettyMessage({ ...base, level: 40, err, msg: 'upstream unavailable: connect ECONNREFUSED' })).toBe('sync         upstream unavailable: connect ECONNREFUSED');
    expect(prettyMessage({ ...base, level: 50, err, msg: 'sync could not start' })).toBe(
      'sync         sync could not start  error="connect ECONNREFUSED"\n    Error: connect ECONNREFUSED\n        at connect (net.js:1:1)',
    );
  });
});
