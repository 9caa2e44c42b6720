import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { callerIdentities } from './caller';

/** A request as the listener sees it: the TCP peer, its port and any X-Forwarded-For. */
const request = (remoteAddress: string, forwardedFor?: string, remotePort = 50_000) =>
  ({ socket: { remoteAddress, remotePort }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('who a request is for', () => {
  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    const callerOf = callerIdentities([]);
    expect(callerOf(request('203.0.113.7', '198.51.100.1'))).toEqual({ caller: 'ip:203.0.113.7', address: '203.0.113.7' });
    expect(callerOf(request('::ffff:203.0.113.7'))).toEqual({ caller: 'ip:203.0.113.7', address: '203.0.113.7' });
  });

  it('tells local callers apart by their connection, and limits them by their address', () => {
    const callerOf = callerIdentities([]);
    const first = callerOf(request('127.0.0.1', undefined, 50_001));
    const second = callerOf(request('127.0.0.1', undefined, 50_002));
    expect([first.caller, second.caller]).toEqual(['local:127.0.0.1:50001', 'local:127.0.0.1:50002']);
    expect([first.address, second.address]).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(callerOf(request('::1', undefined, 7)).caller).toBe('local:::1:7');
  });

  it('reads X-Forwarded-For from the right, past the trusted proxies, when the peer is one of them', () => {
    const callerOf = callerIdentities(['10.0.0.0/8', '192.0.2.10']);
    // The ingress controller (10.1.2.3) forwards for the client; a spoofed entry left of it is not believed.
    expect(callerOf(request('10.1.2.3', '1.1.1.1, 198.51.100.9'))).toEqual({ caller: 'ip:198.51.100.9', address: '198.51.100.9' });
    // Two trusted proxies in a row.
    expect(callerOf(request('10.1.2.3', '198.51.100.9, 192.0.2.10')).address).toBe('198.51.100.9');
    expect(callerOf(request('10.1.2.3', '198.51.100.9,10.9.9.9', 1)).address).toBe('198.51.100.9');
    // Two clients behind one controller are two callers.
    expect(callerOf(request('10.1.2.3', '198.51.100.10')).caller).not.toBe(callerOf(request('10.1.2.3', '198.51.100.9')).caller);
    // An entry that is no address ends the chain at the last trusted one.
    expect(callerOf(request('10.1.2.3', 'garbage, 10.4.4.4')).address).toBe('10.4.4.4');
    expect(callerOf(request('10.1.2.3', 'garbage')).address).toBe('10.1.2.3');
    // Only the trusted proxy is believed: the same header from another peer names nobody.
    expect(callerOf(request('203.0.113.7', '198.51.100.9')).address).toBe('203.0.113.7');
  });

  it('believes a local reverse proxy only when it is listed', () => {
    expect(callerIdentities(['127.0.0.1'])(request('127.0.0.1', '198.51.100.9'))).toEqual({ caller: 'ip:198.51.100.9', address: '198.51.100.9' });
    expect(callerIdentities([])(request('127.0.0.1', '198.51.100.9', 9)).caller).toBe('local:127.0.0.1:9');
  });

  it("keeps a connection's caller for its next requests without a proxy header, and works out each forwarded request anew", () => {
    const callerOf = callerIdentities(['10.0.0.0/8']);
    const connection = request('203.0.113.7');
    const first = callerOf(connection);
    expect(callerOf({ socket: connection.socket, headers: {} } as IncomingMessage)).toBe(first);
    expect(callerOf(request('203.0.113.8')).address).toBe('203.0.113.8');
    const proxy = request('10.1.2.3', '198.51.100.9');
    expect(callerOf(proxy).address).toBe('198.51.100.9');
    expect(callerOf({ socket: proxy.socket, headers: { 'x-forwarded-for': '198.51.100.10' } } as unknown as IncomingMessage).address).toBe('198.51.100.10');
    // The proxy's own request, without the header, is the proxy's.
    expect(callerOf({ socket: proxy.socket, headers: {} } as IncomingMessage).address).toBe('10.1.2.3');
  });
});
