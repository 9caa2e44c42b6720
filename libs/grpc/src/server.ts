import { chmodSync, existsSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { setMaxListeners, type EventEmitter } from 'node:events';
import { dirname } from 'node:path';
import { connect } from 'node:net';
import {
  Server,
  status,
  type Metadata,
  type sendUnaryData,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type StatusObject,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { secretsEqual } from '@ledger-node/config';
import { Unauthorized } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import { parseGrpcAddress } from './address';
import { CALLER_KEY, withCallScope, type CallScope } from './call-scope';
import { HealthReporter } from './health';
import { grpcLatency, statusName } from './metrics';
import { toStatus } from './status';
import { checkPeerIdentity, serverCredentials } from './tls';
import type { AnyService, CallContext, Handlers } from './types';

export interface ServiceBinding<S extends AnyService = AnyService> {
  /** Full proto name, e.g. `ledgernode.ledgerstore.v1.LedgerStoreService` (the health service key). */
  readonly name: string;
  readonly definition: S;
  readonly handlers: Handlers<S>;
  /** Over TLS, the identities (certificate names) a method admits; undefined: any certificate of the CA. */
  readonly admit?: (method: keyof S & string) => readonly string[] | undefined;
}

export function bindService<S extends AnyService>(
  name: string,
  definition: S,
  handlers: Handlers<S>,
  admit?: (method: keyof S & string) => readonly string[] | undefined,
): ServiceBinding {
  return { name, definition, handlers, admit } as unknown as ServiceBinding;
}

export interface GrpcServerOptions {
  /** `unix:/path.sock` or `host:port` (port 0: any free port). */
  address: string;
  services: ServiceBinding[];
  logger: Logger;
  /** When set, every call must carry `authorization: Bearer <token>` (required on TCP for key services). */
  authToken?: string;
}

export interface GrpcServer {
  /** The address actually bound (with the real port when 0 was asked). */
  readonly address: string;
  readonly health: HealthReporter;
  /**
   * Readiness as grpc.health.v1 reports it, for the server ('') and every bound service:
   * SERVING when ready (the default once listening), NOT_SERVING while a dependency is missing.
   */
  setReady(ready: boolean): void;
  /** Stops accepting calls, lets running calls finish for up to `graceMs`, then cancels them. */
  stop(graceMs?: number): Promise<void>;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const parsed = parseGrpcAddress(options.address);
  const server = new Server({ 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
  const health = new HealthReporter();
  health.addToServer(server);
  for (const binding of options.services) {
    server.addService(binding.definition, implement(binding, options));
    health.set(binding.name, 'SERVING');
  }

  if (parsed.kind === 'unix') {
    mkdirSync(dirname(parsed.path), { recursive: true, mode: 0o700 });
    await removeStaleSocket(parsed.path);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(parsed.target, serverCredentials(parsed), (error, boundPort) =>
      error ? reject(new Error(`cannot listen on ${options.address}: ${error.message}`)) : resolve(boundPort),
    ),
  );
  // Only the owner may talk to a service over its socket.
  if (parsed.kind === 'unix') chmodSync(parsed.path, 0o600);
  const address = parsed.kind === 'unix' ? parsed.target : `${parsed.host}:${port}`;

  return {
    address,
    health,
    setReady: (ready) => {
      for (const service of ['', ...options.services.map((binding) => binding.name)]) health.set(service, ready ? 'SERVING' : 'NOT_SERVING');
    },
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        health.shutdown();
        const timer = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          if (parsed.kind === 'unix' && existsSync(parsed.path) && lstatSync(parsed.path).isSocket()) unlinkSync(parsed.path);
          resolve();
        });
      }),
  };
}

