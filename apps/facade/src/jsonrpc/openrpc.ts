import { z } from 'zod';
import { buildVersion } from '@ledger-node/telemetry';
import { defineMethod, everyMethodErrors, type RpcErrorName, type RpcMethod } from './method';
import { RpcCode } from './protocol';

/**
 * A schema in the dialect OpenRPC 1.3 documents are read with: JSON Schema draft-07 (the OpenRPC
 * meta-schema and its tooling, e.g. MethodCallValidator, compile schemas as draft-07). The document
 * declares the dialect once, so no schema repeats `$schema`.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-07', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** What each JSON-RPC error means, as the document lists it (the error table of docs/api.md says the same). */
const errorMeanings: Record<RpcErrorName, string> = {
  parseError: 'the body is not JSON',
  invalidRequest: 'invalid request',
  methodNotFound: 'method not found',
  invalidParams: 'invalid params: the message names the parameter and the expected form, data.param the parameter',
  internal: 'internal error: no details, data.correlation_id finds it in the logs',
  notSynced: 'the node has not synced what the call needs',
  outOfRange: 'the ledger is outside the stored range (the message names the range), or the history is too short for the answer',
  accountNotFound: 'the account does not exist at that ledger',
  noLocalAccount: 'no local account has that address or nickname',
  upstreamUnavailable: 'the upstream node cannot be reached; data.hash names a transaction that may still apply',
  rejected: 'the network rejected the transaction: data.engine_result and data.hash',
  unauthorized: 'signing refused: this listener needs a bearer token (-rpc_token_file) for signing methods',
  serviceUnavailable: 'a service of the node cannot be reached right now, e.g. the keystore',
  notFound: 'not found, e.g. an account that does not exist on the network yet',
  conflict: 'conflict',
  notImplemented: 'not available here, e.g. a subscription outside the WebSocket endpoint',
  responseTooLarge: 'the answers to one request would exceed -max_response_bytes: data.max_response_bytes',
  rateLimited: 'more sends from this client than -send_rate allows, or too many pending submissions: data.retry_after_ms; or more resumed subscriptions catching up at once than a client may have',
  notValidated: 'the transaction was not in a validated ledger within the timeout, or expired: data.hash and data.state',
};

/** Every error a method may answer: those of every method, of signing methods, then its own; by code. */
function methodErrors(method: RpcMethod) {
  const names = new Set<RpcErrorName>([...everyMethodErrors, ...(method.signing ? (['unauthorized'] as const) : []), ...method.errors]);
  return [...names].map((name) => ({ code: RpcCode[name], message: errorMeanings[name] })).sort((a, b) => b.code - a.code);
}

/** The examples as OpenRPC pairs each value with the name of its parameter. */
function methodExamples(method: RpcMethod) {
  return method.examples.map((example) => ({
    name: example.name,
    params: example.params.map((value, position) => ({ name: method.params[position]?.name ?? `param${position + 1}`, value })),
    result: { name: 'result', value: example.result },
  }));
}

/** The OpenRPC document of the JSON-RPC API, rendered from the method definitions that serve it. */
export function openRpcDocument(methods: ReadonlyMap<string, RpcMethod>) {
  return {
    openrpc: '1.3.2',
    // The node's build (`0.1.0+<commit>`): what a client asks rpc.discover to learn which node answers.
    info: {
      title: 'ledger-node JSON-RPC API',
      version: buildVersion(),
      description:
        'POST /v1/jsonrpc; JSON-RPC 2.0; responses carry "status": "success" or "error". Units follow the SPEC: native amounts in drops ' +
        '(integers as decimal strings), times in Ripple-epoch seconds (seconds since 2000-01-01T00:00:00Z; Unix seconds minus 946684800) unless a field says otherwise.',
      license: { name: 'ISC' },
    },
    servers: [
      {
        name: 'ledger-node',
        url: 'http://{host}:{port}/v1/jsonrpc',
        variables: { host: { default: 'localhost', description: '-rpcaddr' }, port: { default: '7545', description: '-rpcport' } },
      },
    ],
    methods: [...methods.values()].map((method) => ({
      name: method.name,
      summary: method.summary,
      paramStructure: 'by-position',
      params: method.params.map((param) => ({ name: param.name, description: param.description, required: !param.optional, schema: jsonSchema(param.schema, 'input') })),
      result: { name: 'result', schema: jsonSchema(method.result, 'output') },
      errors: methodErrors(method),
      examples: methodExamples(method),
    })),
  };
}

/** The methods plus `rpc.discover`, which answers with their OpenRPC document. */
export function withDiscovery(methods: ReadonlyMap<string, RpcMethod>): ReadonlyMap<string, RpcMethod> {
  type Document = ReturnType<typeof openRpcDocument>;
  let document: Document | undefined;
  const all = new Map<string, RpcMethod>(methods);
  const discover = defineMethod({
    name: 'rpc.discover',
    summary: 'The OpenRPC document of this API.',
    params: [],
    result: z.looseObject({ openrpc: z.string(), methods: z.array(z.looseObject({ name: z.string() })) }),
    errors: [],
    examples: [
      {
        name: 'the document (one method shown)',
        params: [],
        result: {
          openrpc: '1.3.2',
          info: { title: 'ledger-node JSON-RPC API', version: '0.1.0' },
          methods: [{ name: 'jt_blockNumber', params: [], result: { name: 'result', schema: { type: 'integer', minimum: 0 } } }],
        },
      },
    ],
    handler: async (): Promise<Document> => (document ??= openRpcDocument(all)),
  });
  all.set(discover.name, discover as unknown as RpcMethod);
  return all;
}
