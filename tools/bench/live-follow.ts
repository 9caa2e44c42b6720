/**
 * Live-follow latency: while a devnet closes ledgers under a steady payment load and a node follows
 * it, the time from each ledger's validation at the devnet (its `ledgerClosed` stream message: the
 * devnet validates a ledger as it closes it) until the node's jt_getBlockByNumber answers that
 * ledger. One call at a time asks for the oldest ledger not yet answered, every `pollMs`, so a
 * figure is at most one poll late; both clocks are this process's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ledgerClosedMessage, UpstreamConnection } from '@ledger-node/upstream';
import { percentile } from './http-load';

export interface LiveFollowResult {
  /** Ledgers validated at the devnet while measuring. */
  validated: number;
  /** Of those, answered by the node before the measuring ended. */
  answered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The slowest ledgers, slowest first: which ledger, its latency, and its place in the measured run (1: the first ledger measured). */
  slowest: { ledgerIndex: number; ms: number; position: number }[];
}

async function blockServed(rpcUrl: string, ledgerIndex: number): Promise<boolean> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'jt_getBlockByNumber', params: [String(ledgerIndex), false] }),
  });
  const body = (await response.json()) as { result?: unknown };
  return body.result !== null && body.result !== undefined;
}

/** Measures for `seconds` (plus up to 10 s for the node to answer the last ledgers). */
export async function measureLiveFollow(devnetUrl: string, rpcUrl: string, seconds: number, pollMs = 5): Promise<LiveFollowResult> {
  const validatedAt = new Map<number, number>();
  const latencies: number[] = [];
  const answered: { ledgerIndex: number; ms: number; position: number }[] = [];
  let measuring = true;
  const connection = await UpstreamConnection.open({
    url: devnetUrl,
    connectTimeoutMs: 10_000,
    requestTimeoutMs: 10_000,
    events: {
      onStreamMessage(message) {
        const closed = ledgerClosedMessage.safeParse(message);
        if (measuring && closed.success) validatedAt.set(closed.data.ledger_index, performance.now());
      },
    },
  });
  try {
    await connection.request('subscribe', { streams: ['ledger'] });
    const endsAt = performance.now() + seconds * 1000;
    const givesUpAt = endsAt + 10_000;
    for (;;) {
      const now = performance.now();
      if (now >= endsAt) measuring = false;
      const waiting = [...validatedAt.keys()].sort((a, b) => a - b)[0];
      if (waiting === undefined) {
        if (!measuring || now >= givesUpAt) break;
      } else if (await blockServed(rpcUrl, waiting)) {
        const ms = performance.now() - validatedAt.get(waiting)!;
        latencies.push(ms);
        answered.push({ ledgerIndex: waiting, ms, position: answered.length + 1 });
        validatedAt.delete(waiting);
        continue;
      }
      if (now >= givesUpAt) break;
      await sleep(pollMs);
    }
  } finally {
    connection.terminate('measured');
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    validated: latencies.length + validatedAt.size,
    answered: latencies.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    slowest: answered.sort((a, b) => b.ms - a.ms).slice(0, 3),
  };
}
