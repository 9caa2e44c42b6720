import { describe, expect, it } from 'vitest';
import { holderText } from './writer-election';

describe('holderText', () => {
  it('names the holding session by its server pid and client address, as pg_stat_activity shows them', () => {
    expect(holderText({ pid: 4242, applicationName: 'ledger-node sync writer lock', clientAddress: '10.0.0.7' })).toBe(' (server pid 4242 from 10.0.0.7)');
  });

  it('leaves the address out for a session over a Unix socket, and says nothing when the holder could not be read', () => {
    expect(holderText({ pid: 4242, applicationName: 'ledger-node sync writer lock', clientAddress: undefined })).toBe(' (server pid 4242)');
    expect(holderText(undefined)).toBe('');
  });
});
