import { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import { status, type MethodDefinition, type ServerWritableStream, type ServiceDefinition } from '@grpc/grpc-js';

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

export const HealthService = {
  check: method('Check', false),
  watch: method('Watch', true),
} satisfies ServiceDefinition;

/** Serving state per service name ('' is the whole server), with watchers notified on change. */
export class HealthReporter {
  private readonly states = new Map<string, number>([['', ServingStatus.SERVING]]);
  private readonly watchers = new Set<{ service: string; stream: ServerWritableStream<HealthCheckRequest, HealthCheckResponse> }>();

  set(service: string, state: ServingStatusName): void {
    this.states.set(service, ServingStatus[state]);
    for (const watcher of this.watchers) {
      if (watcher.service === service) watcher.stream.write({ status: ServingStatus[state] });
    }
  }

  /** Marks every known service (and the server) NOT_SERVING, e.g. while shutting down. */
  shutdown(): void {
    for (const service of this.states.keys()) this.set(service, 'NOT_SERVING');
  }

  get(service: string): number | undefined {
    return this.states.get(service);
  }

  implementation() {
    return {
      check: (
        call: { request: HealthCheckRequest },
        callback: (error: { code: status; details: string } | null, response?: HealthCheckResponse) => void,
      ) => {
        const state = this.states.get(call.request.service);
        if (state === undefined) callback({ code: status.NOT_FOUND, details: `unknown service ${call.request.service}` });
        else callback(null, { status: state });
      },
      watch: (stream: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
        const watcher = { service: stream.request.service, stream };
        this.watchers.add(watcher);
        stream.write({ status: this.states.get(watcher.service) ?? ServingStatus.SERVICE_UNKNOWN });
        stream.on('cancelled', () => this.watchers.delete(watcher));
        stream.on('close', () => this.watchers.delete(watcher));
      },
    };
  }
}
