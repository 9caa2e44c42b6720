/**
 * A command-line flag, declared once with its type, default and meaning. The same declaration
 * drives parsing, validation, `--help` and the flags table of docs/operating.md.
 */
export type FlagValue = string | number | boolean | undefined;

/** A bad flag or value: the CLI prints the message on one line and exits with code 2. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

interface FlagBase<T extends FlagValue> {
  readonly name: string;
  readonly description: string;
  /** Shown in --help when the default is computed at run time (e.g. ".data in the working directory"). */
  readonly defaultLabel?: string;
  readonly default: T;
  /** Flags from the seed specification keep their exact names and defaults. */
  readonly seed?: boolean;
}

export interface StringFlag extends FlagBase<string | undefined> {
  readonly type: 'string';
  readonly choices?: readonly string[];
  /** Returns an error message when the value is not acceptable. */
  readonly check?: (value: string) => string | undefined;
  /** The value as an error may show it (a URL with its credentials as `***`); the value itself by default. */
  readonly shown?: (value: string) => string;
  readonly valueName?: string;
}

export interface IntegerFlag extends FlagBase<number | undefined> {
  readonly type: 'integer';
  readonly min: number;
  readonly max: number;
  readonly valueName?: string;
}

export interface BooleanFlag extends FlagBase<boolean> {
  readonly type: 'boolean';
}

export type FlagSpec = StringFlag | IntegerFlag | BooleanFlag;

export interface FlagGroup {
  readonly title: string;
  readonly flags: readonly FlagSpec[];
}

export const stringFlag = (spec: Omit<StringFlag, 'type'>): StringFlag => ({ type: 'string', ...spec });
export const integerFlag = (spec: Omit<IntegerFlag, 'type'>): IntegerFlag => ({ type: 'integer', ...spec });
export const booleanFlag = (spec: Omit<BooleanFlag, 'type'>): BooleanFlag => ({ type: 'boolean', ...spec });

/** A comma-separated flag value as its entries (none when the flag is not set). */
export function listValue(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}
