import { booleanFlag, integerFlag, stringFlag, type FlagGroup } from '../flag';
import type { ParsedFlags } from '../parse';

/**
 * Each service serves /metrics on `-metrics_port` plus its offset, so that the services of one
 * `ledger-node` (all on one host) never collide; `serve <service>` applies the same offset.
 */
export const metricsPortOffsets = { 'ledger-store': 0, keystore: 1, submission: 2, sync: 3, facade: 4 } as const;
export type MetricsService = keyof typeof metricsPortOffsets;

const highestOffset = Math.max(...Object.values(metricsPortOffsets));

export const observabilityOptions: FlagGroup = {
  title: 'Observability (traces: the standard OTEL_* environment variables, off when unset)',
  flags: [
    stringFlag({
      name: 'log_format',
      description: 'Log lines as json (one object per line) or pretty (for a person: time, level, service, message, fields); auto: pretty on a terminal, json otherwise',
      default: 'auto',
      choices: ['auto', 'json', 'pretty'],
    }),
    stringFlag({ name: 'metrics_addr', description: 'Address on which the Prometheus /metrics endpoints listen', default: 'localhost', valueName: 'HOST' }),
    integerFlag({
      name: 'metrics_port',
      description:
        'Base port of the Prometheus /metrics endpoints (0: off): ledger-store serves on it, keystore on +1, submission +2, sync +3, facade +4',
      default: 0,
      min: 0,
      max: 65535 - highestOffset,
      valueName: 'PORT',
    }),
    booleanFlag({
      name: 'listener_metrics',
      description: 'Also answer /metrics on the JSON-RPC and REST listeners (it tells whoever reaches them about the node\'s load and internals)',
      default: false,
    }),
    integerFlag({
      name: 'slow_ms',
      description: 'A JSON-RPC call slower than this many milliseconds is logged with its method, duration and trace id (0: every call)',
      default: 500,
      min: 0,
      max: 3_600_000,
      valueName: 'MS',
    }),
    integerFlag({
      name: 'ready_lag',
      description: "The facade's /readyz fails while sync is more than this many ledgers behind the upstream",
      default: 5,
      min: 1,
      max: 4_294_967_295,
      valueName: 'LEDGERS',
    }),
  ],
};

/** Where `service` serves /metrics, or undefined when -metrics_port is 0. */
export function metricsListener(flags: ParsedFlags, service: MetricsService): { host: string; port: number } | undefined {
  const base = flags.integer('metrics_port') ?? 0;
  if (base === 0) return undefined;
  return { host: flags.string('metrics_addr') ?? 'localhost', port: base + metricsPortOffsets[service] };
}
