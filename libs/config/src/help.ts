import type { FlagGroup, FlagSpec } from './flag';
import { originText, type ParsedFlags } from './parse';

function defaultText(spec: FlagSpec): string {
  if (spec.defaultLabel) return spec.defaultLabel;
  if (spec.default === undefined) return 'none';
  return String(spec.default);
}

function usageName(spec: FlagSpec): string {
  if (spec.type === 'boolean') return `-${spec.name}[=true|false]`;
  const value = spec.valueName ?? (spec.type === 'string' && spec.choices ? spec.choices.join('|') : 'VALUE');
  return `-${spec.name} ${value}`;
}

/** `[value from LEDGER_NODE_X]` for a flag the command line, the environment or the -config file set; '' for a defaulted one. */
function setText(spec: FlagSpec, flags: ParsedFlags): string {
  const origin = flags.origin(spec.name);
  if (origin.kind === 'default') return '';
  const value = spec.type === 'boolean' ? flags.boolean(spec.name) : spec.type === 'integer' ? flags.integer(spec.name) : flags.string(spec.name);
  const shown = spec.type === 'string' && spec.shown && typeof value === 'string' ? spec.shown(value) : String(value);
  return ` [${shown} from ${originText(origin, spec.name)}]`;
}

/** The columns help is wrapped to: the terminal's width, or 80 when the output is not a terminal. */
export function helpWidth(output: { isTTY?: boolean; columns?: number } = process.stdout): number {
  return output.isTTY && output.columns ? Math.max(40, output.columns) : 80;
}

/** The words of `text` in lines of at most `width` columns (a longer word stands alone). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A paragraph wrapped to `width`, each line after `indent` spaces. */
export function wrapParagraph(text: string, width: number, indent = 0): string {
  return wrapWords(text, Math.max(20, width - indent))
    .map((line) => `${' '.repeat(indent)}${line}`)
    .join('\n');
}

/**
 * One entry of a help list: `  head` and its text from `column` on, wrapped to `width` with the
 * following lines at `column`; a head too long for the column puts the text on the next line.
 */
export function helpEntry(head: string, text: string, column: number, width: number): string {
  const lines = wrapWords(text, Math.max(20, width - column));
  const first = `  ${head}`;
  if (first.length + 2 > column) return [first, ...lines.map((line) => `${' '.repeat(column)}${line}`)].join('\n');
  return lines.map((line, at) => (at === 0 ? first.padEnd(column) : ' '.repeat(column)) + line).join('\n');
}

/** Where the flags' texts start: after the longest usage, within a third of the width. */
function flagColumn(groups: readonly FlagGroup[], width: number): number {
  const longest = Math.max(...groups.flatMap((group) => group.flags.map((spec) => usageName(spec).length)));
  return Math.min(longest + 4, Math.max(24, Math.floor(width / 3)));
}

/**
 * The flags part of --help: each flag with its meaning and default, wrapped to `width`; given the
 * parsed flags, each set one also with its value and where it came from.
 */
export function renderFlagHelp(groups: readonly FlagGroup[], flags?: ParsedFlags, width = 80): string {
  const column = flagColumn(groups, width);
  return groups
    .map((group) => {
      const entries = group.flags.map((spec) =>
        helpEntry(usageName(spec), `${spec.description} (default: ${defaultText(spec)})${flags ? setText(spec, flags) : ''}`, column, width),
      );
      return `${wrapParagraph(`${group.title}:`, width)}\n${entries.join('\n')}`;
    })
    .join('\n\n');
}

/** The flags table of docs/operating.md, in Markdown. */
export function renderFlagTable(groups: readonly FlagGroup[]): string {
  const rows = groups.flatMap((group) =>
    group.flags.map((spec) => `| \`-${spec.name}\` | ${spec.description} | ${defaultText(spec)} |`),
  );
  return ['| Flag | Meaning | Default |', '|---|---|---|', ...rows].join('\n');
}
