import { describe, expect, it } from 'vitest';
import { methods } from './methods/index';
import { openRpcDocument, withDiscovery } from './openrpc';

/** SPEC §4.1's method table: each method's parameters, in order, and which are required. */
const specTable: Record<string, [string, boolean][]> = {
  jt_syncing: [],
  jt_blockNumber: [],
  jt_getBalance: [['address', true], ['block', true]],
  jt_getTransactionCount: [['address', true], ['block', true]],
  jt_getBlockTransactionCountByHash: [['blockHash', true]],
  jt_getBlockTransactionCountByNumber: [['blockNumber', true]],
  jt_getBlockByHash: [['blockHash', true], ['fullTransactions', true]],
  jt_getBlockByNumber: [['blockNumber', true], ['fullTransactions', true]],
  jt_getTransactionByHash: [['transactionHash', true]],
  jt_getTransactionByBlockHashAndIndex: [['blockHash', true], ['transactionIndex', true]],
  jt_getTransactionByBlockNumberAndIndex: [['blockNumber', true], ['transactionIndex', true]],
  jt_getTransactionReceipt: [['transactionHash', true]],
  jt_accounts: [],
  jt_sign: [['address', true], ['message', true]],
  jt_sendTransaction: [['transaction', true]],
  jt_signTransaction: [['transaction', true]],
  jt_sendRawTransaction: [['signedTransaction', true]],
  jt_account: [['address', true], ['page', false], ['perPage', false], ['newestFirst', false], ['direction', false]],
};

/** Methods beyond the SPEC (README "What a send returns"): submit and wait. */
const beyondSpec: Record<string, [string, boolean][]> = {
  jt_sendTransactionAndWait: [['transaction', true], ['timeoutSeconds', false]],
  jt_sendRawTransactionAndWait: [['signedTransaction', true], ['timeoutSeconds', false]],
};

describe('the OpenRPC document (rpc.discover)', () => {
  const document = openRpcDocument(withDiscovery(methods));

  it('lists every method of the SPEC table, the two beyond it, and rpc.discover', () => {
    expect(document.methods.map((method) => method.name).sort()).toEqual([...Object.keys(specTable), ...Object.keys(beyondSpec), 'rpc.discover'].sort());
  });

  it.each(Object.entries({ ...specTable, ...beyondSpec }))('%s takes its parameters in the SPEC order', (name, params) => {
    const method = document.methods.find((candidate) => candidate.name === name)!;
    expect(method.params.map((param) => [param.name, param.required])).toEqual(params);
    expect(method.result.schema).toBeTypeOf('object');
    expect(method.summary.length).toBeGreaterThan(10);
  });

  it('rpc.discover answers with the document', async () => {
    const discover = withDiscovery(methods).get('rpc.discover')!;
    expect(await discover.handler([] as never, {} as never)).toEqual(document);
  });
});
