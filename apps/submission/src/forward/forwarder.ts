/**
 * The rippled commands that need a live engine, handed to the upstream as Clio hands them
 * (ForwardingProxy): ripple_path_find, path_find, simulate and submit_multisigned, nothing else.
 * Keys never pass: a request carrying `secret`, `seed`, `seed_hex` or `passphrase` is refused
 * before anything is sent (the node signs only for its keystore's accounts). Each forward has a
 * deadline and its answer a size cap; at most `maxInFlight` wait on the upstream at once, and
 * one more is refused at once (rippled's `tooBusy` at the facade) rather than queued.
 */
import { InvalidParams, RateLimited, UpstreamUnavailable } from '@ledger-node/errors';
import { KEY_FIELDS as RIPPLED_KEY_FIELDS } from '@ledger-node/rippled-api';
import { FORWARDED_COMMANDS, MalformedUpstreamMessage, UpstreamRequestError, type ForwardedCommand, type ForwardedParams } from '@ledger-node/upstream';

/** What a forwarder sends through: the upstream client's request, for the forwarded commands. */
export interface ForwardingUpstream {
  request(command: ForwardedCommand, params: ForwardedParams, options?: { timeoutMs?: number }): Promise<Record<string, unknown>>;
}

export interface ForwarderLimits {
  /** Deadline of one forward. */
  timeoutMs: number;
  /** The largest answer handed back, in bytes of its JSON. */
  maxAnswerBytes: number;
  /** Forwards waiting on the upstream at once. */
  maxInFlight: number;
}

export const DEFAULT_FORWARDER_LIMITS: ForwarderLimits = { timeoutMs: 10_000, maxAnswerBytes: 1024 * 1024, maxInFlight: 32 };

/** The fields that carry key material in rippled's requests (sign-and-submit forms, wallet_propose). */
const KEY_FIELDS = new Set(RIPPLED_KEY_FIELDS);
/** The largest request forwarded (a multi-signed blob of 32 signers is ~10 KB). */
const MAX_PARAMS_BYTES = 64 * 1024;
/** Fields of the envelope that the forwarder sets itself. */
const ENVELOPE_FIELDS = new Set(['id', 'command', 'method', 'api_version', 'jsonrpc']);

export interface ForwardAnswer {
  /** The upstream's result, or its error answer's fields. */
  answer: Record<string, unknown>;
  error: boolean;
}

const isForwarded = (command: string): command is ForwardedCommand => (FORWARDED_COMMANDS as readonly string[]).includes(command);

/** The first key field found anywhere in the request, with its path, or undefined. */
function keyFieldIn(value: unknown, path: string, depth = 0): string | undefined {
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const [field, inner] of Object.entries(value as Record<string, unknown>)) {
    if (KEY_FIELDS.has(field)) return path ? `${path}.${field}` : field;
    const found = keyFieldIn(inner, path ? `${path}.${field}` : field, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

export class Forwarder {
  private inFlight = 0;

  constructor(
    private readonly upstream: ForwardingUpstream,
    private readonly limits: ForwarderLimits = DEFAULT_FORWARDER_LIMITS,
    /** Hears why a forward got no usable answer (callers are told only rippled's noNetwork). */
    private readonly onUnanswered: (command: ForwardedCommand, reason: string) => void = () => {},
  ) {}

  /** Forwards `command` with `paramsJson` (a JSON object) at `apiVersion` (0: none named). */
  async forward(command: string, paramsJson: string, apiVersion: number): Promise<ForwardAnswer> {
    if (!isForwarded(command)) throw new InvalidParams(`${command.slice(0, 64)} is not forwarded; only ${FORWARDED_COMMANDS.join(', ')}`, 'command');
    const params = forwardedParams(paramsJson, apiVersion);
    if (this.inFlight >= this.limits.maxInFlight) throw new RateLimited(`${this.limits.maxInFlight} forwards are waiting on the upstream already`, { forwarding: true });
    this.inFlight++;
    let answer: ForwardAnswer;
    try {
      answer = { answer: await this.upstream.request(command, params, { timeoutMs: this.limits.timeoutMs }), error: false };
    } catch (error) {
      if (error instanceof UpstreamRequestError) answer = { answer: errorFieldsOf(error), error: true };
      else if (error instanceof MalformedUpstreamMessage) throw this.unanswered(command, `the upstream's ${command} answer is malformed: ${error.message}`);
      else if (error instanceof UpstreamUnavailable) throw this.unanswered(command, error.message);
      else throw error;
    } finally {
      this.inFlight--;
    }
    // A path request lives on the connection that made it (rippled InfoSub) and would be updated
    // there for every ledger: one made on the shared connection (FindPaths opens its own) is closed.
    if (command === 'path_find' && params.subcommand === 'create') void this.upstream.request('path_find', { subcommand: 'close' }, { timeoutMs: this.limits.timeoutMs }).catch(() => undefined);
    if (Buffer.byteLength(JSON.stringify(answer.answer)) > this.limits.maxAnswerBytes) {
      throw this.unanswered(command, `the upstream's ${command} answer is larger than ${this.limits.maxAnswerBytes} bytes`);
    }
    return answer;
  }

  private unanswered(command: ForwardedCommand, reason: string): UpstreamUnavailable {
    this.onUnanswered(command, reason);
    return new UpstreamUnavailable(reason);
  }
}

/**
 * The params of a forwarded request as the upstream gets them: `paramsJson` (a JSON object of at
 * most 64 KiB, no key field anywhere in it) without the envelope's fields, at `apiVersion` (0:
 * none named).
 */
export function forwardedParams(paramsJson: string, apiVersion: number): ForwardedParams {
  if (apiVersion !== 0 && apiVersion !== 1 && apiVersion !== 2) throw new InvalidParams(`api_version ${apiVersion} is not 1 or 2`, 'api_version');
  if (Buffer.byteLength(paramsJson) > MAX_PARAMS_BYTES) throw new InvalidParams(`the request is larger than ${MAX_PARAMS_BYTES} bytes`, 'params');
  let parsed: unknown;
  try {
    parsed = JSON.parse(paramsJson);
  } catch {
    throw new InvalidParams('the request is not JSON', 'params');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidParams('the request is not a JSON object', 'params');
  const keyField = keyFieldIn(parsed, '');
  // The field is named, never its value.
  if (keyField !== undefined) throw new InvalidParams(`the node forwards no keys: remove '${keyField}' and send a signed transaction`, keyField);
  const params: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(parsed as Record<string, unknown>)) if (!ENVELOPE_FIELDS.has(field)) params[field] = value;
  if (apiVersion !== 0) params.api_version = apiVersion;
  return params as ForwardedParams;
}

/** rippled's error fields from an error answer, without the request it echoes (which may be large). */
export function errorFieldsOf(error: UpstreamRequestError): Record<string, unknown> {
  const { request: _request, ...fields } = error.answer;
  return { ...fields, error: error.errorCode, status: 'error' };
}
