import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { NotSynced, Rejected } from '@ledger-node/errors';
import { createLogger } from '@ledger-node/telemetry';
import { BATCH_CONCURRENCY, Dispatcher, type CallerContext } from './dispatcher';
import { defineMethod, param, type MethodContext, type RpcMethod } from './method';
import { getProfile } from '@ledger-node/chain';
import { methods } from './methods';

const echo = defineMethod({
  name: 'test_echo',
  summary: 'echo',
  params: [param('text', z.string(), 'text to echo'), param('times', z.number().int().min(1).default(1), 'repeat', { optional: true })],
  result: z.string(),
  errors: [],
  examples: [{ name: 'twice', params: ['ab', 2], result: 'abab' }],
  handler: async ([text, times]) => text.repeat(times),
});
const failing = (error: unknown) =>
  defineMethod({
    name: 'test_fail',
    summary: 'fails',
    params: [],
    result: z.null(),
    errors: [],
    examples: [{ name: 'fails', params: [], result: null }],
    handler: async () => {
      throw error;
    },
  });

/** A dispatcher over `echo` (and `extra`), whose answers the tests read parsed. */
const dispatcher = (extra?: { name: string }, limits: { maxBatchLength?: number; maxResponseBytes?: number } = {}) => {
  const inner = new Dispatcher({
    methods: new Map(([echo, ...(extra ? [extra] : [])] as unknown as RpcMethod[]).map((m) => [m.name, m])),
    context: {} as MethodContext,
    logger: createLogger('test', 'silent'),
    maxBatchLength: 3,
    maxResponseBytes: 1_000_000,
    ...limits,
  });
  return {
    raw: (body: unknown) => inner.handle(body),
    handle: async (body: unknown, caller?: CallerContext): Promise<any> => {
      const text = await inner.handle(body, caller);
      return text === undefined ? undefined : JSON.parse(text);
    },
  };
};

const call = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id });

