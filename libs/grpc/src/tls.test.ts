import { readFileSync } from 'node:fs';
import { credentials, Client as RawClient } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { GetSyncStatusResponse, SyncServiceService } from '@ledger-node/contracts';
import { createLogger } from '@ledger-node/telemetry';
import { freePort, rejectionOf, serviceCertificate, tempDir, testAuthority, type CertificateFiles } from '@ledger-node/test-utils';
import { parseGrpcAddress } from './address';
import { checkHealth, createGrpcClient } from './client';
import { HealthService } from './health';
import { bindService, startGrpcServer } from './server';
import { certificateNames, channelCredentials, useTlsIdentity } from './tls';

const logger = createLogger('test', 'silent');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  useTlsIdentity(undefined);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const status = GetSyncStatusResponse.fromPartial({ currentLedgerIndex: 20 });
const identity = (files: CertificateFiles) => ({ cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) });

describe('gRPC over TCP', () => {
  it('refuses to listen or connect without mutual TLS', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const listening = await rejectionOf<Error>(startGrpcServer({ address, logger, services: [] }));
    expect(listening.message).toBe(`refusing to listen on ${address}: gRPC over TCP needs mutual TLS: give -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca (or use unix: addresses)`);
    expect(() => createGrpcClient(SyncServiceService, address)).toThrow(/refusing to connect to 127\.0\.0\.1:\d+: gRPC over TCP needs mutual TLS/);
  });

  it('admits the certificates of its CA that name an admitted service; refuses no certificate, another CA and another service', async () => {
    const { dir, remove } = tempDir('tls-');
    cleanups.push(remove);
    const ca = testAuthority('deployment-ca');
    const foreign = testAuthority('foreign-ca');
    const files = {
      server: serviceCertificate(ca, 'sync', dir),
      facade: serviceCertificate(ca, 'facade', dir),
      submission: serviceCertificate(ca, 'submission', dir),
      foreignFacade: serviceCertificate(foreign, 'facade', dir),
    };
    useTlsIdentity(identity(files.server));
    const server = await startGrpcServer({
      address: `127.0.0.1:${await freePort()}`,
      logger,
      services: [bindService('ledgernode.sync.v1.SyncService', SyncServiceService, { getSyncStatus: async () => status, getManifest: async () => ({}), getStateProof: async () => ({ ledgerIndex: 0, headerBlob: Buffer.alloc(0), entries: [] }) }, () => ['facade'])],
    });
    cleanups.push(() => server.stop(100));
    const clientAs = (files: CertificateFiles) => {
      useTlsIdentity(identity(files));
      const client = createGrpcClient(SyncServiceService, server.address, { serviceLabel: 'sync', deadlineMs: 3_000 });
      cleanups.push(() => client.close());
      return client;
    };

    await expect(clientAs(files.facade).getSyncStatus({})).resolves.toMatchObject({ currentLedgerIndex: 20 });
    const otherService = await rejectionOf<Error & { kind: string }>(clientAs(files.submission).getSyncStatus({}));
    expect([otherService.kind, otherService.message]).toEqual(['unauthorized', 'SyncService.GetSyncStatus admits facade only; the caller\'s certificate names submission']);
    const otherCa = await rejectionOf<Error & { kind: string }>(clientAs(files.foreignFacade).getSyncStatus({}));
    expect(otherCa.kind).toBe('unavailable');

    // No client certificate at all: the handshake itself fails.
    const anonymous = new RawClient(server.address, credentials.createSsl(readFileSync(files.server.ca)), { 'grpc.ssl_target_name_override': 'sync' });
    cleanups.push(() => anonymous.close());
    const check = HealthService.check;
    const code = await new Promise<number | undefined>((resolve) =>
      anonymous.makeUnaryRequest(check.path, check.requestSerialize, check.responseDeserialize, { service: '' }, { deadline: Date.now() + 3_000 }, (error) => resolve(error?.code)),
    );
    expect(code).toBe(14); // UNAVAILABLE
  });

  it('checks the health of a server by its IP address, naming no service: no IP address goes out as the TLS server name', async () => {
    const { dir, remove } = tempDir('tls-');
    cleanups.push(remove);
    const ca = testAuthority('deployment-ca');
    useTlsIdentity(identity(serviceCertificate(ca, 'ledger-store', dir)));
    const server = await startGrpcServer({ address: `127.0.0.1:${await freePort()}`, logger, services: [] });
    cleanups.push(() => server.stop(100));
    useTlsIdentity(identity(serviceCertificate(ca, 'facade', dir)));
    // Node.js 26 refuses to start a handshake that would send an IP address as the server name (RFC 6066).
    expect(await checkHealth(server.address, '', 3_000)).toBe('SERVING');
    for (const address of ['127.0.0.1:50051', '[::1]:50051']) {
      const serverName = channelCredentials(parseGrpcAddress(address), undefined).options['grpc.ssl_target_name_override'];
      expect([address, serverName]).toEqual([address, expect.stringMatching(/^[a-z][a-z-]*$/)]);
    }
    // A host name goes out as itself, and a named service as that name.
    expect(channelCredentials(parseGrpcAddress('ledger-store.ledger-node.svc:50051'), undefined).options).toEqual({});
    expect(channelCredentials(parseGrpcAddress('127.0.0.1:50051'), 'sync').options).toMatchObject({ 'grpc.ssl_target_name_override': 'sync' });
  });

  it('reads a certificate\'s names from its CN and DNS names', () => {
    expect(certificateNames({ subject: { CN: 'keystore' }, subjectaltname: 'DNS:keystore, DNS:keystore.ledger-node.svc, URI:spiffe://x' } as never)).toEqual(['keystore', 'keystore.ledger-node.svc']);
    expect(certificateNames(undefined)).toEqual([]);
  });
});
