/**
 * Log lines for a person at a terminal (pino-pretty): the local time, the level, the service, the
 * message, then the fields the message does not already say as `key=value`, as geth and rippled
 * print theirs:
 *
 *   [14:03:07.512] INFO: sync         subscribed to ws://127.0.0.1:51234 ledgerIndex=7
 *
 * An error field shows its message; its stack only on a line at level error or above (a bug, not
 * an expected condition). Control characters of logged text are escaped: a message quoting what a
 * client sent cannot move the cursor or recolour the terminal.
 */
import { createRequire } from 'node:module';
import type { DestinationStream } from 'pino';
import type PinoPretty from 'pino-pretty';

/** pino-pretty, loaded by the first pretty logger: a service logging JSON never compiles its 30 modules. */
const loadPinoPretty = (): typeof PinoPretty => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

/** The fields every line has, shown in the line's head (time, level, service) or not at all. */
const HEAD_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg', 'err']);
/** Longest a field's value is shown; the JSON format keeps it whole. */
const MAX_SHOWN_VALUE = 200;
/** pino's level numbers: error and fatal lines keep the stack of their error. */
const ERROR_LEVEL = 50;
/** Wide enough for every service name ("ledger-store"), so that messages line up. */
const SERVICE_COLUMN = 12;

/** Text with its control characters written as `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A text shown bare: printable ASCII without spaces, quotes or `=`; any other is quoted as JSON. */
const BARE_TEXT = /^[\x21\x23-\x3c\x3e-\x7e]+$/;

function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? (BARE_TEXT.test(value) ? value : JSON.stringify(value)) : (JSON.stringify(value) ?? String(value));
  const bounded = text.length <= MAX_SHOWN_VALUE ? text : `${text.slice(0, MAX_SHOWN_VALUE)}…`;
  return printable(bounded);
}

/** Whether the message already says `value` as a word of its own ("ledger 7", not "1700"); a list, each of its entries. */
function mentioned(message: string, value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((entry) => mentioned(message, entry));
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return false;
  const text = String(value);
  if (text === '') return true;
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.])${escaped}(?![\\w.])`).test(message);
}

interface LoggedError {
  message?: unknown;
  stack?: unknown;
}

/** The message of one line and what follows it: the fields it does not say, and its error. */
export function prettyMessage(log: Record<string, unknown>, messageKey = 'msg'): string {
  const message = typeof log[messageKey] === 'string' ? (log[messageKey] as string) : '';
  const fields = Object.entries(log)
    .filter(([key, value]) => !HEAD_FIELDS.has(key) && key !== messageKey && value !== undefined && value !== null && !mentioned(message, value))
    .map(([key, value]) => `${key}=${shownValue(value)}`);
  const error = log.err as LoggedError | undefined;
  const errorMessage = typeof error?.message === 'string' ? error.message : undefined;
  if (errorMessage !== undefined && !message.includes(errorMessage)) fields.push(`error=${shownValue(errorMessage)}`);
  const head = `${String(log.service ?? '').padEnd(SERVICE_COLUMN)} ${printable(message)}`;
  const line = fields.length === 0 ? head : `${head}  ${fields.join(' ')}`;
  const stack = typeof error?.stack === 'string' && typeof log.level === 'number' && log.level >= ERROR_LEVEL ? error.stack : undefined;
  return stack === undefined ? line : `${line}\n${stack.split('\n').map((stackLine) => `    ${printable(stackLine)}`).join('\n')}`;
}

/** The stream a pretty logger writes to: `destination` (stdout by default), synchronously, as pino's own. */
export function prettyStream(destination?: DestinationStream | NodeJS.WritableStream): DestinationStream {
  return loadPinoPretty()({
    sync: true,
    destination: destination ?? 1,
    translateTime: 'SYS:HH:MM:ss.l',
    // The service is in the message (prettyMessage); the pid is in the supervisor's status lines.
    ignore: 'pid,hostname,service',
    // Every field is in the message line (prettyMessage): none as pino-pretty's indented object.
    hideObject: true,
    messageFormat: (log, messageKey) => prettyMessage(log, messageKey),
  });
}
