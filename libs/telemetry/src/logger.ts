import { pino, type Logger } from 'pino';
import { activeTraceIds } from './tracing';

export type { Logger };

const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof levels)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (levels as readonly string[]).includes(value);
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
 * Structured JSON logs on stdout, one line per event, tagged with the service name.
 * The level comes from `-log_level` (passed in) or LOG_LEVEL. A line written inside a traced
 * call carries `trace_id` and `span_id`, so logs and traces join on them. Texts are bounded
 * (MAX_LOGGED_TEXT): a line stays readable whatever a caller sent.
 */
export function createLogger(service: string, level: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info'): Logger {
  return pino({
    base: { service, pid: process.pid },
    level: isLogLevel(level) ? level : 'info',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => activeTraceIds() ?? {},
    hooks: {
      logMethod(args, method) {
        method.apply(this, boundedArguments(args) as Parameters<typeof method>);
      },
    },
  });
}
