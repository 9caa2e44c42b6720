import { UpstreamClient, plainEndpoints } from '@ledger-node/upstream';
import { MockUpstream, type MockRequest } from '@ledger-node/upstream/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Forwarder, type ForwarderLimits } from './forwarder';

describe('Forwarder', () => {
  let upstream: MockUpstream;
  let client: UpstreamClient;
  const received: MockRequest[] = [];
  const forwarderWith = (limits: Partial<ForwarderLimits> = {}) =>
    new Forwarder({ request: (command, params, options) => client.request(command, params, options) }, { timeoutMs: 2_000, maxAnswerBytes: 4096, maxInFlight: 4, ...limits });

  beforeEach(async () => {
    received.length = 0;
    upstream = await MockUpstream.start();
    client = new UpstreamClient({ endpoints: plainEndpoints(upstream.url), requestTimeoutMs: 2_000 });
    upstream.reply('ripple_path_find', (request) => {
      received.push(request);
      return { result: { alternatives: [], destination_account: request.destination_account as string, full_reply: true } };
    });
  });
  afterEach(async () => {
    client.close();
    await upstream.close();
  });

  it('sends an allowed command with its params and api_version, and hands back the result', async () => {
    const params = { source_account: 'rA', destination_account: 'rB', destination_amount: '1000', id: 7, command: 'ledger' };
    const answer = await forwarderWith().forward('ripple_path_find', JSON.stringify(params), 2);
    expect(answer).toEqual({ error: false, answer: { alternatives: [], destination_account: 'rB', full_reply: true } });
    expect(received).toHaveLength(1);
    // The envelope is the forwarder's own: the caller's id and command never reach the upstream.
    expect(received[0]).toMatchObject({ command: 'ripple_path_find', source_account: 'rA', destination_amount: '1000', api_version: 2 });
    expect(received[0]!.id).not.toBe(7);
  });

  it('closes the path request a forwarded path_find create opened, so that the upstream sends no updates', async () => {
    const pathFinds: MockRequest[] = [];
    upstream.reply('path_find', (request) => {
      pathFinds.push(request);
      return { result: { alternatives: [], full_reply: false } };
    });
    expect((await forwarderWith().forward('path_find', JSON.stringify({ subcommand: 'create', destination_amount: '1' }), 1)).answer).toEqual({ alternatives: [], full_reply: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pathFinds.map((request) => request.subcommand)).toEqual(['create', 'close']);
  });

  it('refuses a command outside the allow-list without sending it', async () => {
    for (const command of ['submit', 'sign', 'wallet_propose', 'ledger_accept', 'validation_create', '']) {
      await expect(forwarderWith().forward(command, '{}', 1)).rejects.toMatchObject({ kind: 'invalid_params' });
    }
    expect(received).toHaveLength(0);
  });

  it('refuses params that carry a key, anywhere in them, naming the field and never its value', async () => {
    for (const [field, params] of [
      ['secret', { secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb', tx_json: {} }],
      ['seed', { seed: 'sEdV19BLfeQeKdEXyYA4NhjPJe6XBfG' }],
      ['seed_hex', { seed_hex: '00' }],
      ['passphrase', { passphrase: 'masterpassphrase' }],
      ['tx_json.secret', { tx_json: { secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' } }],
    ] as const) {
      const refusal = await forwarderWith()
        .forward('simulate', JSON.stringify(params), 2)
        .then(
          () => undefined,
          (error: Error & { kind?: string }) => error,
        );
      expect(refusal?.kind).toBe('invalid_params');
      expect(refusal?.message).toContain(`'${field}'`);
      expect(refusal?.message).not.toMatch(/snoPB|sEdV19|masterpassphrase/);
    }
  });

  it('refuses params that are not a JSON object, and an api_version rippled does not know', async () => {
    for (const text of ['', '[]', 'null', '"x"', '{']) await expect(forwarderWith().forward('simulate', text, 2)).rejects.toMatchObject({ kind: 'invalid_params' });
    await expect(forwarderWith().forward('simulate', '{}', 3)).rejects.toMatchObject({ kind: 'invalid_params' });
  });

  it("hands back the upstream's error answer as rippled's error fields, without the echoed request", async () => {
    upstream.reply('simulate', { error: 'invalidTransaction', errorMessage: 'Transaction is malformed.' });
    const answer = await forwarderWith().forward('simulate', JSON.stringify({ tx_blob: '00' }), 2);
    expect(answer.error).toBe(true);
    expect(answer.answer).toMatchObject({ error: 'invalidTransaction', error_message: 'Transaction is malformed.', status: 'error' });
    expect(answer.answer).not.toHaveProperty('request');
    expect(answer.answer).not.toHaveProperty('id');
  });

  it('answers upstream_unavailable (noNetwork) when the upstream does not answer within the deadline', async () => {
    upstream.reply('path_find', { silence: true });
    const started = Date.now();
    await expect(forwarderWith({ timeoutMs: 300 }).forward('path_find', JSON.stringify({ subcommand: 'create' }), 1)).rejects.toMatchObject({ kind: 'upstream_unavailable' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('answers upstream_unavailable when no upstream is reachable', async () => {
    await upstream.close();
    const unreachable = new UpstreamClient({ endpoints: plainEndpoints(upstream.url), requestTimeoutMs: 500 });
    const forwarder = new Forwarder({ request: (command, params, options) => unreachable.request(command, params, options) });
    await expect(forwarder.forward('ripple_path_find', '{}', 1)).rejects.toMatchObject({ kind: 'upstream_unavailable' });
    unreachable.close();
  });

  it('refuses an answer larger than the cap, and says why to its listener', async () => {
    upstream.reply('ripple_path_find', { result: { alternatives: [{ padding: 'x'.repeat(8192) }] } });
    const heard: string[] = [];
    const forwarder = new Forwarder({ request: (command, params, options) => client.request(command, params, options) }, { timeoutMs: 2_000, maxAnswerBytes: 4096, maxInFlight: 4 }, (command, reason) => heard.push(`${command}: ${reason}`));
    await expect(forwarder.forward('ripple_path_find', '{}', 1)).rejects.toMatchObject({ kind: 'upstream_unavailable' });
    expect(heard).toEqual(["ripple_path_find: the upstream's ripple_path_find answer is larger than 4096 bytes"]);
  });

  it('answers upstream_unavailable for an answer that is not a rippled answer', async () => {
    upstream.reply('simulate', { raw: JSON.stringify({ id: 1, status: 'success' }) });
    await expect(forwarderWith({ timeoutMs: 500 }).forward('simulate', '{}', 2)).rejects.toMatchObject({ kind: 'upstream_unavailable' });
  });

  it('refuses a forward beyond the limit in flight at once (tooBusy), and takes one again once a slot frees', async () => {
    upstream.reply('simulate', { silence: true });
    const forwarder = forwarderWith({ maxInFlight: 2, timeoutMs: 400 });
    const waiting = [forwarder.forward('simulate', '{}', 2), forwarder.forward('simulate', '{}', 2)];
    await expect(forwarder.forward('simulate', '{}', 2)).rejects.toMatchObject({ kind: 'rate_limited' });
    await Promise.allSettled(waiting);
    const answer = await forwarder.forward('ripple_path_find', '{"destination_account":"rB"}', 1);
    expect(answer.error).toBe(false);
  });
});
