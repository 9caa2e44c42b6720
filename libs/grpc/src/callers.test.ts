/**
 * The call graph enforced: every method of every service, over mutual TLS, called with the
 * certificate of every identity. A method answers its admitted callers (here: the stub's own error,
 * past admission) and refuses every other identity, naming who it admits.
 */
import { readFileSync } from 'node:fs';
import { credentials, Client as RawClient, type ServiceError } from '@grpc/grpc-js';
import { afterAll, describe, expect, it } from 'vitest';
import { NotFound } from '@ledger-node/errors';
import { createLogger } from '@ledger-node/telemetry';
import { freePort, serviceCertificate, tempDir, testAuthority, type CertificateFiles } from '@ledger-node/test-utils';
import { CALL_GRAPH, SERVICE_IDENTITIES, admittedBy, callGraphLines } from './callers';
import { bindService, startGrpcServer } from './server';
import { useTlsIdentity } from './tls';

const logger = createLogger('test', 'silent');
const { dir, remove } = tempDir('callers-');
const ca = testAuthority('deployment-ca');
const certificates = new Map(SERVICE_IDENTITIES.map((identity) => [identity, serviceCertificate(ca, identity, dir)]));
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  useTlsIdentity(undefined);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  remove();
});

const identity = (files: CertificateFiles) => ({ cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) });
const REACHED = 'the handler was reached';

interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize(value: unknown): Buffer;
  requestDeserialize(bytes: Buffer): unknown;
  responseDeserialize(bytes: Buffer): unknown;
}

/** Calls one method with an empty request; resolves with the error the call ended with. */
function call(client: RawClient, method: MethodDefinition, request: unknown): Promise<ServiceError> {
  const deadline = Date.now() + 5_000;
  return new Promise((resolve, reject) => {
    if (method.responseStream) {
      const stream = client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, { deadline });
      stream.on('data', () => reject(new Error(`${method.path} answered`)));
      stream.on('error', resolve);
      return;
    }
    client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, request, { deadline }, (error) => (error ? resolve(error) : reject(new Error(`${method.path} answered`))));
  });
}

describe('every gRPC method admits exactly its callers over mutual TLS', () => {
  for (const { service, name, definition, callers } of CALL_GRAPH) {
    it(`${service}: each method with each identity's certificate`, async () => {
      useTlsIdentity(identity(certificates.get(service)!));
      const refuse = async () => {
        throw new NotFound(REACHED);
      };
      // Every handler fails past admission: a call that reaches it was admitted.
      const handlers = Object.fromEntries(
        Object.entries(definition).map(([method, spec]) => [
          method,
          (spec as MethodDefinition).responseStream
            ? async function* () {
                yield* [];
                await refuse();
              }
            : refuse,
        ]),
      );
      const server = await startGrpcServer({ address: `127.0.0.1:${await freePort()}`, logger, services: [bindService(name, definition, handlers as never, admittedBy(callers as never))] });
      cleanups.push(() => server.stop(100));
      const shortName = name.split('.').at(-1)!;
      for (const caller of SERVICE_IDENTITIES) {
        const files = certificates.get(caller)!;
        const client = new RawClient(server.address, credentials.createSsl(readFileSync(files.ca), readFileSync(files.key), readFileSync(files.cert)), { 'grpc.ssl_target_name_override': service });
        try {
          for (const [method, spec] of Object.entries(definition) as [string, MethodDefinition][]) {
            // The request every field of which is at its default: what an empty message decodes to.
            const error = await call(client, spec, spec.requestDeserialize(Buffer.alloc(0)));
            const admitted = (callers as Record<string, readonly string[]>)[method]!;
            const rpc = spec.path.split('/')[2]!;
            if (admitted.includes(caller)) {
              expect([rpc, caller, error.details]).toEqual([rpc, caller, expect.stringContaining(REACHED)]);
            } else {
              expect([rpc, caller, error.code, error.details]).toEqual([rpc, caller, 16, expect.stringContaining(`${shortName}.${rpc} admits`)]);
            }
          }
        } finally {
          client.close();
        }
      }
    });
  }

  it('names every method of every service (no method falls back to "any certificate")', () => {
    for (const { definition, callers } of CALL_GRAPH) expect(Object.keys(callers).sort()).toEqual(Object.keys(definition).sort());
    // docs/operating.md ("Security model") shows the same table.
    const operating = readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8');
    for (const line of callGraphLines()) expect(operating).toContain(line);
  });
});
