import { Client as GrpcClient, Metadata, status, type ClientDuplexStream, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { isLedgerNodeError, type LedgerNodeError } from '@ledger-node/errors';
import { parseGrpcAddress } from './address';
import { CALLER_KEY, currentCallScope, throwIfCancelled } from './call-scope';
import { HealthService, ServingStatus } from './health';
import { grpcLatency, statusName } from './metrics';
import { fromStatus } from './status';
import { channelCredentials } from './tls';
import { clientWindowOptions } from './flow-control';

/** The services whose certificates name them: a client of one checks the server's certificate does. */
const SERVICE_NAMES = new Set(['ledger-store', 'sync', 'keystore', 'submission']);
import type { AnyService, CallOptions, Client, DuplexCall } from './types';

export interface ClientOptions<S extends AnyService> {
  /** Deadline of each call unless the call gives its own. */
  deadlineMs?: number;
  /** Methods safe to repeat: retried on UNAVAILABLE (e.g. while the service restarts), within the deadline. */
  idempotent?: readonly (keyof S)[];
  /** Attempts after the first for idempotent methods, the first 100 ms after the failure, each wait twice the last (default 4). */
  retries?: number;
  /** Sent as `authorization: Bearer <token>`. */
  authToken?: string;
  /** Name used in error messages ("ledger-store unavailable: ..."). */
  serviceLabel?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A call's cancellation and deadline: its own, tightened by those of the caller it is made for
 * (call-scope.ts), so that a caller gone or out of time leaves no work behind on this hop.
 */
function callLimits(call: CallOptions | undefined, defaultDeadlineMs: number): { signal: AbortSignal | undefined; deadline: number } {
  const scope = currentCallScope();
  const own = Date.now() + (call?.deadlineMs ?? defaultDeadlineMs);
  const deadline = scope?.deadline === undefined ? own : Math.min(own, scope.deadline);
  const signals = [call?.signal, scope?.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  return { signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0], deadline };
}

/**
 * A promise-based client over a generated service definition. Every call has a deadline;
 * failures come back as our typed errors (libs/errors), never raw gRPC errors.
 */
export function createGrpcClient<S extends AnyService>(
  definition: S,
  address: string,
  options: ClientOptions<S> = {},
): Client<S> & { close(): void } {
  const parsed = parseGrpcAddress(address);
  const target = parsed.target;
  const secured = channelCredentials(parsed, options.serviceLabel !== undefined && SERVICE_NAMES.has(options.serviceLabel) ? options.serviceLabel : undefined);
  const channel = new GrpcClient(target, secured.credentials, {
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2_000,
    ...clientWindowOptions,
    ...secured.options,
  });
  const defaultDeadlineMs = options.deadlineMs ?? 10_000;
  const idempotent = new Set<PropertyKey>(options.idempotent ?? []);
  const retries = options.retries ?? 4;
  const label = options.serviceLabel ?? target;
  const serviceName = grpcServiceName(definition);

  const metadataFor = (call: CallOptions | undefined): Metadata => {
    const metadata = call?.metadata?.clone() ?? new Metadata();
    const caller = currentCallScope()?.caller;
    if (caller !== undefined && metadata.get(CALLER_KEY).length === 0) metadata.set(CALLER_KEY, caller);
    if (options.authToken) metadata.set('authorization', `Bearer ${options.authToken}`);
    return metadata;
  };
  const failure = (error: ServiceError): LedgerNodeError => {
    const converted = fromStatus(error);
    // A transport failure (no typed error from the service itself) names the service it could not reach.
    const fromService = error.metadata?.get('ln-error-kind').length;
    if (!fromService && (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED)) {
      // The transport's own text names sockets and addresses of this deployment: callers get the service and the reason only.
      converted.message = `${label} unavailable: ${error.code === status.DEADLINE_EXCEEDED ? 'no answer before the deadline' : 'cannot connect'}`;
    }
    return converted;
  };

  const client: Record<PropertyKey, unknown> = {
    close: () => channel.close(),
  };
  for (const [methodName, method] of Object.entries(definition)) {
    if (method.requestStream && method.responseStream) {
      client[methodName] = (call?: CallOptions) => {
        const { signal, deadline } = callLimits(call, Number.POSITIVE_INFINITY);
        return duplexOf(
          channel.makeBidiStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, metadataFor(call), Number.isFinite(deadline) ? { deadline } : {}),
          failure,
          signal,
        );
      };
      continue;
    }
    if (method.responseStream) {
      client[methodName] = (request: unknown, call?: CallOptions) => {
        // A stream lives as long as its reader wants it: only a deadline it or its caller gives bounds it.
        const { signal, deadline } = callLimits(call, Number.POSITIVE_INFINITY);
        return streamOf(
          channel.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, metadataFor(call), Number.isFinite(deadline) ? { deadline } : {}),
          failure,
          signal,
        );
      };
      continue;
    }
    const observe = (startedAt: bigint, code: number) =>
      grpcLatency.client.observe({ grpc_service: serviceName, grpc_method: method.path.split('/')[2] ?? methodName, grpc_code: statusName(code) }, Number(process.hrtime.bigint() - startedAt) / 1e9);
    client[methodName] = async (request: unknown, call?: CallOptions) => {
      const { signal, deadline } = callLimits(call, defaultDeadlineMs);
      const startedAt = process.hrtime.bigint();
      for (let attempt = 0; ; attempt++) {
        try {
          throwIfCancelled(signal);
          const response = await new Promise((resolve, reject) => {
            const cancel = () => pending.cancel();
            const pending = channel.makeUnaryRequest(
              method.path,
              method.requestSerialize,
              method.responseDeserialize,
              request,
              metadataFor(call),
              { deadline },
              (error, response) => {
                signal?.removeEventListener('abort', cancel);
                if (error) reject(error);
                else resolve(response);
              },
            );
            signal?.addEventListener('abort', cancel, { once: true });
          });
          observe(startedAt, status.OK);
          return response;
        } catch (error) {
          if (isLedgerNodeError(error)) throw error;
          const serviceError = error as ServiceError;
          const backoff = 100 * 2 ** attempt;
          const retryable = serviceError.code === status.UNAVAILABLE && idempotent.has(methodName) && attempt < retries;
          if (!retryable || Date.now() + backoff >= deadline) {
            observe(startedAt, serviceError.code ?? status.UNKNOWN);
            throw failure(serviceError);
          }
          await sleep(backoff);
        }
      }
    };
  }
  return client as Client<S> & { close(): void };
}

