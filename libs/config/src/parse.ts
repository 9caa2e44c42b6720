import { FlagError, type FlagSpec, type FlagValue } from './flag';
import { readConfigFile } from './config-file';

const booleanWords: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };

/**
 * Where a flag's value came from. Several sources may set one flag; the first of the command line,
 * the environment (`LEDGER_NODE_<FLAG>`), the -config file wins, else the declared default.
 */
export type FlagOrigin = { kind: 'default' } | { kind: 'flag' } | { kind: 'env'; variable: string } | { kind: 'file'; file: string };
/** The origin of a value that was set (not defaulted). */
type SetOrigin = Exclude<FlagOrigin, { kind: 'default' }>;

/** The environment variable that sets a flag: `LEDGER_NODE_` and the flag's name in upper case. */
export function envVariable(flagName: string): string {
  return `LEDGER_NODE_${flagName.toUpperCase()}`;
}

/** A flag's origin as messages and --help name it: `-rpcport`, `LEDGER_NODE_RPCPORT`, `/etc/ledger-node.toml`. */
export function originText(origin: FlagOrigin, flagName: string): string {
  switch (origin.kind) {
    case 'default':
      return 'the default';
    case 'flag':
      return `-${flagName}`;
    case 'env':
      return origin.variable;
    case 'file':
      return origin.file;
  }
}

