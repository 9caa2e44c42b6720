import { request as httpRequest, type Server } from 'node:http';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { httpGuard, type HttpGuardOptions } from './http-guard';
import { JSON_RPC_PATH } from './jsonrpc/route';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A listener on loopback behind the guard, answering `{ ok: true }` past it. */
async function guarded(options: HttpGuardOptions): Promise<number> {
  const app = new Koa();
  app.use(httpGuard(options));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as { port: number }).port;
}

/** A raw HTTP request (fetch would not let a caller set Host). */
function send(port: number, headers: Record<string, string>, method = 'POST', path = JSON_RPC_PATH): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('the HTTP guard of every listener', () => {
  it('answers IP addresses and the allowed names in Host; refuses any other name (DNS rebinding), in the path\'s error shape', async () => {
    const port = await guarded({ allowedHosts: ['localhost'], corsOrigins: [] });
    for (const host of [`localhost:${port}`, `LOCALHOST:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, '10.1.2.3']) {
      expect([host, (await send(port, { host })).status]).toEqual([host, 200]);
    }
    const rebound = await send(port, { host: `attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32007, message: expect.stringContaining('-rpc_allowed_hosts (localhost)') } });
    const rest = await send(port, { host: 'localhost.attacker.example' }, 'GET', '/v1/status');
    expect([rest.status, JSON.parse(rest.body).error.code]).toEqual([403, 'forbidden']);
    const any = await guarded({ allowedHosts: ['*'], corsOrigins: [] });
    expect((await send(any, { host: 'node.example' })).status).toBe(200);
  });

  it('refuses a page of another origin unless -rpc_cors_origins names it, and then answers it and its preflight with CORS', async () => {
    const port = await guarded({ allowedHosts: ['localhost'], corsOrigins: ['https://wallet.example'] });
    const host = `localhost:${port}`;
    expect((await send(port, { host, origin: `http://${host}` })).status).toBe(200);
    const foreign = await send(port, { host, origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('cross-origin request from \\"https://attacker.example\\" refused');
    expect((await send(port, { host, origin: 'null' })).status).toBe(403);

    const allowed = await send(port, { host, origin: 'https://wallet.example' });
    expect([allowed.status, allowed.headers['access-control-allow-origin']]).toEqual([200, 'https://wallet.example']);
    const preflight = await send(port, { host, origin: 'https://wallet.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const foreignPreflight = await send(port, { host, origin: 'https://attacker.example', 'access-control-request-method': 'POST' }, 'OPTIONS');
    expect(foreignPreflight.status).toBe(403);
    expect(foreignPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
