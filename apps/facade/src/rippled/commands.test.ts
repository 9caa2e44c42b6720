import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotSynced, OutOfRange, RateLimited } from '@ledger-node/errors';
import { BareRpcError, RpcError } from '@ledger-node/rippled-api';
import { createLogger, metricsText } from '@ledger-node/telemetry';
import { commandRunner, OUTCOME_TOKENS, outcomeLabel } from './commands';
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
  /** As a forwarded command passes on its upstream's error, whatever token it names. */
  relayed: async (request) => {
    throw new BareRpcError(String(request.params.token));
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

describe('rippled command metrics', () => {
  /** ledger_node_rippled_requests_total's sample for a label set, 0 when it has none. */
  async function requests(labels: { command: string; outcome: string; transport: string }): Promise<number> {
    const body = (await metricsText()).body;
    for (const line of body.split('\n')) {
      const match = /^ledger_node_rippled_requests_total\{(.*)\} (\S+)$/.exec(line);
      if (!match) continue;
      const found = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
      if (found.command === labels.command && found.outcome === labels.outcome && found.transport === labels.transport) return Number(match[2]);
    }
    return 0;
  }

  it('counts each command by command, outcome and transport, and an unknown command as unknown, whatever its name', async () => {
    const before = {
      echo: await requests({ command: 'echo', outcome: 'success', transport: 'ws' }),
      coded: await requests({ command: 'coded', outcome: 'actNotFound', transport: 'http' }),
      unknown: await requests({ command: 'unknown', outcome: 'unknownCmd', transport: 'ws' }),
    };
    await runner.run('echo', {}, 1, 'ws');
    await runner.run('coded', {}, 1, 'http');
    for (let i = 0; i < 3; i++) await runner.run(`made_up_${i}`, {}, 1, 'ws');
    expect(await requests({ command: 'echo', outcome: 'success', transport: 'ws' })).toBe(before.echo + 1);
    expect(await requests({ command: 'coded', outcome: 'actNotFound', transport: 'http' })).toBe(before.coded + 1);
    expect(await requests({ command: 'unknown', outcome: 'unknownCmd', transport: 'ws' })).toBe(before.unknown + 3);
    expect((await metricsText()).body).not.toContain('made_up_');
  });

  it("bounds the outcome label: an error token the node does not know (an upstream's, relayed) is counted as other", async () => {
    const before = await requests({ command: 'relayed', outcome: 'other', transport: 'http' });
    for (let i = 0; i < 3; i++) expect(await runner.run('relayed', { token: `upstreamSays${i}` }, 1, 'http')).toMatchObject({ error: { error: `upstreamSays${i}` } });
    await runner.run('relayed', { token: 'actNotFound' }, 1, 'http');
    expect(await requests({ command: 'relayed', outcome: 'other', transport: 'http' })).toBe(before + 3);
    expect(await requests({ command: 'relayed', outcome: 'actNotFound', transport: 'http' })).toBeGreaterThanOrEqual(1);
    expect((await metricsText()).body).not.toContain('upstreamSays');
    expect(outcomeLabel(undefined)).toBe('other');
  });

  it('counts a request refused before any command ran as malformed', async () => {
    const before = await requests({ command: 'malformed', outcome: 'jsonInvalid', transport: 'ws' });
    runner.refused('jsonInvalid', 'ws');
    runner.refused('something else', 'ws');
    expect(await requests({ command: 'malformed', outcome: 'jsonInvalid', transport: 'ws' })).toBe(before + 1);
    expect(await requests({ command: 'malformed', outcome: 'other', transport: 'ws' })).toBeGreaterThanOrEqual(1);
  });

  it("knows every bare error token the rippled methods answer with, so that none is counted as other", () => {
    const methodsDir = path.join(import.meta.dirname, 'methods');
    const tokens = readdirSync(methodsDir)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .flatMap((file) => [...readFileSync(path.join(methodsDir, file), 'utf8').matchAll(/new BareRpcError\('([A-Za-z_]+)'/g)].map((match) => match[1]!));
    expect(tokens.length).toBeGreaterThan(3);
    for (const token of tokens) expect(OUTCOME_TOKENS, token).toContain(token);
  });
});
