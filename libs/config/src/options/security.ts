import { isIP } from 'node:net';
import { booleanFlag, stringFlag, type FlagGroup } from '../flag';
import { MIN_SECRET_LENGTH } from '../secrets';

export const securityOptions: FlagGroup = {
  title: 'API security',
  flags: [
    stringFlag({
      name: 'rpc_token_file',
      description:
        `File holding a bearer token (${MIN_SECRET_LENGTH}+ characters, mode 0600 or 0400); when set, jt_sign, jt_signTransaction and jt_sendTransaction need "Authorization: Bearer <token>" (without it they are served on a loopback -rpcaddr only)`,
      default: undefined,
      valueName: 'FILE',
    }),
    stringFlag({
      name: 'rpc_allowed_hosts',
      description:
        'Comma-separated host names the JSON-RPC and REST listeners answer (the Host header; "*" for any); IP addresses are always answered: DNS rebinding needs a name',
      default: 'localhost',
      valueName: 'NAMES',
      check: (value) => listProblem(value, (entry) => entry === '*' || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(entry), 'a host name or *'),
    }),
    stringFlag({
      name: 'rpc_cors_origins',
      description:
        'Comma-separated origins (scheme://host[:port], or "*") whose browser pages may call the JSON-RPC and REST listeners; other cross-origin requests are refused (default: none)',
      default: undefined,
      valueName: 'ORIGINS',
      check: (value) => listProblem(value, (entry) => entry === '*' || /^https?:\/\/[^/\s]+$/.test(entry), 'an origin like https://app.example:8443, or *'),
    }),
    stringFlag({
      name: 'trusted_proxies',
      description:
        'Comma-separated addresses or CIDR ranges of reverse proxies (a Kubernetes Ingress controller) whose X-Forwarded-For names the client: signing is shared and sends are limited per client (default: none; the TCP peer is the client)',
      default: undefined,
      valueName: 'ADDRESSES',
      check: (value) => listProblem(value, isAddressOrRange, 'an IP address or a CIDR range like 10.0.0.0/8'),
    }),
    booleanFlag({
      name: 'secret_group_read',
      description:
        "Also accept secret files (tokens, passwords, the passphrase, -endpoint_file, -grpc_tls_key) their group may read but not write, mode 0640 or 0440: what Kubernetes makes of a Secret volume's defaultMode 0400 when the pod sets fsGroup. Others may never read one",
      default: false,
    }),
  ],
};

/** An IPv4 or IPv6 address, or one with a prefix length its family allows (10.0.0.0/8, fd00::/8). */
function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The first entry of a comma-separated list that is not acceptable, as an error message. */
function listProblem(value: string, acceptable: (entry: string) => boolean, what: string): string | undefined {
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !acceptable(entry));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not ${what}`;
}
