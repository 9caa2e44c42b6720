import type { RpcMethod } from '../method';
import { jt_account } from './jt_account';
import { jt_accounts } from './jt_accounts';
import { jt_blockNumber } from './jt_blockNumber';
import { jt_getBalance } from './jt_getBalance';
import { jt_getBlockByHash } from './jt_getBlockByHash';
import { jt_getBlockByNumber } from './jt_getBlockByNumber';
import { jt_getBlockTransactionCountByHash } from './jt_getBlockTransactionCountByHash';
import { jt_getBlockTransactionCountByNumber } from './jt_getBlockTransactionCountByNumber';
import { jt_getProof } from './jt_getProof';
import { jt_getTransactionByBlockHashAndIndex } from './jt_getTransactionByBlockHashAndIndex';
import { jt_getTransactionByBlockNumberAndIndex } from './jt_getTransactionByBlockNumberAndIndex';
import { jt_getTransactionByHash } from './jt_getTransactionByHash';
import { jt_getTransactionCount } from './jt_getTransactionCount';
import { jt_getTransactionProof } from './jt_getTransactionProof';
import { jt_getTransactionReceipt } from './jt_getTransactionReceipt';
import { jt_sendRawTransaction } from './jt_sendRawTransaction';
import { jt_sendRawTransactionAndWait } from './jt_sendRawTransactionAndWait';
import { jt_sendTransaction } from './jt_sendTransaction';
import { jt_sendTransactionAndWait } from './jt_sendTransactionAndWait';
import { jt_sign } from './jt_sign';
import { jt_signTransaction } from './jt_signTransaction';
import { jt_subscribe } from './jt_subscribe';
import { jt_syncing } from './jt_syncing';
import { jt_unsubscribe } from './jt_unsubscribe';

const all = [
  jt_syncing,
  jt_blockNumber,
  jt_getBalance,
  jt_getTransactionCount,
  jt_getBlockTransactionCountByHash,
  jt_getBlockTransactionCountByNumber,
  jt_getBlockByHash,
  jt_getBlockByNumber,
  jt_getTransactionByHash,
  jt_getTransactionByBlockHashAndIndex,
  jt_getTransactionByBlockNumberAndIndex,
  jt_getTransactionReceipt,
  jt_accounts,
  jt_sign,
  jt_sendTransaction,
  jt_signTransaction,
  jt_sendRawTransaction,
  jt_account,
  // Beyond the SPEC: submit and wait.
  jt_sendTransactionAndWait,
  jt_sendRawTransactionAndWait,
  // Beyond the SPEC: proofs.
  jt_getProof,
  jt_getTransactionProof,
  // Over the WebSocket at /v1/ws: streams.
  jt_subscribe,
  jt_unsubscribe,
];

/** Every JSON-RPC method, by name. */
export const methods: ReadonlyMap<string, RpcMethod> = new Map((all as unknown as RpcMethod[]).map((method) => [method.name, method]));
