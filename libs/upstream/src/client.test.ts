import { UpstreamUnavailable } from '@ledger-node/errors';
import { rejectionOf } from '@ledger-node/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { plainEndpoints, UpstreamClient } from './client';
import { MockUpstream } from './testing';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mockUpstreams(count: number): Promise<MockUpstream[]> {
  const mocks = await Promise.all(Array.from({ length: count }, () => MockUpstream.start()));
  cleanups.push(() => Promise.all(mocks.map((mock) => mock.close())).then(() => undefined));
  return mocks;
}

function clientOf(endpoints: ConstructorParameters<typeof UpstreamClient>[0]['endpoints']): UpstreamClient {
  const client = new UpstreamClient({ endpoints, requestTimeoutMs: 2_000 });
  cleanups.push(() => client.close());
  return client;
}

/** An endpoint that refuses connections: a mock that listened once, closed. */
async function downEndpoint(): Promise<string> {
  const [gone] = await mockUpstreams(1);
  await gone!.close();
  return gone!.url;
}

describe('UpstreamClient', () => {
  it('connects on its first request, to the first endpoint that answers in the order given', async () => {
    const down = await downEndpoint();
    const [second, third] = await mockUpstreams(2);
    const client = clientOf(plainEndpoints(down, second!.url, third!.url));
    expect(client.url).toBeUndefined();
    expect((await client.request('ledger_current', {})).ledger_current_index).toBe(6643240);
    expect(client.url).toBe(second!.url);
    expect([second!.requests.length, third!.requests.length]).toEqual([1, 0]);
  });

  it('after its connection drops, connects again starting with the endpoint that answered last, then the next ones', async () => {
    const [first, second] = await mockUpstreams(2);
    const client = clientOf(plainEndpoints(first!.url, second!.url));
    await client.request('ledger_closed', {});
    first!.dropConnections();
    await expect.poll(() => client.url).toBeUndefined();
    await client.request('ledger_closed', {});
    expect(client.url).toBe(first!.url);
    await first!.close();
    await expect.poll(() => client.url).toBeUndefined();
    await client.request('ledger_closed', {});
    expect(client.url).toBe(second!.url);
    expect([first!.requests.length, second!.requests.length]).toEqual([2, 1]);
  });

  it('fails with UpstreamUnavailable naming every endpoint by its shown URL when none answers', async () => {
    const [one, two] = [await downEndpoint(), await downEndpoint()];
    const shown = (url: string) => url.replace('ws://', 'ws://***@');
    const endpoints = { urls: [shown(one), shown(two)], connectUrl: (url: string) => url.replace('***', 'reader:s3cret') };
    const error = await rejectionOf<Error>(clientOf(endpoints).request('server_info', {}));
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error.message).toContain(`cannot connect to ${shown(one)}`);
    expect(error.message).toContain(`cannot connect to ${shown(two)}`);
    expect(error.message).not.toContain('s3cret');
  });

  it('once closed, refuses every request and keeps no connection', async () => {
    const [mock] = await mockUpstreams(1);
    const client = clientOf(plainEndpoints(mock!.url));
    await client.connect();
    expect(mock!.connectionCount).toBe(1);
    client.close();
    await expect(client.request('server_info', {})).rejects.toThrow('the upstream client is closed');
    await expect.poll(() => mock!.connectionCount).toBe(0);
  });
});
