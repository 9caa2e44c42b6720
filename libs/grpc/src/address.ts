import { InvalidParams } from '@ledger-node/errors';

export type GrpcAddress = { kind: 'unix'; path: string; target: string } | { kind: 'tcp'; host: string; port: number; target: string };

/** Longest unix socket path the kernel accepts (sun_path is 108 bytes with the terminating NUL). */
const maxSocketPath = 107;

/** Parses `unix:/path/to.sock` or `host:port`. */
export function parseGrpcAddress(address: string): GrpcAddress {
  if (address.startsWith('unix:')) {
    const path = address.slice('unix:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new InvalidParams(`gRPC address "${address}" has no socket path`);
    if (Buffer.byteLength(path) > maxSocketPath) {
      throw new InvalidParams(`unix socket path is longer than ${maxSocketPath} bytes: ${path} (use a shorter -data_dir or an explicit address)`);
    }
    return { kind: 'unix', path, target: `unix:${path}` };
  }
  const match = /^(.+):(\d{1,5})$/.exec(address);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new InvalidParams(`gRPC address "${address}" is neither unix:PATH nor HOST:PORT`);
  const host = match[1]!.replace(/^\[(.*)\]$/, '$1');
  return { kind: 'tcp', host, port, target: `${host.includes(':') ? `[${host}]` : host}:${port}` };
}
