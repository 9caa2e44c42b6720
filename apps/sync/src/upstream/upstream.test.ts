import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '@ledger-node/test-utils';
import type { Logger } from '@ledger-node/telemetry';
import { MockUpstream } from '@ledger-node/upstream/testing';
import { Upstream, type ValidatedLedgerAnnouncement } from './upstream';

const stoppers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop();
});

/** A mock upstream whose `subscribe` answers ledger 100 and whose `ledger` requests get no answer; the test writes the stream. */
async function fakeServer(): Promise<MockUpstream> {
  const server = await MockUpstream.start();
  stoppers.push(() => server.close());
  server.reply('subscribe', { result: { ledger_index: 100, ledger_hash: 'AB'.repeat(32) } });
  server.reply('ledger', { silence: true });
  return server;
}

function countingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const logger = { warnings, warn: (_fields: unknown, message: string) => warnings.push(message), info() {}, debug() {}, error() {} };
  return logger as unknown as Logger & { warnings: string[] };
}

const closed = (ledgerIndex: number) => ({ type: 'ledgerClosed', ledger_index: ledgerIndex, ledger_hash: 'CD'.repeat(32) });

describe('Upstream facing a hostile stream', () => {
  it('counts every malformed message, logs them once per interval, and a ledger 4 000 000 000 makes no later ledger a stall', async () => {
    const server = await fakeServer();
    const logger = countingLogger();
    const announced: ValidatedLedgerAnnouncement[] = [];
    const malformed: string[] = [];
    const upstream = new Upstream({
      endpoints: [server.url],
      logger,
      stallTimeoutMs: 600,
      onValidatedLedger: (announcement) => announced.push(announcement),
      onMalformed: (reason) => malformed.push(reason),
    });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => upstream.connected || undefined, 5_000, 'subscribed');
    for (let count = 0; count < 50; count++) server.stream('{not json');
    server.stream({ type: 'ledgerClosed', ledger_index: 'soon' });
    await waitUntil(() => malformed.length === 51 || undefined, 5_000, 'every malformed message counted');
    expect(upstream.malformedMessageCount).toBe(51n);
    expect(logger.warnings.filter((line) => line.startsWith('malformed upstream message'))).toHaveLength(1);

    server.stream(closed(4_000_000_000));
    for (let ledgerIndex = 101; ledgerIndex <= 112; ledgerIndex++) {
      server.stream(closed(ledgerIndex));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(announced.map((announcement) => announcement.ledgerIndex)).toContain(112);
    expect(logger.warnings.filter((line) => line.includes('stalled'))).toEqual([]);
    expect(upstream.reconnectCount).toBe(0n);
  });
});

describe('Upstream following a network that goes idle', () => {
  it('waits at least twice an idle devnet\'s close (5 s) before calling it stalled, however fast the closes before were', async () => {
    const server = await fakeServer();
    const upstream = new Upstream({ endpoints: [server.url], logger: countingLogger(), onValidatedLedger: () => {} });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => upstream.connected || undefined, 5_000, 'subscribed');
    // Before two ledgers: three of the XRP Ledger's 4 s closes.
    expect(upstream.stallTimeoutMs()).toBe(12_000);
    for (let ledgerIndex = 101; ledgerIndex <= 105; ledgerIndex++) {
      server.stream(closed(ledgerIndex));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Closes 50 ms apart, then an idle close of 5 s (-idle_close_ms) a little late on a loaded machine: not a stall.
    expect(upstream.stallTimeoutMs()).toBe(10_000);
  });
});

describe('Upstream facing an endpoint that streams but never answers', () => {
  it('counts it stalled after three unanswered requests and moves on to the next endpoint', async () => {
    const mute = await fakeServer();
    const next = await fakeServer();
    const logger = countingLogger();
    const upstream = new Upstream({ endpoints: [mute.url, next.url], logger, requestTimeoutMs: 200, reconnectBaseMs: 10, onValidatedLedger: () => {} });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => upstream.connected || undefined, 5_000, 'subscribed to the first endpoint');
    for (let attempt = 0; attempt < 3; attempt++) await expect(upstream.fetchLedger(100)).rejects.toThrow(/got no answer within 200 ms/);
    await waitUntil(() => (upstream.connected && upstream.url === next.url) || undefined, 5_000, 'subscribed to the next endpoint');
    expect(logger.warnings.some((line) => line.includes(`upstream ${mute.url} stalled: its last 3 requests got no answer`))).toBe(true);
  });
});

