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

/**
 * The flags part of --help: one line per flag with its meaning and default; given the parsed
 * flags, each set one also with its value and where it came from.
 */
export function renderFlagHelp(groups: readonly FlagGroup[], flags?: ParsedFlags): string {
  const width = Math.max(...groups.flatMap((g) => g.flags.map((f) => usageName(f).length))) + 2;
  return groups
    .map((group) => {
      const lines = group.flags.map(
        (spec) => `  ${usageName(spec).padEnd(width)}${spec.description} (default: ${defaultText(spec)})${flags ? setText(spec, flags) : ''}`,
      );
      return `${group.title}:\n${lines.join('\n')}`;
    })
    .join('\n\n');
}

/** The flags table of the README, in Markdown. */
export function renderFlagTable(groups: readonly FlagGroup[]): string {
  const rows = groups.flatMap((group) =>
    group.flags.map((spec) => `| \`-${spec.name}\` | ${spec.description} | ${defaultText(spec)} |`),
  );
  return ['| Flag | Meaning | Default |', '|---|---|---|', ...rows].join('\n');
}
