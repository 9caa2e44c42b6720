import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bindable, freeListenPort, parsePortRange } from './ports';

describe('-port_range', () => {
  it('reads LO-HI', () => {
    expect(parsePortRange('20000-20999')).toEqual({ first: 20000, last: 20999 });
    expect(parsePortRange(' 30000-30000 ')).toEqual({ first: 30000, last: 30000 });
  });

  it.each([
    ['20000', 'is not a port range: write LO-HI'],
    ['20000:20999', 'is not a port range'],
    ['80-90', 'ports must lie within 1024-65535'],
    ['60000-70000', 'ports must lie within 1024-65535'],
    ['21000-20000', 'the first port is above the last'],
  ])('refuses %s: %s', (text, reason) => expect(parsePortRange(text)).toContain(reason));
});

describe('a free port to listen on', () => {
  const held: Server[] = [];
  afterEach(async () => {
    await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const hold = (port: number) =>
    new Promise<void>((resolve) => {
      const server = createServer();
      held.push(server);
      server.listen(port, '127.0.0.1', () => resolve());
    });

  it('lies inside the range, passing ports that are bound or to be avoided', async () => {
    const first = await freeListenPort(undefined);
    const range = { first, last: first + 2 };
    await hold(first);
    const port = await freeListenPort(range, '127.0.0.1', new Set([first + 1]));
    expect(port).toBe(first + 2);
  });

  it('is never a port fetch refuses to connect to ("bad port"), which a range may hold', async () => {
    // 10080 lies in the test workers' 10000-32767 slices; 10079 and 10081 around it are taken.
    await Promise.all([10079, 10081].map(async (port) => (await bindable(port)) && hold(port)));
    await expect(freeListenPort({ first: 10079, last: 10081 })).rejects.toThrow('no free port in 10079-10081');
    await expect(fetch('http://127.0.0.1:10080/')).rejects.toMatchObject({ cause: { message: 'bad port' } });
  });

  it('says so when the range has none left', async () => {
    const first = await freeListenPort(undefined);
    await hold(first);
    await expect(freeListenPort({ first, last: first })).rejects.toThrow(`no free port in ${first}-${first} on 127.0.0.1`);
  });
});
