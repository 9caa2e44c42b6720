import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { currentCallScope } from '@ledger-node/grpc';
import { RequestScope, requestScope } from './request-scope';

const identity = { caller: 'ip:203.0.113.7', address: '203.0.113.7' };

/**
 * A Koa app behind requestScope that records each request's path, caller and signal; `/slow` works
 * until its signal is aborted.
 */
async function scopedServer() {
  const seen: { path: string; caller?: string; signal: AbortSignal }[] = [];
  const app = new Koa();
  app.use(requestScope(() => identity));
  app.use(async (ctx) => {
    const scope = currentCallScope()!;
    seen.push({ path: ctx.path, caller: scope.caller, signal: scope.signal });
    if (ctx.path === '/slow') await new Promise((resolve) => scope.signal.addEventListener('abort', resolve));
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe("an HTTP request's call scope", () => {
  it('makes its signal on first use, aborted then if the client went away before', () => {
    const early = new RequestScope(identity);
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    early.cancel();
    expect(signal.aborted).toBe(true);

    const late = new RequestScope(identity);
    late.cancel();
    expect(late.signal.aborted).toBe(true);
    expect({ caller: late.caller, address: late.address }).toEqual(identity);
  });

  it('cancels the work of a request whose client goes away, and not that of an answered one', async () => {
    const { server, port, seen } = await scopedServer();
    try {
      await fetch(`http://127.0.0.1:${port}/fast`);
      const gone = httpRequest({ host: '127.0.0.1', port, path: '/slow' });
      gone.on('error', () => {});
      gone.end();
      while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      gone.destroy();
      await new Promise((resolve) => seen[1]!.signal.addEventListener('abort', resolve));
      expect(seen[1]!.signal.aborted).toBe(true);
      expect(seen[0]!.signal.aborted).toBe(false);
      expect(seen[0]!.caller).toBe(identity.caller);
    } finally {
      server.close();
    }
  });

  it('on a keep-alive connection, cancels the requests still at work when it closes, and none it answered before', async () => {
    const { server, port, seen } = await scopedServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path, agent });
      outgoing.on('error', () => {});
      const answered = new Promise<void>((resolve) => outgoing.on('response', (response) => response.resume().on('end', resolve)));
      outgoing.end();
      return answered;
    };
    try {
      await get('/fast-1');
      await get('/fast-2');
      void get('/slow');
      while (seen.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
      agent.destroy();
      await new Promise((resolve) => seen[2]!.signal.addEventListener('abort', resolve));
      expect(seen.map(({ path, signal }) => [path, signal.aborted])).toEqual([
        ['/fast-1', false],
        ['/fast-2', false],
        ['/slow', true],
      ]);
    } finally {
      server.close();
    }
  });
});
