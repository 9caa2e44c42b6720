import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyStream } from './pretty';
import { activeTraceIds } from './tracing';

export type { Logger };

const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof levels)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (levels as readonly string[]).includes(value);
}

/** `-log_format`: `auto` is `pretty` on a terminal, `json` anywhere else (a file, a pipe, a log collector). */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** The format lines take on `output` (stdout by default): `auto` resolved by whether it is a terminal. */
export function resolveLogFormat(format: LogFormat, output: { isTTY?: boolean } = process.stdout): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return output.isTTY === true ? 'pretty' : 'json';
}

let processLogFormat: LogFormat = 'auto';

/**
 * The format of every logger this process creates from now on. The CLI sets it from `-log_format`
 * before it starts a service, so that each service's lines, and the supervisor's, take one format.
 */
export function setLogFormat(format: LogFormat): void {
  processLogFormat = format;
}

/** Most characters of one text in a log line: messages and fields quote callers' text, of any length. */
export const MAX_LOGGED_TEXT = 2_000;

function boundedText(text: string): string {
  return text.length <= MAX_LOGGED_TEXT ? text : `${text.slice(0, MAX_LOGGED_TEXT)}… (${text.length} characters)`;
}

/** A log call's arguments with each text, and each text field of its object, cut to MAX_LOGGED_TEXT. */
function boundedArguments(args: unknown[]): unknown[] {
  return args.map((arg) => {
    if (typeof arg === 'string') return boundedText(arg);
    if (typeof arg !== 'object' || arg === null || arg instanceof Error || Array.isArray(arg)) return arg;
    return Object.fromEntries(Object.entries(arg).map(([key, value]) => [key, typeof value === 'string' ? boundedText(value) : value]));
  });
}

/**
 * One line per event on stdout, tagged with the service name: JSON (one object per line) or, on a
 * terminal, pretty lines (pretty.ts), as `setLogFormat` or `options.format` say. The level comes
 * from `-log_level` (passed in) or LOG_LEVEL. A line written inside a traced call carries
 * `trace_id` and `span_id`, so logs and traces join on them. Texts are bounded (MAX_LOGGED_TEXT):
 * a line stays readable whatever a caller sent.
 */
export function createLogger(
  service: string,
  level: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info',
  options: { format?: LogFormat; destination?: DestinationStream } = {},
): Logger {
  const format = resolveLogFormat(options.format ?? processLogFormat);
  const common: LoggerOptions = {
    base: { service, pid: process.pid },
    level: isLogLevel(level) ? level : 'info',
    mixin: () => activeTraceIds() ?? {},
    hooks: {
      logMethod(args, method) {
        method.apply(this, boundedArguments(args) as Parameters<typeof method>);
      },
    },
  };
  if (format === 'pretty') return pino(common, prettyStream(options.destination));
  const json: LoggerOptions = {
    ...common,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return options.destination === undefined ? pino(json) : pino(json, options.destination);
}
