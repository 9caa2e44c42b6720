/**
 * `ledger-node probe <service>`: asks one gRPC service of the node (ledger-store, keystore,
 * submission, sync) for its grpc.health.v1 state at the address its flag names, over this
 * process's mutual TLS when that address is TCP. Prints the state; exit 0 when SERVING, 1
 * otherwise. Kubernetes runs it as an exec probe: the kubelet's own gRPC probe cannot present a
 * client certificate.
 */
import { FlagError, serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { checkHealth } from '@ledger-node/grpc';

const PROBED = ['ledger-store', 'keystore', 'submission', 'sync'] as const;
type ProbedService = (typeof PROBED)[number];

/** A probe answers well within a Kubernetes probe's default 1 s timeout. */
const PROBE_DEADLINE_MS = 800;

export async function runProbe(rest: string[], flags: ParsedFlags): Promise<number> {
  const [service, ...extra] = rest;
  if (!service || !(PROBED as readonly string[]).includes(service)) throw new FlagError(`probe needs a gRPC service: ${PROBED.join(', ')}`);
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see --help)`);
  const address = serviceAddress(flags, service as ProbedService);
  try {
    const state = await checkHealth(address, '', PROBE_DEADLINE_MS, service);
    process.stdout.write(`${service} ${state}\n`);
    return state === 'SERVING' ? 0 : 1;
  } catch (error) {
    process.stdout.write(`${service} UNREACHABLE: ${(error as Error).message}\n`);
    return 1;
  }
}
