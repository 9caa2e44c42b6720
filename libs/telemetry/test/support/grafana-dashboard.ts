/**
 * What a Grafana dashboard asks of Prometheus: every PromQL query of its panels and variables,
 * parsed with Prometheus' own PromQL grammar (@prometheus-io/lezer-promql), reduced to the metric
 * names and label names it reads; and those checked against what the services expose.
 */
import { parser } from '@prometheus-io/lezer-promql';

export interface DashboardQuery {
  /** Where the query sits: `panel "<title>"` or `variable "<name>"`. */
  where: string;
  expr: string;
  /** Labels the legend shows (`{{method}}`): they must exist on the result too. */
  legendLabels: string[];
}

interface Panel {
  title?: string;
  panels?: Panel[];
  targets?: { expr?: string; legendFormat?: string }[];
}

interface Dashboard {
  panels?: Panel[];
  templating?: { list?: { name: string; type: string; query?: string | { query?: string } }[] };
}

/** Labels Prometheus attaches when it scrapes (not in a /metrics answer). */
export const TARGET_LABELS = new Set(['job', 'instance']);

/** Grafana's built-in interval variables, replaced by a duration so that the query parses. */
const GRAFANA_INTERVALS = /\$(__rate_interval|__interval|__range)\b|\$\{(__rate_interval|__interval|__range)\}/g;

/** `label_values(<selector>, <label>)`: a variable's values from Prometheus' series. */
const LABEL_VALUES = /^\s*label_values\((.+),\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*$/s;

/** Every query of the dashboard: each panel's targets (panels inside rows too), then each query variable. */
export function dashboardQueries(dashboard: Dashboard): DashboardQuery[] {
  const queries: DashboardQuery[] = [];
  const visit = (panels: readonly Panel[]) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) {
        if (target.expr === undefined) continue;
        const legendLabels = [...(target.legendFormat ?? '').matchAll(/\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g)].map((match) => match[1]!);
        queries.push({ where: `panel "${panel.title ?? '(untitled)'}"`, expr: target.expr, legendLabels });
      }
      visit(panel.panels ?? []);
    }
  };
  visit(dashboard.panels ?? []);
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const text = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
    const labelValues = LABEL_VALUES.exec(text);
    queries.push(
      labelValues
        ? { where: `variable "${variable.name}"`, expr: labelValues[1]!, legendLabels: [labelValues[2]!] }
        : { where: `variable "${variable.name}"`, expr: text, legendLabels: [] },
    );
  }
  return queries;
}

export interface PromqlUses {
  /** Metric names of the expression's selectors. */
  metrics: string[];
  /** Label names of its matchers and of its `by`, `without`, `on`, `ignoring` and `group_*` clauses. */
  labels: string[];
}

/** The metric and label names a PromQL expression reads; throws on what Prometheus would not parse, or a selector without a metric name. */
export function promqlUses(expr: string): PromqlUses {
  const text = expr.replace(GRAFANA_INTERVALS, '5m');
  const metrics = new Set<string>();
  const labels = new Set<string>();
  const cursor = parser.parse(text).cursor();
  do {
    if (cursor.type.isError) throw new Error(`not PromQL at ${cursor.from}: ${JSON.stringify(text.slice(Math.max(0, cursor.from - 20), cursor.from + 20))}`);
    if (cursor.name === 'LabelName') {
      const label = text.slice(cursor.from, cursor.to);
      if (label === '__name__') throw new Error(`select metrics by name, not by __name__: ${text}`);
      labels.add(label);
    }
    if (cursor.name === 'VectorSelector') {
      const selector = cursor.node;
      const identifier = selector.getChild('Identifier');
      if (identifier === null) throw new Error(`a selector without a metric name: ${text.slice(selector.from, selector.to)}`);
      metrics.add(text.slice(identifier.from, identifier.to));
    }
  } while (cursor.next());
  return { metrics: [...metrics], labels: [...labels] };
}

/** What a set of /metrics answers exposes: every series name, and the label names seen on each. */
export interface Exposition {
  /** Series names: counters and gauges as named, histograms as `_bucket`, `_sum` and `_count`. */
  names: Set<string>;
  /** Series name → label names of its samples (absent for a metric with no sample yet). */
  labels: Map<string, Set<string>>;
}

/** The series names and their label names in Prometheus text expositions (`# TYPE` lines and samples). */
export function readExposition(texts: readonly string[]): Exposition {
  const names = new Set<string>();
  const labels = new Map<string, Set<string>>();
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const type = /^# TYPE (\S+) (\w+)$/.exec(line);
      if (type) {
        const [, name, kind] = type;
        if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name! + suffix);
        else if (kind === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name! + suffix);
        else names.add(name!);
        continue;
      }
      const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$/.exec(line);
      if (!sample) continue;
      const seen = labels.get(sample[1]!) ?? new Set<string>();
      for (const match of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g)) seen.add(match[1]!);
      labels.set(sample[1]!, seen);
    }
  }
  return { names, labels };
}

/**
 * What the dashboard asks for that the exposition lacks, one line each: a query that does not
 * parse, a metric no service exposes, a label none of the query's metrics carries (checked where
 * each of its metrics has samples to show its labels; Prometheus' target labels always pass).
 */
export function dashboardProblems(dashboard: Dashboard, exposition: Exposition): string[] {
  const problems: string[] = [];
  for (const query of dashboardQueries(dashboard)) {
    let uses: PromqlUses;
    try {
      uses = promqlUses(query.expr);
    } catch (error) {
      problems.push(`${query.where}: ${(error as Error).message}`);
      continue;
    }
    if (uses.metrics.length === 0) problems.push(`${query.where}: reads no metric: ${query.expr}`);
    const missing = uses.metrics.filter((metric) => !exposition.names.has(metric));
    for (const metric of missing) problems.push(`${query.where}: no service exposes ${metric}`);
    if (missing.length > 0) continue;
    const labelSets = uses.metrics.map((metric) => exposition.labels.get(metric));
    if (labelSets.some((set) => set === undefined)) continue;
    const known = new Set([...TARGET_LABELS, ...labelSets.flatMap((set) => [...set!])]);
    for (const label of new Set([...uses.labels, ...query.legendLabels])) {
      if (!known.has(label)) problems.push(`${query.where}: no label ${label} on ${uses.metrics.join(', ')}`);
    }
  }
  return problems;
}