/**
 * A client of a service that is not there by design (a read-only node has no keystore): every call
 * fails with `refusal()`, a stream as its reader starts it, and nothing is ever dialled.
 */
export function refusingClient<S extends AnyService>(definition: S, refusal: () => LedgerNodeError): Client<S> & { close(): void } {
  // A stream fails before its first answer.
  const refused = async function* (): AsyncIterable<never> {
    throw refusal();
  };
  const client: Record<PropertyKey, unknown> = { close: () => undefined };
  for (const [methodName, method] of Object.entries(definition)) {
    if (method.requestStream && method.responseStream) {
      client[methodName] = (): DuplexCall<unknown, never> => ({ send: () => undefined, end: () => undefined, cancel: () => undefined, responses: refused() });
    } else client[methodName] = method.responseStream ? refused : () => Promise.reject(refusal());
  }
  return client as Client<S> & { close(): void };
}

/** `ledgernode.sync.v1.SyncService` from a method path `/ledgernode.sync.v1.SyncService/GetSyncStatus`. */
function grpcServiceName(definition: AnyService): string {
  const path = Object.values(definition)[0]?.path ?? '';
  return path.split('/')[1] ?? '';
}

async function* streamOf<T>(
  stream: ClientReadableStream<T>,
  failure: (error: ServiceError) => LedgerNodeError,
  signal?: AbortSignal,
): AsyncIterable<T> {
  // A signal that aborted before the stream was read would never fire: the stream would outlive its reader.
  if (signal?.aborted) {
    // Cancelling makes the stream emit its CANCELLED status as an error: nobody reads it any more.
    stream.on('error', () => undefined);
    stream.cancel();
    return;
  }
  signal?.addEventListener('abort', () => stream.cancel(), { once: true });
  try {
    for await (const message of stream) yield message as T;
  } catch (error) {
    const serviceError = error as ServiceError;
    if (serviceError.code === status.CANCELLED && signal?.aborted) return;
    throw failure(serviceError);
  } finally {
    stream.cancel();
  }
}

function duplexOf<Req, Res>(stream: ClientDuplexStream<Req, Res>, failure: (error: ServiceError) => LedgerNodeError, signal?: AbortSignal): DuplexCall<Req, Res> {
  // A request written after the stream failed is an error event of its own: the answers carry the failure.
  stream.on('error', () => undefined);
  return {
    send: (request) => void stream.write(request),
    end: () => void stream.end(),
    cancel: () => stream.cancel(),
    responses: streamOf(stream, failure, signal),
  };
}

/** Asks a server's grpc.health.v1 service for the state of `service` ('' = the server as a whole). */
export async function checkHealth(address: string, service = '', deadlineMs = 2_000, serviceLabel = address): Promise<keyof typeof ServingStatus> {
  // A service's own name as label: over TLS, its certificate must name it.
  const client = createGrpcClient(HealthService, address, { deadlineMs, serviceLabel });
  try {
    const response = await client.check({ service });
    const name = (Object.keys(ServingStatus) as (keyof typeof ServingStatus)[]).find((key) => ServingStatus[key] === response.status);
    return name ?? 'UNKNOWN';
  } finally {
    client.close();
  }
}
