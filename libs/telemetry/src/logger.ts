import { pino, type Logger } from 'pino';
import { activeTraceIds } from './tracing';

export type { Logger };

const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof levels)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (levels as readonly string[]).includes(value);
}

/**
 * Structured JSON logs on stdout, one line per event, tagged with the service name.
 * The level comes from `-log_level` (passed in) or LOG_LEVEL. A line written inside a traced
 * call carries `trace_id` and `span_id`, so logs and traces join on them.
 */
export function createLogger(service: string, level: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info'): Logger {
  return pino({
    base: { service, pid: process.pid },
    level: isLogLevel(level) ? level : 'info',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => activeTraceIds() ?? {},
  });
}
