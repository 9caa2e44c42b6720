/**
 * The figures of a bench run, each beside its baseline from the same run, with the ratio and the
 * goal it is judged against; printed as a table and written as JSON.
 */

export interface Goal {
  /** How the goal reads in the table, e.g. "ratio ≥ 0.30". */
  text: string;
  met: boolean;
}

export interface Figure {
  name: string;
  value: number | undefined;
  unit: string;
  baselineName?: string;
  baseline?: number;
  /** value ÷ baseline (or the figure's own definition, e.g. a fraction lost). */
  ratio?: number;
  /** Undefined: reported only. */
  goal?: Goal;
  note?: string;
}

export type Verdict = 'pass' | 'short' | 'reported' | 'missing';

export function verdictOf(figure: Figure): Verdict {
  if (figure.value === undefined || Number.isNaN(figure.value)) return 'missing';
  if (!figure.goal) return 'reported';
  return figure.goal.met ? 'pass' : 'short';
}

export function ratioOf(value: number | undefined, baseline: number | undefined): number | undefined {
  if (value === undefined || baseline === undefined || baseline === 0) return undefined;
  return value / baseline;
}

/** At least `minimum` (inclusive); false when either side is unknown. */
export const atLeast = (value: number | undefined, minimum: number) => value !== undefined && value >= minimum;
export const atMost = (value: number | undefined, maximum: number) => value !== undefined && value <= maximum;

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function formatValue(value: number | undefined, unit: string): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (unit === '%') return `${(value * 100).toFixed(1)} %`;
  return `${formatNumber(value)} ${unit}`.trim();
}

export interface TableRow {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
  result: Verdict;
}

export function tableRows(figures: readonly Figure[]): TableRow[] {
  return figures.map((figure) => ({
    figure: figure.name,
    value: formatValue(figure.value, figure.unit),
    baseline: figure.baselineName ? `${figure.baselineName} ${formatValue(figure.baseline, figure.unit)}` : '—',
    ratio: figure.ratio === undefined ? '—' : figure.ratio.toFixed(2),
    goal: figure.goal?.text ?? 'reported',
    result: verdictOf(figure),
  }));
}

const columns: { key: keyof TableRow; title: string }[] = [
  { key: 'figure', title: 'figure' },
  { key: 'value', title: 'value' },
  { key: 'baseline', title: 'baseline (same run)' },
  { key: 'ratio', title: 'ratio' },
  { key: 'goal', title: 'goal' },
  { key: 'result', title: 'result' },
];

/** Titles and rows of cells as a plain-text table for the terminal, each column as wide as its widest cell. */
export function renderTextTable(titles: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = titles.map((title, position) => Math.max(title.length, ...rows.map((row) => row[position]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, position) => cell.padEnd(widths[position]!)).join('  ').trimEnd();
  return [line(titles), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** The same in Markdown, for docs/internals.md: the first cell of each row (a figure or stage name) as code. */
export function renderMarkdownTable(titles: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${titles.join(' | ')} |`, `|${titles.map(() => '---').join('|')}|`, ...rows.map(([name, ...rest]) => `| \`${name}\` | ${rest.join(' | ')} |`)].join('\n');
}

const figureTitles = columns.map((column) => column.title);
const figureCells = (figures: readonly Figure[]) => tableRows(figures).map((row) => columns.map((column) => row[column.key]));

/** The figures as a plain-text table for the terminal. */
export function textTable(figures: readonly Figure[]): string {
  return renderTextTable(figureTitles, figureCells(figures));
}

/** The same table in Markdown, for docs/internals.md. */
export function markdownTable(figures: readonly Figure[]): string {
  return renderMarkdownTable(figureTitles, figureCells(figures));
}

/** One figure measured on each store (`--store postgres`): RocksDB's and PostgreSQL's, same run, same history. */
export interface StoreComparison {
  name: string;
  unit: string;
  rocksdb: number | undefined;
  postgres: number | undefined;
  /** The bound PostgreSQL ÷ RocksDB is judged against; none: reported only. */
  goal?: { atLeast: number } | { atMost: number };
  note?: string;
}

const comparisonColumns = ['figure', 'rocksdb', 'postgres', 'postgres ÷ rocksdb', 'goal', 'result', 'note'] as const;

/** How a comparison's ratio is judged: its goal's text and the verdict. */
export function comparisonVerdict(comparison: StoreComparison): { goal: string; result: Verdict } {
  const ratio = ratioOf(comparison.postgres, comparison.rocksdb);
  const { goal } = comparison;
  if (!goal) return { goal: 'reported', result: ratio === undefined ? 'missing' : 'reported' };
  const text = 'atLeast' in goal ? `ratio ≥ ${goal.atLeast.toFixed(2)}` : `ratio ≤ ${goal.atMost.toFixed(2)}`;
  if (ratio === undefined) return { goal: text, result: 'missing' };
  return { goal: text, result: ('atLeast' in goal ? atLeast(ratio, goal.atLeast) : atMost(ratio, goal.atMost)) ? 'pass' : 'short' };
}

function comparisonCells(comparisons: readonly StoreComparison[]): string[][] {
  return comparisons.map((comparison) => {
    const ratio = ratioOf(comparison.postgres, comparison.rocksdb);
    const { goal, result } = comparisonVerdict(comparison);
    return [
      comparison.name,
      formatValue(comparison.rocksdb, comparison.unit),
      formatValue(comparison.postgres, comparison.unit),
      ratio === undefined ? '—' : ratio.toFixed(2),
      goal,
      result,
      comparison.note ?? '',
    ];
  });
}

/** The stores side by side, a column each, for the terminal. */
export function comparisonTextTable(comparisons: readonly StoreComparison[]): string {
  return renderTextTable(comparisonColumns, comparisonCells(comparisons));
}

/** The same in Markdown, for docs/internals.md. */
export function comparisonMarkdownTable(comparisons: readonly StoreComparison[]): string {
  return renderMarkdownTable(comparisonColumns, comparisonCells(comparisons));
}

/**
 * Two loads measured in turns (each turn the baseline's load, then the compared one's, so that a
 * slow spell of the machine falls on both): each side's median rate, and the median of the turns'
 * value ÷ baseline ratios. One load of each minutes apart moved by more than the difference measured.
 */
export function turnsRatio(turns: readonly { baseline: number; value: number }[]): { baseline: number; value: number; ratio: number } {
  if (turns.length === 0) throw new Error('no turn of the compared loads was measured');
  const median = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  return {
    baseline: median(turns.map((turn) => turn.baseline)),
    value: median(turns.map((turn) => turn.value)),
    ratio: median(turns.map((turn) => turn.value / turn.baseline)),
  };
}
