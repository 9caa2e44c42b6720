import { status } from '@grpc/grpc-js';
import { histogram } from '@ledger-node/telemetry';

const labels = ['grpc_service', 'grpc_method', 'grpc_code'] as const;

/**
 * gRPC latency per service, method and status code, on both sides of a call (the names and
 * labels of go-grpc-prometheus, which dashboards already know). A server stream counts from its
 * start to its end.
 */
export const grpcLatency = {
  server: histogram('grpc_server_handling_seconds', 'Time from the start of a gRPC call to its status, as the serving process saw it', labels),
  client: histogram('grpc_client_handling_seconds', 'Time from the start of a gRPC call to its status, as the calling process saw it (retries included)', labels),
};

/** `OK`, `NOT_FOUND`, … for a numeric gRPC status code. */
export function statusName(code: number): string {
  return status[code] ?? String(code);
}
