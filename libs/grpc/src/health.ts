import { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import { status as GrpcStatus, type MethodDefinition, type Server, type ServerWritableStream, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';

/** grpc.health.v1 serving states (the standard health checking protocol). */
export const ServingStatus = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;
export type ServingStatusName = keyof typeof ServingStatus;
/** The states a service can be set to (SERVICE_UNKNOWN is Watch's answer for a name never set). */
type SettableStatus = Exclude<ServingStatusName, 'SERVICE_UNKNOWN'>;

interface HealthCheckRequest {
  service: string;
}
interface HealthCheckResponse {
  status: number;
}

const encodeRequest = (message: HealthCheckRequest): Buffer => {
  const writer = new BinaryWriter();
  if (message.service) writer.uint32(10).string(message.service);
  return Buffer.from(writer.finish());
};
const decodeRequest = (bytes: Buffer): HealthCheckRequest => {
  const reader = new BinaryReader(bytes);
  const message: HealthCheckRequest = { service: '' };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) message.service = reader.string();
    else reader.skip(wireType);
  }
  return message;
};
const encodeResponse = (message: HealthCheckResponse): Buffer => {
  const writer = new BinaryWriter();
  if (message.status) writer.uint32(8).int32(message.status);
  return Buffer.from(writer.finish());
};
const decodeResponse = (bytes: Buffer): HealthCheckResponse => {
  const reader = new BinaryReader(bytes);
  const message: HealthCheckResponse = { status: 0 };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) message.status = reader.int32();
    else reader.skip(wireType);
  }
  return message;
};

/** HealthListResponse: `map<string, HealthCheckResponse> statuses = 1`, each entry a message of key (1) and value (2). */
const encodeListResponse = (statuses: ReadonlyMap<string, number>): Buffer => {
  const writer = new BinaryWriter();
  for (const [service, status] of statuses) {
    writer.uint32(10).fork();
    writer.uint32(10).string(service);
    writer.uint32(18).bytes(encodeResponse({ status }));
    writer.join();
  }
  return Buffer.from(writer.finish());
};
const decodeListResponse = (bytes: Buffer): Map<string, number> => {
  const reader = new BinaryReader(bytes);
  const statuses = new Map<string, number>();
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field !== 1) {
      reader.skip(wireType);
      continue;
    }
    const entry = new BinaryReader(reader.bytes());
    let service = '';
    let status = 0;
    while (entry.pos < entry.len) {
      const [entryField, entryWireType] = entry.tag();
      if (entryField === 1) service = entry.string();
      else if (entryField === 2) status = decodeResponse(Buffer.from(entry.bytes())).status;
      else entry.skip(entryWireType);
    }
    statuses.set(service, status);
  }
  return statuses;
};

const method = (name: string, responseStream: boolean): MethodDefinition<HealthCheckRequest, HealthCheckResponse> => ({
  path: `/grpc.health.v1.Health/${name}`,
  requestStream: false,
  responseStream,
  requestSerialize: encodeRequest,
  requestDeserialize: decodeRequest,
  responseSerialize: encodeResponse,
  responseDeserialize: decodeResponse,
});

/** grpc.health.v1 for clients (checkHealth, the readiness of dependencies). */
export const HealthService = {
  check: method('Check', false),
  watch: method('Watch', true),
  list: {
    path: '/grpc.health.v1.Health/List',
    requestStream: false,
    responseStream: false,
    // HealthListRequest has no fields.
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: () => ({}),
    responseSerialize: encodeListResponse,
    responseDeserialize: decodeListResponse,
  } satisfies MethodDefinition<object, Map<string, number>>,
} satisfies ServiceDefinition;

/** The most services List names (the protocol's answer beyond it is RESOURCE_EXHAUSTED). */
const LIST_LIMIT = 100;

/**
 * Serving state per service name ('' is the whole server), served as grpc.health.v1: Check, Watch
 * (the state now, then each change) and List. The protocol's three messages are encoded above by
 * hand, as for the client: grpc-health-check, which serves the same, compiles its .proto with
 * protobufjs when it is imported, some 45 modules in every service's start.
 */
export class HealthReporter {
  private readonly states = new Map<string, SettableStatus>([['', 'SERVING']]);
  private readonly watchers = new Map<string, Set<(status: number) => void>>();

  set(service: string, state: SettableStatus): void {
    this.states.set(service, state);
    for (const watcher of this.watchers.get(service) ?? []) watcher(ServingStatus[state]);
  }

  /** Marks every known service (and the server) NOT_SERVING, e.g. while shutting down. */
  shutdown(): void {
    for (const service of this.states.keys()) this.set(service, 'NOT_SERVING');
  }

  get(service: string): number | undefined {
    const state = this.states.get(service);
    return state === undefined ? undefined : ServingStatus[state];
  }

  /** Serves grpc.health.v1 on `server`. */
  addToServer(server: Server): void {
    const implementation = {
      check: (call: { request: HealthCheckRequest }, callback: (error: { code: number; details: string } | null, response?: HealthCheckResponse) => void) => {
        const status = this.get(call.request.service);
        if (status === undefined) callback({ code: GrpcStatus.NOT_FOUND, details: `Health status unknown for service ${call.request.service}` });
        else callback(null, { status });
      },
      watch: (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
        const { service } = call.request;
        const watcher = (status: number) => call.write({ status });
        let watchers = this.watchers.get(service);
        if (watchers === undefined) this.watchers.set(service, (watchers = new Set()));
        watchers.add(watcher);
        call.on('cancelled', () => {
          watchers.delete(watcher);
          if (watchers.size === 0 && this.watchers.get(service) === watchers) this.watchers.delete(service);
        });
        watcher(this.get(service) ?? ServingStatus.SERVICE_UNKNOWN);
      },
      list: (_call: unknown, callback: (error: { code: number; details: string } | null, response?: Map<string, number>) => void) => {
        if (this.states.size > LIST_LIMIT) callback({ code: GrpcStatus.RESOURCE_EXHAUSTED, details: 'Too many services to list.' });
        else callback(null, new Map([...this.states].map(([service, state]) => [service, ServingStatus[state]])));
      },
    };
    server.addService(HealthService, implementation as unknown as UntypedServiceImplementation);
  }
}
