import { describe, expect, it } from 'vitest';
import { RateLimited } from '@ledger-node/errors';
import { withCallScope } from '@ledger-node/grpc';
import { SendLimit } from './send-limit';

/** `count` sends taken as the caller `caller` at `address`: how many were refused. */
async function refusedOf(limit: SendLimit, caller: string, address: string, count: number): Promise<number> {
  let refused = 0;
  for (let send = 0; send < count; send++) {
    try {
      await withCallScope({ signal: new AbortController().signal, caller, address }, () => limit.take());
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      refused++;
    }
  }
  return refused;
}

describe('-send_rate', () => {
  it('limits a remote client to its sends a second', async () => {
    expect(await refusedOf(new SendLimit(10), 'ip:203.0.113.7', '203.0.113.7', 15)).toBe(5);
  });

  it('lets a client on this host through by default, as rippled lets local connections through', async () => {
    expect(await refusedOf(new SendLimit(10), 'local:127.0.0.1:50123', '127.0.0.1', 15)).toBe(0);
  });

  it('counts it too with -send_rate_local', async () => {
    expect(await refusedOf(new SendLimit(10, true), 'local:127.0.0.1:50123', '127.0.0.1', 15)).toBe(5);
  });

  it('counts a client a trusted proxy forwards from this host by its address (it is no local caller)', async () => {
    expect(await refusedOf(new SendLimit(10), 'ip:127.0.0.1', '127.0.0.1', 15)).toBe(5);
  });
});
