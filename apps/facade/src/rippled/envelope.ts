/**
 * rippled's envelopes around a command (rippled ServerHandler): over WebSocket `{id, command,
 * api_version, …fields}` answered `{id, result, status, type: "response", api_version?}`; over HTTP
 * `POST {"method", "params": [{…fields}]}` answered `{"result": {…, "status"}}`, an error's fields
 * inside `result` beside the `request` it answers. Malformed HTTP calls get rippled's HTTP 400 and
 * its one-line text; malformed WebSocket messages rippled's `jsonInvalid`/`missingCommand`.
 */
import {
  envelopeErrors,
  isJsonObject,
  JSON_NEST_LIMIT,
  KEY_FIELDS,
  nestedTooDeep,
  parseWsRequest,
  readApiVersion,
  readCommand,
  wsError,
  wsSuccess,
  type ApiVersion,
  type JsonObject,
} from '@ledger-node/rippled-api';
import { RenderedJson } from '../queries/rendered-json';
import type { RippledResult } from './method';

/** A command's result or its error fields, as the transports answer them. */
type Outcome = { result: RippledResult } | { error: JsonObject };

/**
 * `answer` as JSON text with `result` as its `result` field: a rendered result is written in as it
 * is (no parse, no second stringify). Top-level fields only, in `answer`'s order.
 */
function answerText(answer: JsonObject, result: RippledResult): string {
  if (!(result instanceof RenderedJson)) return JSON.stringify({ ...answer, result });
  const fields = Object.entries({ ...answer, result: undefined }).flatMap(([name, value]) => {
    if (name === 'result') return [`"result":${result.json}`];
    return value === undefined ? [] : [`${JSON.stringify(name)}:${JSON.stringify(value)}`];
  });
  return `{${fields.join(',')}}`;
}

/** A result with `"status": "success"` added, as rippled's HTTP answers carry it inside `result`. */
function withSuccess(result: RippledResult): RippledResult {
  if (!(result instanceof RenderedJson)) return { ...result, status: 'success' };
  const { json } = result;
  return new RenderedJson(`${json.slice(0, -1)}${json === '{}' ? '' : ','}"status":"success"}`);
}

/** The request as an answer may echo it: secrets replaced by `<masked>`. */
export function maskSecrets(request: JsonObject): JsonObject {
  // rippled masks the fields that may hold a secret where it echoes a request.
  if (!KEY_FIELDS.some((field) => Object.hasOwn(request, field))) return request;
  const masked: JsonObject = { ...request };
  for (const field of KEY_FIELDS) if (Object.hasOwn(masked, field)) masked[field] = '<masked>';
  return masked;
}

/** A request's own fields: what the command reads (rippled's `params[0]`), without the envelope's. */
export function commandFields(request: JsonObject): JsonObject {
  const { id: _id, command: _command, method: _method, api_version: _apiVersion, jsonrpc: _jsonrpc, ripplerpc: _ripplerpc, ...fields } = request;
  return fields;
}

/** A parsed command, or the answer a malformed one gets at once. */
export type ParsedCall =
  | { call: { command: string; fields: JsonObject; apiVersion: ApiVersion; request: JsonObject } }
  | { answer: JsonObject };

/** A WebSocket message as a command (rippled onWSMessage, processSession). */
export function parseWsCall(text: string): ParsedCall {
  const parsed = parseWsRequest(text);
  if ('response' in parsed) return { answer: parsed.response };
  const { request } = parsed;
  const apiVersion = readApiVersion(request);
  if (apiVersion === undefined) return { answer: wsError(maskSecrets(request), envelopeErrors.invalidApiVersion) };
  const command = readCommand(request);
  if (command === undefined) return { answer: wsError(maskSecrets(request), envelopeErrors.missingCommand) };
  return { call: { command, fields: commandFields(request), apiVersion, request } };
}

/** The WebSocket answer to a command, as sent. */
export function wsAnswer(request: JsonObject, outcome: Outcome): string {
  if ('error' in outcome) return JSON.stringify(wsError(maskSecrets(request), outcome.error));
  return answerText(wsSuccess(request, {}), outcome.result);
}

/** An HTTP call rippled refuses before any command runs: status 400 and its text. */
export interface HttpRefusal {
  status: number;
  text: string;
}

/** An HTTP JSON-RPC body as a command (rippled processRequest), or rippled's refusal. */
export function parseHttpCall(body: unknown): { call: { command: string; fields: JsonObject; apiVersion: ApiVersion; request: JsonObject } } | { refusal: HttpRefusal } {
  const refuse = (text: string) => ({ refusal: { status: 400, text } });
  if (!isJsonObject(body)) return refuse('Unable to parse request: the body is not a JSON object');
  if (nestedTooDeep(body)) return refuse(`Unable to parse request: maximum nesting depth (${JSON_NEST_LIMIT}) exceeded`);
  const list = body.params;
  const first = Array.isArray(list) && list.length > 0 ? list[0] : undefined;
  const apiVersion = isJsonObject(first) ? readApiVersion(first) : 1;
  if (apiVersion === undefined) return refuse('invalid_API_version');
  const method = body.method;
  if (method === undefined || method === null) return refuse('Null method');
  if (typeof method !== 'string') return refuse('method is not string');
  if (method === '') return refuse('method is empty');
  let params: JsonObject = {};
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || list.length !== 1) return refuse('params unparsable');
    if (first !== null) {
      if (!isJsonObject(first)) return refuse('params unparsable');
      params = first;
    }
  }
  // rippled names the command in the params it runs, and echoes those on an error.
  const request: JsonObject = { ...params, command: method };
  return { call: { command: method, fields: commandFields(request), apiVersion, request } };
}

/** The HTTP answer to a command, as sent: `{result}` with `status`, and the echoes rippled adds. */
export function httpAnswer(request: JsonObject, outcome: Outcome): string {
  const answer: JsonObject = { result: {} };
  for (const field of ['jsonrpc', 'ripplerpc', 'id']) if (request[field] !== undefined) answer[field] = request[field];
  const result = 'error' in outcome ? { ...outcome.error, request: maskSecrets(request), status: 'error' } : withSuccess(outcome.result);
  return answerText(answer, result);
}
