/**
 * The file -config names: flag values keyed by flag name, in TOML (`.toml`) or JSON (`.json`).
 * Only the reading is here; parse.ts checks each value as the same flag on the command line.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { FlagError } from './flag';

const formats = ['.toml', '.json'] as const;

/** The table of a -config file: each key a flag name, each value as the file wrote it (checked by the caller). */
export function readConfigFile(file: string): Record<string, unknown> {
  const format = path.extname(file).toLowerCase();
  if (!(formats as readonly string[]).includes(format)) throw new FlagError(`-config ${file}: expected a .toml or .json file`);
  let text: string;
  try {
    if (!statSync(file).isFile()) throw new FlagError(`cannot read -config ${file}: not a regular file`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof FlagError) throw error;
    throw new FlagError(`cannot read -config ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const table = format === '.toml' ? tomlTable(file, text) : jsonTable(file, text);
  if (typeof table !== 'object' || table === null || Array.isArray(table)) throw new FlagError(`-config ${file} must hold one table of flag names and values`);
  return { ...table } as Record<string, unknown>;
}

function tomlTable(file: string, text: string): unknown {
  try {
    return parseToml(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is "Invalid TOML document: <reason>" followed by a code excerpt: one line is kept.
    const reason = error.message.split('\n', 1)[0]!.replace(/^Invalid TOML document: /, '');
    throw new FlagError(`-config ${file} is not valid TOML: ${reason} (line ${error.line}, column ${error.column})`);
  }
}

function jsonTable(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new FlagError(`-config ${file} is not valid JSON: ${error.message}`);
  }
}
