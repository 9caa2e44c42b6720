import { z } from 'zod';
import { commonErrors, errorBody, type RestRoute } from './define';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;

const statusText: Record<number, string> = { 400: 'Bad request', 401: 'Unauthorized', 404: 'Not found', 409: 'Conflict', 413: 'Body too large', 422: 'Rejected by the network', 429: 'Too many requests', 500: 'Internal error', 501: 'Not available', 502: 'Upstream unavailable', 503: 'Service unavailable' };

/** Parameters of one location (path or query) from an object schema's fields. */
function parameters(schema: z.ZodType, location: 'path' | 'query') {
  const document = jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(document.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (document.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

/** OpenAPI 3.1 of the REST API, rendered from the same route definitions that serve it. */
export function openApiDocument(routes: readonly RestRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {
      200: { description: 'Success', content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } },
    };
    const statuses = new Set([...Object.values(commonErrors), ...Object.values(route.errors), ...(route.body ? [413] : []), 500]);
    for (const status of [...statuses].sort()) {
      responses[status] = { description: statusText[status] ?? 'Error', content: { 'application/json': { schema: jsonSchema(errorBody, 'output') } } };
    }
    paths[`/v1${route.path}`] ??= {};
    paths[`/v1${route.path}`]![route.method] = {
      summary: route.summary,
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'ledger-node REST API', version: '1.0.0', description: 'The chain as the node stores it: ledgers, transactions, accounts, submissions and sync status.' },
    paths,
  };
}