/** Flag values after parsing: every declared flag has a value (its default when not given). */
export class ParsedFlags {
  constructor(
    private readonly specs: ReadonlyMap<string, FlagSpec>,
    private readonly values: ReadonlyMap<string, FlagValue>,
    private readonly origins: ReadonlyMap<string, SetOrigin>,
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

  /** True when the flag was set (on the command line, in the environment or in the -config file), not defaulted. */
  given(name: string): boolean {
    this.spec(name);
    return this.origins.has(name);
  }

  /** Where the flag's value came from. */
  origin(name: string): FlagOrigin {
    this.spec(name);
    return this.origins.get(name) ?? { kind: 'default' };
  }

  /** A copy with some values replaced (treated as given), e.g. computed addresses passed to children. */
  with(overrides: Record<string, FlagValue>): ParsedFlags {
    const values = new Map(this.values);
    const origins = new Map(this.origins);
    for (const [name, value] of Object.entries(overrides)) {
      this.spec(name);
      values.set(name, value);
      origins.set(name, { kind: 'flag' });
    }
    return new ParsedFlags(this.specs, values, origins);
  }

  /**
   * Every set flag in `-name=value` form, for a child process's command line: the values the
   * environment or the -config file gave too, so that a child sees the same values as its parent
   * whatever its own environment. -config itself is left out, the values it gave being there.
   */
  toArgs(): string[] {
    return [...this.origins.keys()]
      .filter((name) => name !== configFlagName && this.values.get(name) !== undefined)
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
  /** `--version` (or `-version`) was given. */
  version: boolean;
}

export interface FlagSources {
  /** The environment whose `LEDGER_NODE_<FLAG>` variables set flags (the CLI passes process.env); none when absent. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The flag naming the file of flag values (libs/config/src/options/config.ts declares it). */
const configFlagName = 'config';

/** Levenshtein distance: the fewest single-character edits from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate a mistyped `name` most likely meant: within two edits (one for a short name), the nearest, else none. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = name.length <= 4 ? 1 : 2;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** ` (did you mean -rpcport?)`, or nothing when no flag is near. */
function didYouMean(name: string, byName: ReadonlyMap<string, FlagSpec>, prefix = '-'): string {
  const near = nearestName(name, byName.keys());
  return near === undefined ? '' : ` (did you mean ${prefix}${near}?)`;
}

/**
 * Parses flags in the seed's form (`-flag value`, `-flag=value`, booleans `-sync` / `-sync=false`),
 * with `--flag` accepted too. Flags may appear before or after the command words. `--` ends flags.
 * A flag not on the command line is then taken from `LEDGER_NODE_<FLAG>` in `sources.env`, else from
 * the file -config names (TOML or JSON), else its default. Every value is checked the same way
 * wherever it comes from, and an error names where the bad one came from. `--version` needs no
 * other source: the environment and the file are not read for it.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[], sources: FlagSources = {}): ParseResult {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const values = new Map<string, FlagValue>(specs.map((spec) => [spec.name, spec.default]));
  const origins = new Map<string, SetOrigin>();
  const positionals: string[] = [];
  let help = false;
  let version = false;

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
    if (name === 'version' && raw === undefined) {
      version = true;
      continue;
    }
    const spec = byName.get(name);
    if (!spec) throw new FlagError(`unknown flag: -${name}${didYouMean(name, byName)} (see --help)`);
    const origin = { kind: 'flag' } as const;
    if (spec.type === 'boolean') {
      // A following true/false word belongs to the flag (`-sync false`); anything else does not.
      if (raw === undefined && argv[i + 1] !== undefined && argv[i + 1]!.toLowerCase() in booleanWords) raw = argv[++i];
      values.set(name, raw === undefined ? true : booleanWord(spec.name, raw, origin));
    } else {
      if (raw === undefined) {
        if (i + 1 >= argv.length) throw new FlagError(`flag -${name} needs a value`);
        raw = argv[++i]!;
      }
      values.set(name, convert(spec, raw, origin));
    }
    origins.set(name, origin);
  }

  // `--version` and the `version` command answer whatever the environment and a -config file say.
  if (!version && !(positionals[0] === 'version' && !help)) {
    // Each value of the environment and of the file is checked even where the command line overrides it: a bad one is a mistake either way.
    if (sources.env !== undefined) {
      // A LEDGER_NODE_ variable a letter or two from a flag's is a typo, refused as one in a -config
      // file is; variables far from every flag (the tests' own, LEDGER_NODE_PASSWORD) are not flags.
      const variables = new Set(specs.map((spec) => envVariable(spec.name)));
      for (const variable of Object.keys(sources.env)) {
        if (!variable.startsWith('LEDGER_NODE_') || variables.has(variable) || variable === 'LEDGER_NODE_PASSWORD') continue;
        const near = nearestName(variable.slice('LEDGER_NODE_'.length).toLowerCase(), byName.keys());
        if (near !== undefined) throw new FlagError(`unknown variable ${variable} (did you mean ${envVariable(near)}? each LEDGER_NODE_<FLAG> sets a flag; see --help)`);
      }
      for (const spec of specs) {
        const variable = envVariable(spec.name);
        const raw = sources.env[variable];
        if (raw === undefined) continue;
        const origin = { kind: 'env', variable } as const;
        const value = spec.type === 'boolean' ? booleanWord(spec.name, raw, origin) : convert(spec, raw, origin);
        if (origins.has(spec.name)) continue;
        values.set(spec.name, value);
        origins.set(spec.name, origin);
      }
    }
    const file = byName.has(configFlagName) ? (values.get(configFlagName) as string | undefined) : undefined;
    if (file !== undefined) {
      for (const [name, written] of Object.entries(readConfigFile(file))) {
        const spec = byName.get(name);
        if (!spec) throw new FlagError(`unknown flag "${name}" in -config ${file}${didYouMean(name, byName, '')} (see --help)`);
        if (name === configFlagName) throw new FlagError(`-config ${file} names another config file: give one on the command line or in ${envVariable(configFlagName)}`);
        const origin = { kind: 'file', file } as const;
        const value = fileValue(spec, written, origin);
        if (origins.has(name)) continue;
        values.set(name, value);
        origins.set(name, origin);
      }
    }
  }
  return { flags: new ParsedFlags(byName, values, origins), positionals, help, version };
}

/** `for flag -x` and, for a value from elsewhere than the command line, where it came from. */
function flagNamed(name: string, origin: SetOrigin): string {
  return origin.kind === 'flag' ? `flag -${name}` : `flag -${name} (from ${originText(origin, name)})`;
}

function booleanWord(name: string, raw: string, origin: SetOrigin): boolean {
  const word = booleanWords[raw.toLowerCase()];
  if (word === undefined) throw new FlagError(`invalid value "${raw}" for ${flagNamed(name, origin)}: expected true or false`);
  return word;
}

/** A value the -config file holds (a TOML or JSON string, integer or boolean), checked as the same value on the command line would be. */
function fileValue(spec: FlagSpec, written: unknown, origin: Extract<FlagOrigin, { kind: 'file' }>): FlagValue {
  const bad = (expected: string) => new FlagError(`invalid value ${JSON.stringify(written) ?? String(written)} for ${flagNamed(spec.name, origin)}: ${expected}`);
  if (spec.type === 'boolean') {
    if (typeof written === 'boolean') return written;
    if (typeof written === 'string') return booleanWord(spec.name, written, origin);
    throw bad('expected true or false');
  }
  if (spec.type === 'integer') {
    if (typeof written === 'number' && Number.isInteger(written)) return convert(spec, String(written), origin);
    if (typeof written === 'string') return convert(spec, written, origin);
    throw bad(`expected an integer from ${spec.min} to ${spec.max}`);
  }
  if (typeof written !== 'string') throw bad('expected a string');
  return convert(spec, written, origin);
}

function convert(spec: Exclude<FlagSpec, { type: 'boolean' }>, raw: string, origin: SetOrigin): FlagValue {
  const shown = spec.type === 'string' && spec.shown ? spec.shown(raw) : raw;
  const bad = (expected: string) => new FlagError(`invalid value "${shown}" for ${flagNamed(spec.name, origin)}: ${expected}`);
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
