import { UpstreamClient, plainEndpoints } from '@ledger-node/upstream';
import { MockUpstream, type MockRequest } from '@ledger-node/upstream/testing';
import { waitUntil } from '@ledger-node/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathFinder, type PathFinderLimits, type PathMessage } from './path-finder';

describe('PathFinder', () => {
  let upstream: MockUpstream;
  const clients: UpstreamClient[] = [];
  const pathFinds: MockRequest[] = [];
  const finderWith = (limits: Partial<PathFinderLimits> = {}) =>
    new PathFinder(
      (events) => {
        const client = new UpstreamClient({ endpoints: plainEndpoints(upstream.url), requestTimeoutMs: 2_000, events });
        clients.push(client);
        return { request: (command, params, options) => client.request(command, params, options), close: () => client.close() };
      },
      { maxOpen: 2, lifetimeMs: 60_000, timeoutMs: 2_000, maxMessageBytes: 4096, ...limits },
    );
  const create = JSON.stringify({ subcommand: 'create', source_account: 'rA', destination_account: 'rB', destination_amount: '1000', id: 9 });

  /** Reads messages of `messages` into `into` until it ends, failing with what ended it. */
  async function readAll(messages: AsyncGenerator<PathMessage>, into: PathMessage[]): Promise<unknown> {
    try {
      for await (const message of messages) into.push(message);
      return undefined;
    } catch (error) {
      return error;
    }
  }

  beforeEach(async () => {
    pathFinds.length = 0;
    upstream = await MockUpstream.start();
    upstream.reply('path_find', (request) => {
      pathFinds.push(request);
      return request.subcommand === 'create' ? { result: { alternatives: [], full_reply: false, destination_account: 'rB' } } : { result: { closed: true } };
    });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await upstream.close();
  });

  it("opens each request on a connection of its own, relays the upstream's updates, and closes it upstream when its caller goes", async () => {
    const finder = finderWith();
    const caller = new AbortController();
    const messages: PathMessage[] = [];
    const reading = readAll(finder.find(create, 1, caller.signal), messages);
    await waitUntil(() => messages.length === 1, 5_000, 'the create answer');
    expect(messages[0]).toEqual({ error: false, message: { alternatives: [], full_reply: false, destination_account: 'rB' } });
    // The envelope is the finder's own: the caller's id never reaches the upstream.
    expect(pathFinds[0]).toMatchObject({ subcommand: 'create', destination_amount: '1000', api_version: 1 });
    expect(pathFinds[0]!.id).not.toBe(9);
    expect(finder.open).toBe(1);

    upstream.stream({ type: 'path_find', id: 1, alternatives: [{ source_amount: '1000', paths_computed: [] }], full_reply: true });
    // Messages of other streams are not the request's.
    upstream.stream({ type: 'ledgerClosed', ledger_index: 5 });
    await waitUntil(() => messages.length === 2, 5_000, 'the update');
    expect(messages[1]).toEqual({ error: false, message: { type: 'path_find', id: 1, alternatives: [{ source_amount: '1000', paths_computed: [] }], full_reply: true } });

    caller.abort();
    expect(await reading).toBeUndefined();
    expect(pathFinds.map((request) => request.subcommand)).toEqual(['create', 'close']);
    expect(finder.open).toBe(0);
    await waitUntil(() => upstream.connectionCount === 0, 5_000, 'the connection closed');
  });

  it('refuses one request past its bound with RateLimited, and takes one again once a request closed', async () => {
    const finder = finderWith({ maxOpen: 2 });
    const callers = [new AbortController(), new AbortController()];
    const readings = callers.map((caller) => readAll(finder.find(create, 1, caller.signal), []));
    await waitUntil(() => finder.open === 2 && pathFinds.length === 2, 5_000, 'two requests open');
    const third = finder.find(create, 1, new AbortController().signal);
    await expect(third.next()).rejects.toMatchObject({ kind: 'rate_limited' });
    callers[0]!.abort();
    await readings[0];
    expect(finder.open).toBe(1);
    const fourth = new AbortController();
    const reading = readAll(finder.find(create, 1, fourth.signal), []);
    await waitUntil(() => finder.open === 2, 5_000, 'another request open');
    fourth.abort();
    callers[1]!.abort();
    await Promise.all([reading, readings[1]]);
    expect(finder.open).toBe(0);
  });

  it('ends a request at its lifetime, closing it upstream', async () => {
    const finder = finderWith({ lifetimeMs: 300 });
    const messages: PathMessage[] = [];
    expect(await readAll(finder.find(create, 1, new AbortController().signal), messages)).toBeUndefined();
    expect(messages).toHaveLength(1);
    expect(pathFinds.map((request) => request.subcommand)).toEqual(['create', 'close']);
    expect(finder.open).toBe(0);
  });

  it("hands on the upstream's error answer to create as the one message, and ends", async () => {
    upstream.reply('path_find', { error: 'srcActNotFound', errorMessage: 'Source account not found.' });
    const messages: PathMessage[] = [];
    expect(await readAll(finderWith().find(create, 1, new AbortController().signal), messages)).toBeUndefined();
    expect(messages).toEqual([{ error: true, message: expect.objectContaining({ error: 'srcActNotFound', status: 'error' }) }]);
  });

  it('ends with UpstreamUnavailable when the upstream connection drops, and when no upstream answers', async () => {
    const finder = finderWith();
    const messages: PathMessage[] = [];
    const reading = readAll(finder.find(create, 1, new AbortController().signal), messages);
    await waitUntil(() => messages.length === 1, 5_000, 'the create answer');
    upstream.dropConnections();
    expect(await reading).toMatchObject({ kind: 'upstream_unavailable' });
    expect(finder.open).toBe(0);
    await upstream.close();
    expect(await readAll(finder.find(create, 1, new AbortController().signal), [])).toMatchObject({ kind: 'upstream_unavailable' });
    upstream = await MockUpstream.start();
  });

  it('refuses what is not a path_find create, and keys, before opening anything', async () => {
    const finder = finderWith();
    for (const params of [{ subcommand: 'status' }, { subcommand: 'create', secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' }]) {
      await expect(finder.find(JSON.stringify(params), 1, new AbortController().signal).next()).rejects.toMatchObject({ kind: 'invalid_params' });
    }
    await expect(finder.find('[1]', 1, new AbortController().signal).next()).rejects.toMatchObject({ kind: 'invalid_params' });
    expect(pathFinds).toEqual([]);
    expect(clients).toHaveLength(0);
  });
});
