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
    stringFlag({
      name: 'grpc_tls_cert',
      description: 'PEM certificate of this service for gRPC over TCP (mutual TLS; its CN or DNS names name the service: ledger-store, sync, keystore, submission, facade)',
      default: undefined,
      valueName: 'FILE',
    }),
    stringFlag({ name: 'grpc_tls_key', description: 'PEM private key of -grpc_tls_cert (mode 0600 or 0400)', default: undefined, valueName: 'FILE' }),
    stringFlag({
      name: 'grpc_tls_ca',
      description: 'PEM certificate of the CA that signs every service certificate; gRPC over TCP admits only its certificates (without the three, gRPC is unix sockets only)',
      default: undefined,
      valueName: 'FILE',
    }),
  ],
};
