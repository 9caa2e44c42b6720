/**
 * Who a request is for. Signing is shared fairly among callers (the keystore's fair queue, by the
 * call scope's `caller`) and sends are limited per client address (send-limit.ts, by `address`).
 *
 * - The client's address is the TCP peer's, unless the peer is a trusted proxy (-trusted_proxies):
 *   then X-Forwarded-For names it, read from the right, past the trusted proxies it lists.
 * - A caller on this host (a loopback address, as every local process is) is told apart by its
 *   connection: one local batch does not take another local client's share of signing.
 */
import { BlockList, isIP, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';

export interface CallerIdentity {
  /** The fairness name: `ip:<address>`, or `local:<address>:<port>` for a connection from this host. */
  caller: string;
  /** The client's address. */
  address: string;
}

export type CallerOf = (request: IncomingMessage) => CallerIdentity;

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) read as IPv4. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** A BlockList of `-trusted_proxies` entries (addresses or CIDR ranges, checked by the flag). */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

const loopback = addressList(['127.0.0.0/8', '::1']);

const contains = (list: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

/** The client's address: the peer's, or past the trusted proxies X-Forwarded-For lists when the peer is one. */
function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trusted: BlockList): string {
  if (forwardedFor === undefined || !contains(trusted, peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((hop) => plain(hop.trim()));
  let client = peer;
  for (let position = hops.length - 1; position >= 0; position--) {
    const hop = hops[position]!;
    // A hop that is no address ends the chain: the last proxy that wrote a trusted entry answers for it.
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!contains(trusted, hop)) return client;
  }
  return client;
}

/**
 * The identity of each request's caller, with `trustedProxies` (-trusted_proxies) believed for
 * X-Forwarded-For. A request without that header is its connection's caller: worked out on the
 * connection's first request and kept with it (its peer never changes), not on every request.
 */
export function callerIdentities(trustedProxies: readonly string[]): CallerOf {
  const trusted = addressList(trustedProxies);
  const byConnection = new WeakMap<Socket, CallerIdentity>();
  return (request) => {
    const forwardedFor = request.headers['x-forwarded-for'];
    const known = forwardedFor === undefined ? byConnection.get(request.socket) : undefined;
    if (known) return known;
    const peer = plain(request.socket.remoteAddress ?? 'unknown');
    const address = clientAddress(peer, forwardedFor, trusted);
    const local = address === peer && contains(loopback, peer);
    const identity: CallerIdentity = Object.freeze({ caller: local ? `local:${peer}:${request.socket.remotePort ?? 0}` : `ip:${address}`, address });
    if (forwardedFor === undefined) byConnection.set(request.socket, identity);
    return identity;
  };
}
