/**
 * One rippled command, whichever transport brought it: the method of the table
 * (rippled/methods), or a connection's own `subscribe`/`unsubscribe`, run as one span
 * (`rippled <command>`), counted and timed per command and outcome, its failure turned into
 * rippled's error fields. Unexpected failures are logged with a correlation id and answered as
 * rippled's `internal`, never with their details.
 */
import { randomUUID } from 'node:crypto';
import { envelopeErrors, errorFields, rpcErrors, type ApiVersion, type JsonObject } from '@ledger-node/rippled-api';
import { counter, histogram, inCallSpan, type Logger } from '@ledger-node/telemetry';
import type { RippledContext, RippledHandler, RippledResult } from './method';
import { rippledErrorOf } from './methods/errors';
import type { RippledSubscriptions, SubscribeOutcome } from './streams';

const commandMetrics = {
  count: counter(
    'ledger_node_rippled_requests_total',
    "rippled API commands by command (unknown for one that does not exist, malformed for a request that names none), outcome (success, or rippled's error token) and transport (ws, http)",
    ['command', 'outcome', 'transport'],
  ),
  latency: histogram('ledger_node_rippled_request_duration_seconds', 'rippled API command latency by command, outcome and transport', ['command', 'outcome', 'transport']),
};

/**
 * The error tokens an outcome label may name: rippled's coded errors, the bare ones this node
 * answers with, and the envelope's. Anything else (an upstream's error a forwarded command passes
 * on may name anything) is `other`, so that no client or upstream can add label values.
 */
const BARE_ERROR_TOKENS = ['entryNotFound', 'fieldNotFoundTransaction', 'invalidTransaction', 'malformedRequest', 'notYetImplemented', 'transactionNotFound'];
const ENVELOPE_ERROR_TOKENS = ['jsonInvalid', 'missingCommand', 'invalid_API_version', 'badRequest'];
export const OUTCOME_TOKENS: ReadonlySet<string> = new Set([...Object.keys(rpcErrors), ...BARE_ERROR_TOKENS, ...ENVELOPE_ERROR_TOKENS]);

/** The outcome label of an answer's error token. */
export function outcomeLabel(token: unknown): string {
  return typeof token === 'string' && OUTCOME_TOKENS.has(token) ? token : 'other';
}

/** The commands bound to a WebSocket connection (path_find over HTTP is its method's: noEvents). */
const connectionCommands = new Set(['subscribe', 'unsubscribe']);

/** What a command answers: its result (with, for `subscribe`, the start of its stream messages), or rippled's error fields. */
export type CommandOutcome = { result: RippledResult; start?: () => void } | { error: JsonObject };
/** A WebSocket connection's path request, for the command being run (path-requests.ts). */
export interface ConnectionPaths {
  run(request: JsonObject, apiVersion: ApiVersion): Promise<{ result: JsonObject; start?: () => void }>;
}

export interface CommandRunner {
  /**
   * Runs `command` with the request's fields. `subscriptions` and `paths` are the connection's,
   * absent over HTTP. Resolves with the result, or the error fields rippled answers with.
   */
  run(
    command: string,
    request: JsonObject,
    apiVersion: ApiVersion,
    transport: 'ws' | 'http',
    subscriptions?: RippledSubscriptions,
    paths?: ConnectionPaths,
  ): Promise<CommandOutcome>;
  /**
   * Counts a request refused before any command ran (command `malformed`): a WebSocket message
   * answered with `token` (jsonInvalid, missingCommand, invalid_API_version), or an HTTP call
   * answered 400 (`badRequest`).
   */
  refused(token: string, transport: 'ws' | 'http'): void;
}

export interface CommandRunnerOptions {
  methods: Readonly<Record<string, RippledHandler>>;
  context: RippledContext;
  logger: Logger;
  /** A command that takes this long or longer is logged with its name and duration (-slow_ms). */
  slowMs?: number;
}

export function commandRunner(options: CommandRunnerOptions): CommandRunner {
  const { methods, context, logger, slowMs } = options;

  const errorOf = (error: unknown, command: string): JsonObject => {
    const fields = errorFields(rippledErrorOf(error) ?? error);
    if (fields) return fields;
    const correlationId = randomUUID();
    logger.error({ err: error, command, correlationId }, 'internal error in a rippled API command');
    return { ...envelopeErrors.internal, correlation_id: correlationId };
  };

  const execute = async (
    command: string,
    request: JsonObject,
    apiVersion: ApiVersion,
    subscriptions: RippledSubscriptions | undefined,
    paths: ConnectionPaths | undefined,
  ): Promise<{ result: RippledResult; start?: () => void }> => {
    if (command === 'path_find' && paths && Object.hasOwn(methods, command)) return paths.run(request, apiVersion);
    if (command === 'subscribe' || command === 'unsubscribe') {
      if (!subscriptions) throw new SubscriptionOverHttp(command);
      if (command === 'unsubscribe') return { result: await subscriptions.unsubscribe(request) };
      const outcome: SubscribeOutcome = await subscriptions.subscribe(request, apiVersion);
      return outcome;
    }
    const method = methods[command]!;
    return { result: await method({ params: request, apiVersion }, context) };
  };

  return {
    async run(command, request, apiVersion, transport, subscriptions, paths) {
      const known = connectionCommands.has(command) || Object.hasOwn(methods, command);
      if (!known) {
        commandMetrics.count.inc({ command: 'unknown', outcome: 'unknownCmd', transport });
        return { error: { ...envelopeErrors.unknownCmd } };
      }
      const startedAt = process.hrtime.bigint();
      // One command a request or message: its span is the request's (inCallSpan).
      return inCallSpan(`rippled ${command}`, { 'rpc.system': 'rippled', 'rpc.method': command }, true, async (span) => {
        let answer: CommandOutcome;
        try {
          answer = await execute(command, request, apiVersion, subscriptions, paths);
        } catch (error) {
          answer = { error: error instanceof SubscriptionOverHttp ? error.fields : errorOf(error, command) };
        }
        const outcome = 'error' in answer ? outcomeLabel(answer.error.error) : 'success';
        if ('error' in answer) span.setAttribute('rpc.rippled.error', String(answer.error.error));
        const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
        commandMetrics.count.inc({ command, outcome, transport });
        commandMetrics.latency.observe({ command, outcome, transport }, seconds);
        const durationMs = Math.round(seconds * 1000);
        if (slowMs !== undefined && durationMs >= slowMs) logger.warn({ command, durationMs, outcome }, `slow rippled API command: ${command} took ${durationMs} ms`);
        return answer;
      });
    },
    refused(token, transport) {
      commandMetrics.count.inc({ command: 'malformed', outcome: outcomeLabel(token), transport });
    },
  };
}

/** rippled over HTTP subscribes a URL (admin only); this node streams over WebSocket only. */
class SubscriptionOverHttp extends Error {
  readonly fields: JsonObject;

  constructor(command: string) {
    super(`${command} over HTTP`);
    this.fields = {
      error: 'notSupported',
      error_code: rpcErrors.notSupported.code,
      error_message: `'${command}' needs a WebSocket connection: connect to this port with ws:// and send it there.`,
    };
  }
}
