import type { FlagGroup, FlagSpec } from './flag';

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

/** The flags part of --help: one line per flag with its meaning and default. */
export function renderFlagHelp(groups: readonly FlagGroup[]): string {
  const width = Math.max(...groups.flatMap((g) => g.flags.map((f) => usageName(f).length))) + 2;
  return groups
    .map((group) => {
      const lines = group.flags.map(
        (spec) => `  ${usageName(spec).padEnd(width)}${spec.description} (default: ${defaultText(spec)})`,
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
