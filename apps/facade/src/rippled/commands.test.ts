import { describe, expect, it } from 'vitest';
import { NotSynced, OutOfRange, RateLimited } from '@ledger-node/errors';
import { RpcError } from '@ledger-node/rippled-api';
import { createLogger } from '@ledger-node/telemetry';
import { commandRunner } from './commands';
import type { RippledContext, RippledMethod } from './method';

const logger = createLogger('commands-test', 'silent');

/** Methods that answer, or fail the ways a method can. */
const methods: Record<string, RippledMethod> = {
  echo: async (request) => ({ got: request.params, version: request.apiVersion }),
  coded: async () => {
    throw new RpcError('actNotFound', undefined, { account: 'r1' });
  },
  outside: async () => {
    throw new OutOfRange('ledger 9 is not stored (stored: 10-20)');
  },
  behind: async () => {
    throw new NotSynced();
  },
  busy: async () => {
    throw new RateLimited('too many sends from this client: at most 10 a second (-send_rate); try again in 100 ms', { retry_after_ms: 100 });
  },
  broken: async () => {
    throw new Error('a detail no client may read: /srv/secret');
  },
};

const runner = commandRunner({ methods, context: {} as RippledContext, logger });

describe('a rippled command', () => {
  it('answers the result of the method the command names, with the fields and API version', async () => {
    expect(await runner.run('echo', { a: 1 }, 2, 'ws')).toEqual({ result: { got: { a: 1 }, version: 2 } });
  });

  it("answers rippled's error fields for a coded error, with its extra fields", async () => {
    expect(await runner.run('coded', {}, 1, 'ws')).toEqual({ error: { account: 'r1', error: 'actNotFound', error_code: 19, error_message: 'Account not found.' } });
  });

  it("names the node's own errors in rippled's terms, keeping their message", async () => {
    expect(await runner.run('outside', {}, 1, 'http')).toEqual({ error: { error: 'lgrNotFound', error_code: 21, error_message: 'ledger 9 is not stored (stored: 10-20)' } });
    expect(await runner.run('behind', {}, 1, 'http')).toMatchObject({ error: { error: 'notSynced', error_code: 18 } });
    expect(await runner.run('busy', {}, 1, 'http')).toMatchObject({ error: { error: 'slowDown', error_code: 10 } });
  });

  it('answers an unexpected failure as internal with a correlation id, never its details', async () => {
    const answer = await runner.run('broken', {}, 1, 'ws');
    expect(answer).toEqual({ error: { error: 'internal', error_code: 73, error_message: 'Internal error.', correlation_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect(JSON.stringify(answer)).not.toContain('secret');
  });

  it('answers an unknown command, and a name of the prototype, with unknownCmd', async () => {
    for (const command of ['no_such', 'constructor', '__proto__', 'toString']) {
      expect(await runner.run(command, {}, 1, 'ws')).toEqual({ error: { error: 'unknownCmd', error_code: 32, error_message: 'Unknown method.' } });
    }
  });

  it('answers subscribe over HTTP with notSupported, naming the WebSocket', async () => {
    const answer = await runner.run('subscribe', { streams: ['ledger'] }, 1, 'http');
    expect(answer).toMatchObject({ error: { error: 'notSupported', error_code: 75 } });
    expect((answer as { error: { error_message: string } }).error.error_message).toMatch(/WebSocket/);
  });
});
