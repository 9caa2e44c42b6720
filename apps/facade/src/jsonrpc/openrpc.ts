import { z } from 'zod';
import { defineMethod, type RpcMethod } from './method';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });

/** The OpenRPC document of the JSON-RPC API, rendered from the method definitions that serve it. */
export function openRpcDocument(methods: ReadonlyMap<string, RpcMethod>) {
  return {
    openrpc: '1.3.2',
    info: { title: 'ledger-node JSON-RPC API', version: '1.0.0', description: 'POST /v1/jsonrpc; JSON-RPC 2.0; responses carry "status": "success" or "error".' },
    methods: [...methods.values()].map((method) => ({
      name: method.name,
      summary: method.summary,
      paramStructure: 'by-position',
      params: method.params.map((param) => ({ name: param.name, description: param.description, required: !param.optional, schema: jsonSchema(param.schema, 'input') })),
      result: { name: 'result', schema: jsonSchema(method.result, 'output') },
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
    handler: async (): Promise<Document> => (document ??= openRpcDocument(all)),
  });
  all.set(discover.name, discover as unknown as RpcMethod);
  return all;
}
