/**
 * Mutual TLS for gRPC over TCP (docs/operating.md "Security model"). A unix socket stays plain: the kernel
 * admits only its owner (0600). Over TCP every server asks each client for a certificate signed by
 * the deployment's CA, and every client checks the server's certificate names the service it
 * called; a process's one identity (its certificate, key and CA) is set once at start, from
 * `-grpc_tls_cert`, `-grpc_tls_key` and `-grpc_tls_ca`. Without it, nothing listens on or
 * connects to TCP.
 *
 * A certificate's identity is its subject CN and DNS names: a service's certificate names the
 * service (`ledger-store`, `sync`, `keystore`, `submission`, `facade`), so a server can admit
 * only the services that should call it (the keystore: submission and facade).
 */
import { isIP } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { ChannelCredentials, credentials, ServerCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { InvalidParams, Unauthorized } from '@ledger-node/errors';
import type { GrpcAddress } from './address';

export interface TlsIdentity {
  /** PEM certificate of this process's service. */
  cert: Buffer;
  /** Its PEM private key. */
  key: Buffer;
  /** PEM certificate(s) of the CA that signs every service's certificate. */
  ca: Buffer;
}

let identity: TlsIdentity | undefined;

/** Sets this process's TLS identity for every gRPC server and client it makes over TCP. */
export function useTlsIdentity(value: TlsIdentity | undefined): void {
  identity = value;
}

/** The TLS server name of a client that names no service, where its address is an IP address. */
const UNNAMED_SERVER_NAME = 'ledger-node';

const NEEDS_TLS = 'gRPC over TCP needs mutual TLS: give -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca (or use unix: addresses)';

export function serverCredentials(address: GrpcAddress): ServerCredentials {
  if (address.kind === 'unix') return ServerCredentials.createInsecure();
  if (!identity) throw new InvalidParams(`refusing to listen on ${address.target}: ${NEEDS_TLS}`);
  // true: a client without a certificate of the CA is refused during the handshake.
  return ServerCredentials.createSsl(identity.ca, [{ cert_chain: identity.cert, private_key: identity.key }], true);
}

/**
 * Credentials and channel options for a client of `service` at `address`: over TCP, the server's
 * certificate must be of the CA and name `service` (whatever host or IP the address uses); with
 * no service named, any certificate of the CA.
 */
export function channelCredentials(address: GrpcAddress, service: string | undefined): { credentials: ChannelCredentials; options: ChannelOptions } {
  if (address.kind === 'unix') return { credentials: credentials.createInsecure(), options: {} };
  if (!identity) throw new InvalidParams(`refusing to connect to ${address.target}: ${NEEDS_TLS}`);
  if (service === undefined) {
    // A caller that names no service (a health check by address) trusts any certificate of the CA.
    const unnamed = credentials.createSsl(identity.ca, identity.key, identity.cert, { checkServerIdentity: () => undefined });
    // grpc-js sends the address's host as the TLS server name (SNI), which may hold a host name
    // only (RFC 6066 §3): Node.js 26 refuses an IP address there (ERR_INVALID_ARG_VALUE, the
    // handshake never starts; up to 24 a DEP0123 warning). Our servers hold one certificate and
    // read no SNI, and this caller checks no name: a fixed one stands in.
    return { credentials: unnamed, options: isIP(address.host) === 0 ? {} : { 'grpc.ssl_target_name_override': UNNAMED_SERVER_NAME } };
  }
  const options: ChannelOptions = { 'grpc.ssl_target_name_override': service, 'grpc.default_authority': service };
  return { credentials: credentials.createSsl(identity.ca, identity.key, identity.cert), options };
}

/** The names a peer certificate stands for: its subject CN and its DNS names. */
export function certificateNames(certificate: PeerCertificate | undefined): string[] {
  if (!certificate) return [];
  const names = new Set<string>();
  const commonName = certificate.subject?.CN;
  for (const name of Array.isArray(commonName) ? commonName : [commonName]) if (name) names.add(name);
  for (const entry of (certificate.subjectaltname ?? '').split(',')) {
    const match = /^\s*DNS:(.+)$/.exec(entry);
    if (match) names.add(match[1]!.trim());
  }
  return [...names];
}

/**
 * Refuses a TLS caller whose certificate names none of `admitted` (undefined: any certificate of
 * the CA, which the handshake already checked). Calls over a unix socket are not asked.
 */
export function checkPeerIdentity(certificate: PeerCertificate | undefined, overTls: boolean, admitted: readonly string[] | undefined, method: string): void {
  if (!overTls || admitted === undefined) return;
  const names = certificateNames(certificate);
  if (names.some((name) => admitted.includes(name))) return;
  throw new Unauthorized(`${method} admits ${admitted.join(' and ')} only; the caller's certificate names ${names.join(', ') || 'nothing'}`);
}
