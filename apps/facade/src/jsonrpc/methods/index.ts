import type { RpcMethod } from '../method';
import { jt_blockNumber } from './jt_blockNumber';

/** Every JSON-RPC method, by name. */
export const methods: ReadonlyMap<string, RpcMethod> = new Map(
  ([jt_blockNumber] as unknown as RpcMethod[]).map((method) => [method.name, method]),
);
