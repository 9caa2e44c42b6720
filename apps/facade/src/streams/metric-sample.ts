/** Tests' reading of this process's metrics: one sample's value by metric name and labels. */
import { metricsText } from '@ledger-node/telemetry';

/** The value of `name`'s sample whose labels include `labels`; 0 when it has none. */
export async function metricSample(name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const body = (await metricsText()).body;
  for (const line of body.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([label, value]) => found[label] === value)) return Number(match[3]);
  }
  return 0;
}
