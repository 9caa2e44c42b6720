import { stringFlag, type FlagGroup } from '../flag';

const grpcAddress = (service: string, socket: string) =>
  stringFlag({
    name: `${service}_addr`,
    description: `gRPC address of the ${service.replace('_', '-')} service: unix:PATH or HOST:PORT (serve listens on it, others connect to it)`,
    default: undefined,
    defaultLabel: `unix:<data_dir>/run/${socket}.sock`,
    valueName: 'ADDR',
    check: (value) =>
      /^unix:\/?.+/.test(value) || /^[A-Za-z0-9.[\]:-]+:\d{1,5}$/.test(value) ? undefined : 'must be unix:PATH or HOST:PORT',
  });

/** Where each service listens; the same flag tells the others where to reach it. */
export const serviceOptions: FlagGroup = {
  title: 'Services (one Kubernetes workload each, or child processes of ledger-node)',
  flags: [
    grpcAddress('ledger_store', 'ledger-store'),
    grpcAddress('sync', 'sync'),
    grpcAddress('keystore', 'keystore'),
    grpcAddress('submission', 'submission'),
  ],
};
