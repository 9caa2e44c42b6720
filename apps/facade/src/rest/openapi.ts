import { z } from 'zod';
import type { ErrorKind } from '@ledger-node/errors';
import { buildVersion } from '@ledger-node/telemetry';
import { commonErrors, errorBody, type RestRoute, type RestTag } from './define';
import { transactionSchema } from './schemas';

type JsonSchema = Record<string, unknown>;

const target = 'draft-2020-12';
const componentRef = (id: string) => `#/components/schemas/${id}`;

/** A schema as OpenAPI 3.1 holds it: JSON Schema 2020-12, the dialect the document declares once. */
function withoutDialect({ $schema: _dialect, $id: _id, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => withoutDialect(z.toJSONSchema(schema, { io, target, unrepresentable: 'any' }) as JsonSchema);

const statusText: Record<number, string> = { 400: 'Bad request', 401: 'Unauthorized', 404: 'Not found', 409: 'Conflict', 413: 'Body too large', 422: 'Rejected by the network', 429: 'Too many requests', 500: 'Internal error', 501: 'Not available', 502: 'Upstream unavailable', 503: 'Service unavailable' };

/** What an error of each kind says, for the examples of the error answers. */
const errorExamples: Record<ErrorKind, string> = {
  invalid_params: 'invalid ledger: expected a ledger index, a ledger hash or a tag',
  not_found: 'ledger 99999999 is not stored',
  not_synced: 'the node has not synced any ledger yet',
  out_of_range: 'ledger 12 is outside the ledgers whose account state is stored (1000-1204)',
  account_not_found: 'account rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe not found at ledger 1204',
  no_local_account: 'no local account "treasury"',
  upstream_unavailable: 'no upstream connection (tried ws://127.0.0.1:6006)',
  rejected: 'transaction 38FA0226E27D0391DEE7F3B1A4D31BF1747EA6B77B0A92D779B37135F317DE14 cannot enter a ledger: tefPAST_SEQ',
  unauthorized: 'missing or wrong token',
  unavailable: 'ledger-store unavailable: no answer before the deadline',
  conflict: 'transaction 38FA0226E27D0391DEE7F3B1A4D31BF1747EA6B77B0A92D779B37135F317DE14 conflicts with one already tracked',
  unimplemented: 'this node is read-only (-read_only): it holds no local accounts, and signs, sends, submits and forwards nothing',
  rate_limited: 'too many sends from this client: try again in 1000 ms',
  not_validated: 'transaction 38FA0226E27D0391DEE7F3B1A4D31BF1747EA6B77B0A92D779B37135F317DE14 not validated within 30 s: it is pending',
  internal: 'internal error',
};

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const responseId = (route: RestRoute) => `${pascal(route.operationId)}Response`;
const requestId = (route: RestRoute) => `${pascal(route.operationId)}Request`;

/**
 * The shared schemas (`Error`, `Transaction`), each route's answer and each request body, as named
 * components: a schema used in several places is written once and referenced.
 */
function components(routes: readonly RestRoute[]): Record<string, JsonSchema> {
  const outputs = z.registry<{ id: string }>();
  outputs.add(errorBody, { id: 'Error' });
  outputs.add(transactionSchema, { id: 'Transaction' });
  for (const route of routes) outputs.add(route.response, { id: responseId(route) });
  const inputs = z.registry<{ id: string }>();
  for (const route of routes) if (route.body) inputs.add(route.body, { id: requestId(route) });
  const render = (registry: typeof outputs, io: 'input' | 'output') =>
    Object.entries(z.toJSONSchema(registry, { io, target, unrepresentable: 'any', uri: componentRef }).schemas).map(([id, schema]) => [id, withoutDialect(schema as JsonSchema)] as const);
  return Object.fromEntries([...render(outputs, 'output'), ...render(inputs, 'input')]);
}

/** Parameters of one location (path or query) from an object schema's fields, each with its example value. */
function parameters(schema: z.ZodType, location: 'path' | 'query', examples: Readonly<Record<string, string>> = {}) {
  const document = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(document.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (document.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
    ...(examples[name] === undefined ? {} : { example: examples[name] }),
  }));
}

/** The error answers of a route, by HTTP status, each with an example of every kind that gives it. */
function errorResponses(route: RestRoute) {
  const kindsByStatus = new Map<number, Set<ErrorKind>>();
  const add = (kind: ErrorKind, status: number) => kindsByStatus.set(status, (kindsByStatus.get(status) ?? new Set()).add(kind));
  for (const [kind, status] of Object.entries({ ...commonErrors, ...route.errors })) add(kind as ErrorKind, status);
  if (route.body) add('invalid_params', 413);
  add('internal', 500);
  return Object.fromEntries(
    [...kindsByStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, kinds]) => [
        String(status),
        {
          description: statusText[status] ?? 'Error',
          content: {
            'application/json': {
              schema: { $ref: componentRef('Error') },
              examples: Object.fromEntries([...kinds].map((kind) => [kind, { value: { error: { code: kind, message: errorExamples[kind] } } }])),
            },
          },
        },
      ]),
  );
}

/** OpenAPI 3.1 of the REST API, rendered from the same route definitions that serve it. */
export function openApiDocument(routes: readonly RestRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[`/v1${route.path}`] ??= {};
    paths[`/v1${route.path}`]![route.method] = {
      operationId: route.operationId,
      tags: [route.tag.name],
      summary: route.summary,
      parameters: [...parameters(route.params, 'path', route.example.params), ...parameters(route.query, 'query', route.example.query)],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: componentRef(requestId(route)) }, example: route.example.body } } } }
        : {}),
      responses: {
        200: { description: 'Success', content: { 'application/json': { schema: { $ref: componentRef(responseId(route)) }, example: route.example.response } } },
        ...errorResponses(route),
      },
    };
  }
  const tags = new Map<string, RestTag>(routes.map((route) => [route.tag.name, route.tag]));
  return {
    openapi: '3.1.0',
    // The node's build (`0.1.0+<commit>`), as rippled's server_info reports build_version.
    info: {
      title: 'ledger-node REST API',
      version: buildVersion(),
      description:
        'The chain as the node stores it: ledgers, transactions, accounts, submissions and sync status. Units are said in each field: ' +
        'times in Unix seconds or ISO 8601, native amounts in units of the currency (`value`, `amount`) with `drops` beside them; ' +
        'the raw transaction fields (`tx`, `meta`) keep the chain’s own units (drops, Ripple-epoch seconds).',
      license: { name: 'ISC', identifier: 'ISC' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: 'the node’s REST listener (-apiaddr, -apiport)',
        variables: { host: { default: 'localhost', description: '-apiaddr' }, port: { default: '7544', description: '-apiport' } },
      },
    ],
    tags: [...tags.values()].map(({ name, description }) => ({ name, description })),
    // No route asks for credentials: the listener is guarded by its address, allowed hosts and origins (docs/operating.md "Security model").
    security: [],
    paths,
    components: { schemas: components(routes) },
  };
}