/** A socket file left by a process that died is removed; one that still answers is an error, and so is any other file there (never removed). */
async function removeStaleSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket; it is left alone: give another gRPC address or move it`);
  const alive = await new Promise<boolean>((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (alive) throw new Error(`another process is already serving on unix:${path}`);
  unlinkSync(path);
}

function checkAuth(metadata: Metadata, token: string | undefined): void {
  if (token === undefined) return;
  const given = metadata.get('authorization')[0];
  if (typeof given !== 'string' || !secretsEqual(given, `Bearer ${token}`)) throw new Unauthorized('missing or wrong service token');
}

/**
 * The handler's view of its call, and the scope its own gRPC calls inherit (call-scope.ts): the
 * caller's cancellation and deadline reach every hop behind this one.
 */
type ServerCall = ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown> | ServerDuplexStream<unknown, unknown>;

function contextOf(call: ServerCall): CallContext & CallScope {
  const controller = new AbortController();
  // One signal serves every call the handler makes: as many listeners as it has calls in flight.
  setMaxListeners(0, controller.signal);
  // Either kind of call as the emitter both are: @types/node 26 types a stream's `on` by its event
  // map, and the union of the two has no `on` a call can pick.
  const events: EventEmitter = call;
  events.on('cancelled', () => controller.abort());
  const deadline = call.getDeadline();
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
  const [caller] = call.metadata.get(CALLER_KEY);
  return {
    metadata: call.metadata,
    signal: controller.signal,
    ...(Number.isFinite(deadlineMs) ? { deadline: deadlineMs } : {}),
    ...(typeof caller === 'string' ? { caller: caller.slice(0, 200) } : {}),
  };
}

function implement(binding: ServiceBinding, options: GrpcServerOptions): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  const handlers = binding.handlers as Record<string, (request: unknown, context: CallContext) => unknown>;
  for (const [methodName, method] of Object.entries(binding.definition)) {
    const handler = handlers[methodName];
    if (!handler) throw new Error(`${binding.name}: no handler for ${methodName}`);
    // No failure, not even one in turning an error into a status, may end the process.
    const fail = (error: unknown): Partial<StatusObject> => {
      if (!(error instanceof Error && 'kind' in error)) {
        options.logger.error({ err: error, method: method.path }, 'unexpected error in gRPC handler');
      }
      try {
        return toStatus(error);
      } catch (mappingError) {
        options.logger.error({ err: mappingError, method: method.path }, 'an error could not be turned into a gRPC status');
        return { code: status.INTERNAL, details: 'internal error' };
      }
    };
    const admittedNames = binding.admit?.(methodName);
    const admitted = (call: ServerCall) => {
      const auth = call.getAuthContext();
      checkPeerIdentity(auth.sslPeerCertificate, auth.transportSecurityType === 'ssl', admittedNames, `${binding.name.split('.').at(-1)}.${method.path.split('/')[2] ?? methodName}`);
      checkAuth(call.metadata, options.authToken);
    };
    const observe = (startedAt: bigint, code: number) =>
      grpcLatency.server.observe({ grpc_service: binding.name, grpc_method: method.path.split('/')[2] ?? methodName, grpc_code: statusName(code) }, Number(process.hrtime.bigint() - startedAt) / 1e9);
    if (method.requestStream && !method.responseStream) throw new Error(`${binding.name}: ${methodName} streams requests only, which no service of this node serves`);
    if (method.responseStream) {
      // A server stream's handler gets its one request; a bidirectional stream's, the requests as the call reads them
      // (an iterator that leaves the call open when the handler stops reading: its answers and status still go out).
      const input = method.requestStream
        ? (call: ServerDuplexStream<unknown, unknown>) => call.iterator({ destroyOnReturn: false })
        : (call: ServerWritableStream<unknown, unknown>) => call.request;
      implementation[methodName] = (call: ServerWritableStream<unknown, unknown> | ServerDuplexStream<unknown, unknown>) => {
        const startedAt = process.hrtime.bigint();
        void (async () => {
          try {
            admitted(call);
            const context = contextOf(call);
            await withCallScope(context, async () => {
              const stream = handler(input(call as ServerWritableStream<unknown, unknown> & ServerDuplexStream<unknown, unknown>), context) as AsyncIterable<unknown>;
              for await (const message of stream) {
                if (call.cancelled) break;
                call.write(message);
              }
            });
            call.end();
            observe(startedAt, call.cancelled ? status.CANCELLED : status.OK);
          } catch (error) {
            if (!call.cancelled) {
              const failure = fail(error);
              call.emit('error', { ...failure, code: failure.code ?? status.INTERNAL });
              observe(startedAt, failure.code ?? status.INTERNAL);
            } else observe(startedAt, status.CANCELLED);
          }
        })();
      };
    } else {
      implementation[methodName] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        const startedAt = process.hrtime.bigint();
        Promise.resolve()
          .then(() => {
            admitted(call);
            const context = contextOf(call);
            return withCallScope(context, () => handler(call.request, context) as Promise<unknown>);
          })
          .then(
            (response) => {
              observe(startedAt, status.OK);
              callback(null, response);
            },
            (error: unknown) => {
              const failure = fail(error);
              observe(startedAt, failure.code ?? status.UNKNOWN);
              callback(failure);
            },
          )
          .catch((error: unknown) => options.logger.error({ err: error, method: method.path }, 'a gRPC answer could not be sent'));
      };
    }
  }
  return implementation;
}
