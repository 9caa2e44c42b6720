import { describe, expect, it } from 'vitest';
import { RateLimited, UpstreamUnavailable } from '@ledger-node/errors';
import { errorFields, type JsonObject } from '@ledger-node/rippled-api';
import { createLogger } from '@ledger-node/telemetry';
import { waitUntil } from '@ledger-node/test-utils';
import type { FindPathsRequest, FindPathsResponse } from '@ledger-node/contracts';
import { ConnectionPathRequest, type PathFinding } from './path-requests';

const logger = createLogger('path-requests-test', 'silent');

/**
 * The submission service's FindPaths as its callers see it: each call's messages pushed by the
 * test (the create answer first), ended by the test or by the caller's signal.
 */
class Upstream implements PathFinding {
  readonly calls: { request: FindPathsRequest; signal: AbortSignal; push(message: JsonObject, error?: boolean): void; end(error?: Error): void }[] = [];
  refuseWith: Error | undefined;

  findPaths(request: FindPathsRequest, options: { signal: AbortSignal }): AsyncIterable<FindPathsResponse> {
    const queue: (FindPathsResponse | Error | null)[] = [];
    let wake = () => {};
    const refusal = this.refuseWith;
    this.calls.push({
      request,
      signal: options.signal,
      push: (message, error = false) => {
        queue.push({ messageJson: JSON.stringify(message), error });
        wake();
      },
      end: (error) => {
        queue.push(error ?? null);
        wake();
      },
    });
    options.signal.addEventListener('abort', () => wake());
    return (async function* () {
      if (refusal) throw refusal;
      for (;;) {
        while (queue.length === 0 && !options.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
        if (options.signal.aborted) return;
        const next = queue.shift()!;
        if (next === null) return;
        if (next instanceof Error) throw next;
        yield next;
      }
    })();
  }
}

const create = { subcommand: 'create', source_account: 'rA', destination_account: 'rB', destination_amount: '1000' };
const answerOf = { alternatives: [], destination_account: 'rB', full_reply: false };

function connection() {
  const upstream = new Upstream();
  const sent: JsonObject[] = [];
  const paths = new ConnectionPathRequest(upstream, (message) => sent.push(message), logger);
  return { upstream, sent, paths };
}

async function created(paths: ConnectionPathRequest, upstream: Upstream, id: unknown = 1) {
  const running = paths.run(create, 1, id);
  await waitUntil(() => upstream.calls.length > 0, 2_000, 'FindPaths called');
  upstream.calls.at(-1)!.push(answerOf);
  return running;
}

describe("a WebSocket connection's path_find request", () => {
  it("answers create with the upstream's answer, relays each update with the create's id after it, marked forwarded", async () => {
    const { upstream, sent, paths } = connection();
    const answer = await created(paths, upstream, 'mine');
    expect(answer.result).toEqual({ ...answerOf, forwarded: true });
    expect(JSON.parse(upstream.calls[0]!.request.paramsJson)).toEqual(create);
    upstream.calls[0]!.push({ type: 'path_find', id: 3, alternatives: [{ source_amount: '1000', paths_computed: [] }], full_reply: true });
    // Nothing is relayed before the create answer is sent (start).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([]);
    answer.start!();
    await waitUntil(() => sent.length === 1, 2_000, 'the update');
    expect(sent[0]).toEqual({ type: 'path_find', id: 'mine', alternatives: [{ source_amount: '1000', paths_computed: [] }], full_reply: true, forwarded: true });
    expect((await paths.run({ subcommand: 'status' }, 1, 2)).result).toEqual({ alternatives: [{ source_amount: '1000', paths_computed: [] }], full_reply: true, forwarded: true });
  });

  it('closes the request upstream on close (answering its state with closed: true), on a new create, and when the connection closes', async () => {
    const { upstream, paths } = connection();
    (await created(paths, upstream)).start!();
    expect((await paths.run({ subcommand: 'close' }, 1, 2)).result).toEqual({ ...answerOf, closed: true, forwarded: true });
    expect(upstream.calls[0]!.signal.aborted).toBe(true);
    await expect(paths.run({ subcommand: 'close' }, 1, 3)).rejects.toMatchObject({ token: 'noPathRequest' });

    (await created(paths, upstream)).start!();
    (await created(paths, upstream)).start!();
    expect(upstream.calls[1]!.signal.aborted).toBe(true);
    expect(upstream.calls[2]!.signal.aborted).toBe(false);
    paths.close();
    expect(upstream.calls[2]!.signal.aborted).toBe(true);
    expect(paths.open).toBe(false);
  });

  it('closes a create that a later create (or the connection closing) overtook while it waited for its answer', async () => {
    const { upstream, paths } = connection();
    const first = paths.run(create, 1, 1);
    await waitUntil(() => upstream.calls.length === 1, 2_000, 'the first FindPaths');
    const second = paths.run(create, 1, 2);
    await waitUntil(() => upstream.calls.length === 2, 2_000, 'the second FindPaths');
    upstream.calls[1]!.push(answerOf);
    (await second).start!();
    upstream.calls[0]!.push(answerOf);
    expect((await first).start).toBeUndefined();
    expect(upstream.calls[0]!.signal.aborted).toBe(true);
    expect(upstream.calls[1]!.signal.aborted).toBe(false);

    const third = paths.run(create, 1, 3);
    await waitUntil(() => upstream.calls.length === 3, 2_000, 'the third FindPaths');
    paths.close();
    upstream.calls[2]!.push(answerOf);
    await third;
    expect(upstream.calls.every((call) => call.signal.aborted)).toBe(true);
    expect(paths.open).toBe(false);
  });

  it('finds no request once the upstream ended it', async () => {
    const { upstream, paths } = connection();
    (await created(paths, upstream)).start!();
    upstream.calls[0]!.end(new UpstreamUnavailable('the upstream connection of the path request closed'));
    await waitUntil(() => !paths.open, 2_000, 'the request gone');
    await expect(paths.run({ subcommand: 'status' }, 1, 2)).rejects.toMatchObject({ token: 'noPathRequest' });
  });

  it("answers the upstream's error, tooBusy past the open requests' bound, noNetwork without an upstream; keys and bad subcommands refused before anything is opened", async () => {
    const { upstream, paths } = connection();
    const failing = paths.run(create, 1, 1);
    await waitUntil(() => upstream.calls.length === 1, 2_000, 'FindPaths called');
    upstream.calls[0]!.push({ error: 'srcActNotFound', error_code: 18, error_message: 'Source account not found.', status: 'error' }, true);
    expect(errorFields(await failing.catch((error) => error))).toMatchObject({ error: 'srcActNotFound', error_code: 18 });
    expect(paths.open).toBe(false);

    upstream.refuseWith = new RateLimited('16 path requests are open already');
    await expect(paths.run(create, 1, 2)).rejects.toMatchObject({ token: 'tooBusy' });
    upstream.refuseWith = new UpstreamUnavailable('cannot connect to ws://10.0.0.7:6006');
    await expect(paths.run(create, 1, 3)).rejects.toMatchObject({ token: 'noNetwork' });
    upstream.refuseWith = undefined;

    const calls = upstream.calls.length;
    await expect(paths.run({ ...create, secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' }, 1, 4)).rejects.toMatchObject({ token: 'invalidParams' });
    await expect(paths.run({}, 1, 5)).rejects.toMatchObject({ token: 'invalidParams' });
    await expect(paths.run({ subcommand: 'open' }, 1, 6)).rejects.toMatchObject({ token: 'invalidParams' });
    await expect(paths.run({ subcommand: 'status' }, 1, 7)).rejects.toMatchObject({ token: 'noPathRequest' });
    expect(upstream.calls.length).toBe(calls);
  });
});
