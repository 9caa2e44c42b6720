import type { FlagSpec, FlagValue } from './flag';

/** A bad flag or value: the CLI prints the message on one line and exits with code 2. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

const booleanWords: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };

/** Flag values after parsing: every declared flag has a value (its default when not given). */
export class ParsedFlags {
  constructor(
    private readonly specs: ReadonlyMap<string, FlagSpec>,
    private readonly values: ReadonlyMap<string, FlagValue>,
    private readonly explicit: ReadonlySet<string>,
  ) {}

  string(name: string): string | undefined {
    return this.read(name, 'string') as string | undefined;
  }

  integer(name: string): number | undefined {
    return this.read(name, 'integer') as number | undefined;
  }

  boolean(name: string): boolean {
    return this.read(name, 'boolean') as boolean;
  }

  /** True when the flag was given on the command line (not defaulted). */
  given(name: string): boolean {
    this.spec(name);
    return this.explicit.has(name);
  }

  /** A copy with some values replaced (treated as given), e.g. computed addresses passed to children. */
  with(overrides: Record<string, FlagValue>): ParsedFlags {
    const values = new Map(this.values);
    const explicit = new Set(this.explicit);
    for (const [name, value] of Object.entries(overrides)) {
      this.spec(name);
      values.set(name, value);
      explicit.add(name);
    }
    return new ParsedFlags(this.specs, values, explicit);
  }

  /** The given flags in `-name=value` form, for a child process's command line. */
  toArgs(): string[] {
    return [...this.explicit]
      .filter((name) => this.values.get(name) !== undefined)
      .map((name) => `-${name}=${String(this.values.get(name))}`);
  }

  /** Plain values keyed by flag name (for configs that take a record). */
  toRecord(): Record<string, FlagValue> {
    return Object.fromEntries(this.values);
  }

  private spec(name: string): FlagSpec {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`unknown flag "${name}" read by the program`);
    return spec;
  }

  private read(name: string, type: FlagSpec['type']): FlagValue {
    const spec = this.spec(name);
    if (spec.type !== type) throw new Error(`flag -${name} is ${spec.type}, read as ${type}`);
    return this.values.get(name);
  }
}

export interface ParseResult {
  flags: ParsedFlags;
  positionals: string[];
  help: boolean;
}

/**
 * Parses flags in the seed's form (`-flag value`, `-flag=value`, booleans `-sync` / `-sync=false`),
 * with `--flag` accepted too. Flags may appear before or after the command words. `--` ends flags.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParseResult {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const values = new Map<string, FlagValue>(specs.map((spec) => [spec.name, spec.default]));
  const explicit = new Set<string>();
  const positionals: string[] = [];
  let help = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    let raw: string | undefined = eq === -1 ? undefined : body.slice(eq + 1);
    if (name === 'help' || name === 'h') {
      help = true;
      continue;
    }
    const spec = byName.get(name);
    if (!spec) throw new FlagError(`unknown flag: -${name} (see --help)`);
    if (spec.type === 'boolean') {
      // A following true/false word belongs to the flag (`-sync false`); anything else does not.
      if (raw === undefined && argv[i + 1] !== undefined && argv[i + 1]!.toLowerCase() in booleanWords) raw = argv[++i];
      if (raw === undefined) {
        values.set(name, true);
      } else {
        const word = booleanWords[raw.toLowerCase()];
        if (word === undefined) throw new FlagError(`invalid value "${raw}" for flag -${name}: expected true or false`);
        values.set(name, word);
      }
    } else {
      if (raw === undefined) {
        if (i + 1 >= argv.length) throw new FlagError(`flag -${name} needs a value`);
        raw = argv[++i]!;
      }
      values.set(name, convert(spec, raw));
    }
    explicit.add(name);
  }
  return { flags: new ParsedFlags(byName, values, explicit), positionals, help };
}

function convert(spec: Exclude<FlagSpec, { type: 'boolean' }>, raw: string): FlagValue {
  const shown = spec.type === 'string' && spec.shown ? spec.shown(raw) : raw;
  const bad = (expected: string) => new FlagError(`invalid value "${shown}" for flag -${spec.name}: ${expected}`);
  if (spec.type === 'integer') {
    if (!/^-?\d+$/.test(raw.trim())) throw bad(`expected an integer from ${spec.min} to ${spec.max}`);
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < spec.min || value > spec.max) {
      throw bad(`expected an integer from ${spec.min} to ${spec.max}`);
    }
    return value;
  }
  if (raw === '') throw bad('must not be empty');
  if (spec.choices && !spec.choices.includes(raw)) throw bad(`expected one of ${spec.choices.join(', ')}`);
  const problem = spec.check?.(raw);
  if (problem) throw bad(problem);
  return raw;
}
