/**
 * rippled's WebSocket request/response envelope (rippled ServerHandler::processSession): the
 * command name, the echoed `id` and `api_version`, `type: "response"` and `status`.
 */
import { rpcErrors } from './errors';

export type JsonObject = Record<string, unknown>;

/** rippled's API versions: 1 (the default when a request names none) and 2. */
export type ApiVersion = 1 | 2;

/** rippled echoes an unparsable request back as `value`; long ones are cut. */
export const MAX_ECHOED_CHARS = 4096;

/**
 * rippled's JSON reader refuses a value inside more than this many arrays and objects
 * (Json::Reader's nest limit: "Syntax error: maximum nesting depth exceeded").
 */
export const JSON_NEST_LIMIT = 25;

/** Whether a parsed JSON value holds a value deeper than JSON_NEST_LIMIT (walked without recursion). */
export function nestedTooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (depth > JSON_NEST_LIMIT) return true;
    if (typeof current !== 'object' || current === null) continue;
    for (const child of Array.isArray(current) ? current : Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** rippled getAPIVersionNumber: absent → 1; 1 and 2 are served; anything else is invalid (undefined). */
export function readApiVersion(request: JsonObject): ApiVersion | undefined {
  const requested = request.api_version;
  if (requested === undefined) return 1;
  return requested === 1 || requested === 2 ? requested : undefined;
}

/**
 * The command a WebSocket request names: `command`, or `method` as rippled also accepts; undefined
 * when it is not a string or the two disagree.
 */
export function readCommand(request: JsonObject): string | undefined {
  const command = request.command ?? request.method;
  if (typeof command !== 'string') return undefined;
  if (request.command !== undefined && request.method !== undefined && request.command !== request.method) return undefined;
  return command;
}

/**
 * A WebSocket message parsed as a request object, or rippled's answer to one that is not
 * (ServerHandler::onWSMessage: `jsonInvalid` with the text echoed).
 */
export function parseWsRequest(text: string): { request: JsonObject } | { response: JsonObject } {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return { response: { error: 'jsonInvalid', type: 'error', value: text.slice(0, MAX_ECHOED_CHARS) } };
  }
  if (!isJsonObject(request) || nestedTooDeep(request)) return { response: { error: 'jsonInvalid', type: 'error', value: text.slice(0, MAX_ECHOED_CHARS) } };
  return { request };
}

/** The fields a response echoes from its request. */
function echoed(request: JsonObject): JsonObject {
  const envelope: JsonObject = {};
  if (request.id !== undefined) envelope.id = request.id;
  if (request.api_version !== undefined) envelope.api_version = request.api_version;
  return envelope;
}

export function wsSuccess(request: JsonObject, result: JsonObject): JsonObject {
  return { ...echoed(request), result, status: 'success', type: 'response' };
}

/**
 * An error response: the error fields (errorFields) beside the echoed request, as rippled echoes
 * it; a request too large (or too deep) to echo is echoed as its command and id alone, so that a
 * refused megabyte is not sent back, nor its nesting overflow the answer.
 */
export function wsError(request: JsonObject, fields: JsonObject): JsonObject {
  let echo: JsonObject = request;
  try {
    if (JSON.stringify(request).length > MAX_ECHOED_CHARS) echo = slimEcho(request);
  } catch {
    echo = slimEcho(request);
  }
  return { ...echoed(request), ...fields, request: echo, status: 'error', type: 'response' };
}

/** The parts of a request that name it: its command and id. */
function slimEcho(request: JsonObject): JsonObject {
  const named: JsonObject = {};
  for (const field of ['command', 'method', 'id', 'api_version'] as const) {
    const value = request[field];
    if (typeof value === 'string' || typeof value === 'number') named[field] = typeof value === 'string' ? value.slice(0, 64) : value;
  }
  return named;
}

/** The error fields of the envelope's own failures. */
export const envelopeErrors = {
  invalidApiVersion: { error: 'invalid_API_version' },
  missingCommand: { error: 'missingCommand' },
  unknownCmd: { error: 'unknownCmd', error_code: rpcErrors.unknownCmd.code, error_message: rpcErrors.unknownCmd.message },
  internal: { error: 'internal', error_code: rpcErrors.internal.code, error_message: rpcErrors.internal.message },
} as const satisfies Record<string, JsonObject>;