describe('Upstream told its endpoint announces what cannot be proven', () => {
  it('leaves that endpoint for the next one, saying why; with one endpoint it stays', async () => {
    const lying = await fakeServer();
    const next = await fakeServer();
    const logger = countingLogger();
    const upstream = new Upstream({ endpoints: [lying.url, next.url], logger, reconnectBaseMs: 10, onValidatedLedger: () => {} });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => upstream.connected || undefined, 5_000, 'subscribed to the first endpoint');
    // Said of a subscription that is not the current one, it changes nothing.
    for (const stale of [`${next.url}#1`, `${lying.url}#0`]) upstream.distrust(stale, 'late news of another subscription');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([upstream.connected, upstream.url]).toEqual([true, lying.url]);
    upstream.distrust(`${lying.url}#1`, '3 ledgers it announced in a row could not be proven');
    await waitUntil(() => (upstream.connected && upstream.url === next.url) || undefined, 5_000, 'subscribed to the next endpoint');
    expect(logger.warnings).toContain(`upstream ${lying.url} left: 3 ledgers it announced in a row could not be proven; trying the next endpoint`);

    const only = await fakeServer();
    const alone = new Upstream({ endpoints: [only.url], logger: countingLogger(), reconnectBaseMs: 10, onValidatedLedger: () => {} });
    alone.start();
    stoppers.push(() => alone.stop());
    await waitUntil(() => alone.connected || undefined, 5_000, 'subscribed');
    alone.distrust(`${only.url}#1`, 'nothing else to try');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([alone.connected, alone.reconnectCount]).toEqual([true, 0n]);
  });
});

describe('Upstream facing a 100 MB message', () => {
  it('drops the connection before reading it and reconnects, its memory not grown by the message', async () => {
    const server = await fakeServer();
    const junk = Buffer.alloc(100 * 1024 * 1024, 0x7b);
    const upstream = new Upstream({ endpoints: [server.url], logger: countingLogger(), reconnectBaseMs: 10, onValidatedLedger: () => {} });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => upstream.connected || undefined, 5_000, 'subscribed');
    const before = process.memoryUsage();
    server.stream(junk);
    await waitUntil(() => upstream.reconnectCount >= 1n || undefined, 20_000, 'the connection dropped and opened again');
    const after = process.memoryUsage();
    // The sender's 100 MB is allocated before the baseline; the receiving side never holds it. The
    // sending side's socket buffers live in this process too (tens of MB, as the kernel takes them),
    // so the bound is that the message was not read whole, not that nothing moved.
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('Upstream with -network_id', () => {
  /** A mock upstream whose subscribe answer names `networkId` (none when undefined). */
  async function serverOn(networkId: number | undefined): Promise<MockUpstream> {
    const server = await MockUpstream.start();
    stoppers.push(() => server.close());
    server.reply('subscribe', { result: { ledger_index: 100, ledger_hash: 'AB'.repeat(32), ...(networkId === undefined ? {} : { network_id: networkId }) } });
    return server;
  }

  it('uses no endpoint whose subscribe answer names another network, and one that names this network or none', async () => {
    const testnet = await serverOn(1);
    const mainnet = await serverOn(0);
    const silent = await serverOn(undefined);
    const failures: string[] = [];
    const logger = { ...countingLogger(), debug: (fields: { reason?: string }) => fields.reason && failures.push(fields.reason) } as unknown as Logger;
    const upstream = new Upstream({ endpoints: [testnet.url, mainnet.url], networkId: 0, logger, reconnectBaseMs: 10, onValidatedLedger: () => {} });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => (upstream.connected && upstream.url === mainnet.url) || undefined, 5_000, 'subscribed to the mainnet endpoint');
    expect(failures).toContain("it is on network 1, not this node's -network_id 0");

    const unstated = new Upstream({ endpoints: [silent.url], networkId: 0, logger, onValidatedLedger: () => {} });
    unstated.start();
    stoppers.push(() => unstated.stop());
    await waitUntil(() => unstated.connected || undefined, 5_000, 'subscribed to the endpoint that names no network');
  });

  it('uses any endpoint when the node states no network', async () => {
    const testnet = await serverOn(1);
    const upstream = new Upstream({ endpoints: [testnet.url], logger: countingLogger(), onValidatedLedger: () => {} });
    upstream.start();
    stoppers.push(() => upstream.stop());
    await waitUntil(() => upstream.connected || undefined, 5_000, 'subscribed');
  });
});
