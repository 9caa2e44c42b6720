import type { ErrorKind } from '@ledger-node/errors';
import { RenderedJson } from '../queries/rendered-json';

/** JSON-RPC 2.0 error codes, and the server range -32000..-32099 for domain errors. */
export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  notSynced: -32001,
  outOfRange: -32002,
  accountNotFound: -32003,
  noLocalAccount: -32004,
  upstreamUnavailable: -32005,
  rejected: -32006,
  unauthorized: -32007,
  serviceUnavailable: -32008,
  notFound: -32009,
  conflict: -32010,
  notImplemented: -32011,
  responseTooLarge: -32012,
  rateLimited: -32013,
  notValidated: -32014,
} as const;

/** How each error kind of libs/errors reaches a JSON-RPC caller. */
export const rpcCodeByKind: Record<ErrorKind, number> = {
  invalid_params: RpcCode.invalidParams,
  not_found: RpcCode.notFound,
  not_synced: RpcCode.notSynced,
  out_of_range: RpcCode.outOfRange,
  account_not_found: RpcCode.accountNotFound,
  no_local_account: RpcCode.noLocalAccount,
  upstream_unavailable: RpcCode.upstreamUnavailable,
  rejected: RpcCode.rejected,
  unauthorized: RpcCode.unauthorized,
  unavailable: RpcCode.serviceUnavailable,
  conflict: RpcCode.conflict,
  unimplemented: RpcCode.notImplemented,
  rate_limited: RpcCode.rateLimited,
  not_validated: RpcCode.notValidated,
  internal: RpcCode.internal,
};

export type RpcId = string | number | null;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Key order follows the seed's responses: id, jsonrpc, result, status. */
export function successResponse(id: RpcId, result: unknown) {
  return { id, jsonrpc: '2.0' as const, result, status: 'success' as const };
}

export function errorResponse(id: RpcId, error: RpcErrorObject) {
  return { id, jsonrpc: '2.0' as const, error, status: 'error' as const };
}

export type RpcResponse = ReturnType<typeof successResponse> | ReturnType<typeof errorResponse>;

/** The response body: JSON.stringify of the response(s), with rendered results spliced in as they are. */
export function responseJson(response: RpcResponse | RpcResponse[]): string {
  if (Array.isArray(response)) return `[${response.map(responseJson).join(',')}]`;
  if (!('result' in response) || !(response.result instanceof RenderedJson)) return JSON.stringify(response);
  return `{"id":${JSON.stringify(response.id)},"jsonrpc":"2.0","result":${response.result.json},"status":"success"}`;
}