describe('Dispatcher', () => {
  it('answers a call with id, jsonrpc, result and status in the seed order', async () => {
    expect(await dispatcher().raw(call('test_echo', ['ab', 2]))).toBe('{"id":1,"jsonrpc":"2.0","result":"abab","status":"success"}');
  });

  it('applies defaults of optional trailing params', async () => {
    expect(await dispatcher().handle(call('test_echo', ['x']))).toMatchObject({ result: 'x' });
  });

  it.each([
    [{ method: 'test_echo', params: [], id: 1 }, -32600, /"jsonrpc" must be "2.0"/],
    [{ jsonrpc: '1.0', method: 'test_echo', params: [], id: 1 }, -32600, /"jsonrpc" must be "2.0"/],
    [{ jsonrpc: '2.0', params: [], id: 1 }, -32600, /"method"/],
    [{ jsonrpc: '2.0', method: 'test_echo', params: { text: 'x' }, id: 1 }, -32600, /"params" must be an array/],
    [{ jsonrpc: '2.0', method: 'test_echo', params: ['x'], id: { a: 1 } }, -32600, /"id"/],
    [{ jsonrpc: '2.0', method: 'nope', params: [], id: 1 }, -32601, /method not found: nope/],
    [call('test_echo', [5]), -32602, /invalid parameter 1 \(text\)/],
    [call('test_echo', ['x', 0]), -32602, /invalid parameter 2 \(times\)/],
    [call('test_echo', []), -32602, /takes 1 to 2 parameter\(s\) \(text, times\), got 0/],
    [call('test_echo', ['a', 1, 2]), -32602, /got 3/],
    ['not an object', -32600, /expected a JSON object/],
  ])('%j gets error %i', async (request, code, message) => {
    const response = (await dispatcher().handle(request)) as { error: { code: number; message: string }; status: string };
    expect(response.error.code).toBe(code);
    expect(response.error.message).toMatch(message);
    expect(response.status).toBe('error');
  });

  it('maps domain errors into -32000..-32099 with their data', async () => {
    const response = await dispatcher(failing(new Rejected('fee too low', 'telINSUF_FEE_P'))).handle(call('test_fail', []));
    expect(response).toEqual({
      id: 1,
      jsonrpc: '2.0',
      error: { code: -32006, message: 'fee too low', data: { engine_result: 'telINSUF_FEE_P' } },
      status: 'error',
    });
    expect(await dispatcher(failing(new NotSynced())).handle(call('test_fail', []))).toMatchObject({ error: { code: -32001 } });
  });

  it('hides unexpected errors behind -32603 with a correlation id and no stack', async () => {
    const response = (await dispatcher(failing(new Error('boom at /secret/file.ts:12'))).handle(call('test_fail', []))) as {
      error: { code: number; message: string; data: { correlation_id: string } };
    };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toBe('internal error');
    expect(response.error.data.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(response)).not.toContain('secret');
  });

  it('refuses signing methods to untrusted callers with -32007 naming the reason', async () => {
    const signer = { ...echo, name: 'test_sign', signing: true };
    const refused = await dispatcher(signer).handle(call('test_sign', ['x']), { signingRefusal: 'not on loopback' });
    expect(refused).toMatchObject({ error: { code: -32007, message: 'test_sign refused: not on loopback' }, status: 'error' });
    expect(await dispatcher(signer).handle(call('test_sign', ['x']), {})).toMatchObject({ result: 'x' });
    // Reads stay open to everyone.
    expect(await dispatcher().handle(call('test_echo', ['y']), { signingRefusal: 'not on loopback' })).toMatchObject({ result: 'y' });
  });

  describe('batches', () => {
    it('answers each element, errors included, in order', async () => {
      const response = await dispatcher().handle([call('test_echo', ['a'], 1), call('nope', [], 2), call('test_echo', ['b'], 'x')]);
      expect(response).toEqual([
        { id: 1, jsonrpc: '2.0', result: 'a', status: 'success' },
        { id: 2, jsonrpc: '2.0', error: { code: -32601, message: 'method not found: nope' }, status: 'error' },
        { id: 'x', jsonrpc: '2.0', result: 'b', status: 'success' },
      ]);
    });

    it('rejects an empty batch and one over the length limit', async () => {
      expect(await dispatcher().handle([])).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/empty batch/) } });
      const tooMany = [1, 2, 3, 4].map((id) => call('test_echo', ['a'], id));
      expect(await dispatcher().handle(tooMany)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/limit of 3/) } });
    });

    it('leaves notifications (no id) out of the answer, and sends nothing for a batch of them', async () => {
      const { id: _omit, ...notification } = call('test_echo', ['a']);
      expect(await dispatcher().handle([notification, call('test_echo', ['b'], 9)])).toEqual([
        { id: 9, jsonrpc: '2.0', result: 'b', status: 'success' },
      ]);
      expect(await dispatcher().handle([notification, notification])).toBeUndefined();
      expect(await dispatcher().handle(notification)).toBeUndefined();
    });

    it('weighs jt_account by the page it may return: a page of 1000 as ten calls, the default page as -max_page_size allows', async () => {
      const context = { maxPageSize: 1000, profile: getProfile('jingtum'), queries: { accountTransactions: async () => ({ transactions: [], marker: Buffer.alloc(0) }) } } as unknown as MethodContext;
      const history = new Dispatcher({ methods, context, logger: createLogger('test', 'silent'), maxBatchLength: 100, maxResponseBytes: 1_000_000 });
      const pages = (count: number, perPage?: unknown) => Array.from({ length: count }, (_, id) => call('jt_account', perPage === undefined ? ['jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', 0] : ['jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', 0, perPage], id));
      for (const [batch, weight] of [
        [pages(11, 1000), 110],
        [pages(11), 110],
        [pages(34, 250), 102],
      ] as const) {
        const answer = JSON.parse((await history.handle(batch))!);
        expect(answer).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining(`weighs ${weight} calls`) } });
      }
      // Small pages stay light: 100 calls of 100 entries fit a batch of 100.
      const answers = JSON.parse((await history.handle(pages(100, 100)))!);
      expect(answers).toHaveLength(100);
      expect(answers[99]).toMatchObject({ result: [], status: 'success' });
      // A perPage that is no page size weighs as the default page (the call is then refused for it).
      expect(JSON.parse((await history.handle(pages(11, 'many')))!)).toMatchObject({ error: { code: -32600 } });
    });

    it('weighs each call by its method: a batch heavier than the limit is refused', async () => {
      const heavy = defineMethod({ ...echo, name: 'test_heavy', weight: (params) => (params[1] === 2 ? 2 : 1) });
      const twoLight = [call('test_heavy', ['a'], 1), call('test_heavy', ['a'], 2)];
      expect(await dispatcher(heavy).handle(twoLight)).toHaveLength(2);
      const lightAndHeavy = [call('test_heavy', ['a'], 1), call('test_heavy', ['a', 2], 2), call('test_heavy', ['a'], 3)];
      expect(await dispatcher(heavy).handle(lightAndHeavy)).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringMatching(/batch of 3 calls weighs 4 calls .* limit of 3/) },
      });
    });
  });

  it('runs a batch a few calls at a time, and no call once the answers are over the cap', async () => {
    let running = 0;
    let mostRunning = 0;
    let runs = 0;
    const slow = defineMethod({
      name: 'test_slow',
      summary: 'slow',
      params: [],
      result: z.string(),
      errors: [],
      examples: [{ name: 'slow', params: [], result: 'done' }],
      handler: async () => {
        runs += 1;
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return 'x'.repeat(100);
      },
    });
    const batch = Array.from({ length: 3 * BATCH_CONCURRENCY }, (_, id) => call('test_slow', [], id));
    const limits = { maxBatchLength: 3 * BATCH_CONCURRENCY };
    const answers: Array<{ status: string }> = await dispatcher(slow, limits).handle(batch);
    expect(answers.every((answer) => answer.status === 'success')).toBe(true);
    expect(mostRunning).toBe(BATCH_CONCURRENCY);

    runs = 0;
    const capped: Array<{ error?: { code: number } }> = await dispatcher(slow, { ...limits, maxResponseBytes: 20 * 160 }).handle(batch);
    expect(capped.filter((answer) => answer.error?.code === -32012).length).toBeGreaterThan(2 * BATCH_CONCURRENCY);
    // Only the calls already running when the cap was reached ran past it.
    expect(runs).toBeLessThanOrEqual(BATCH_CONCURRENCY + 20);
  });

  describe('the response size cap', () => {
    const envelope = '{"id":1,"jsonrpc":"2.0","result":"","status":"success"}'.length;

    it('answers a result that would cross it with -32012, and still answers what fits', async () => {
      const capped = dispatcher(undefined, { maxResponseBytes: 2 * envelope + 200 });
      const fits = await capped.handle(call('test_echo', ['x', 100]));
      expect(fits.result).toBe('x'.repeat(100));
      const tooLarge = await capped.handle(call('test_echo', ['x', 300]));
      expect(tooLarge).toMatchObject({ id: 1, error: { code: -32012, message: expect.stringMatching(/response too large/), data: { max_response_bytes: 2 * envelope + 200 } } });
    });

    it('is shared by the calls of a batch: the ones past it are refused, the rest answered', async () => {
      const capped = dispatcher(undefined, { maxResponseBytes: 2 * envelope + 200 });
      const answers: Array<{ status: string; error?: { code: number } }> = await capped.handle([1, 2, 3].map((id) => call('test_echo', ['x', 90], id)));
      expect(answers.filter((answer) => answer.status === 'success')).toHaveLength(2);
      expect(answers.filter((answer) => answer.error?.code === -32012)).toHaveLength(1);
      const text = await capped.raw([1, 2, 3].map((id) => call('test_echo', ['x', 90], id)));
      expect(Buffer.byteLength(text!)).toBeLessThan(2 * envelope + 200 + 300);
    });
  });
});
