import { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import type { MethodDefinition, Server, ServiceDefinition } from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatus as SettableStatus } from 'grpc-health-check';

/** grpc.health.v1 serving states (the standard health checking protocol). */
export const ServingStatus = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;
export type ServingStatusName = keyof typeof ServingStatus;

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
} satisfies ServiceDefinition;

/**
 * Serving state per service name ('' is the whole server), served as grpc.health.v1 (Check, Watch,
 * List) by grpc-health-check's HealthImplementation, which also notifies watchers on change.
 */
export class HealthReporter {
  private readonly service = new HealthImplementation({ '': 'SERVING' });
  /** What `service` answers, readable here (its own map is private). */
  private readonly states = new Map<string, SettableStatus>([['', 'SERVING']]);

  set(service: string, state: SettableStatus): void {
    this.states.set(service, state);
    this.service.setStatus(service, state);
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
    this.service.addToServer(server);
  }
}
