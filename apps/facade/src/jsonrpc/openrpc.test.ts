import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildVersion } from '@ledger-node/telemetry';
import { methods } from './methods/index';
import { openRpcDocument, withDiscovery } from './openrpc';
import { parseParams } from './method';
import { RpcCode } from './protocol';

/**
 * The OpenRPC tooling (@open-rpc/schema-utils-js), typed by what these tests use: its published
 * declarations lead to TypeScript sources of @open-rpc/spec-types that fail this workspace's compiler
 * settings (noUnusedLocals), so the module is loaded without them.
 */
interface OpenRpcTools {
  validateOpenRPCDocument(document: unknown): true | Error;
  MethodCallValidator: new (document: unknown) => { validate(methodName: string, params: unknown[]): unknown[] | Error };
}
const { MethodCallValidator, validateOpenRPCDocument } = (await import('@open-rpc/schema-utils-js' as string)) as OpenRpcTools;

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

/** Methods beyond the SPEC: submit and wait (docs/api.md "What a send returns"), streams over /v1/ws, proofs (docs/api.md "Proofs"). */
const beyondSpec: Record<string, [string, boolean][]> = {
  jt_sendTransactionAndWait: [['transaction', true], ['timeoutSeconds', false]],
  jt_sendRawTransactionAndWait: [['signedTransaction', true], ['timeoutSeconds', false]],
  jt_getProof: [['address', true], ['block', true], ['trustLines', false]],
  jt_subscribe: [['subscription', true], ['options', false]],
  jt_unsubscribe: [['subscriptionId', true]],
  jt_getTransactionProof: [['transactionHash', true]],
};

describe('the OpenRPC document (rpc.discover)', () => {
  const document = openRpcDocument(withDiscovery(methods));

  it('lists every method of the SPEC table, those beyond it, and rpc.discover', () => {
    expect(document.methods.map((method) => method.name).sort()).toEqual([...Object.keys(specTable), ...Object.keys(beyondSpec), 'rpc.discover'].sort());
  });

  it.each(Object.entries({ ...specTable, ...beyondSpec }))('%s takes its parameters in the SPEC order', (name, params) => {
    const method = document.methods.find((candidate) => candidate.name === name)!;
    expect(method.params.map((param) => [param.name, param.required])).toEqual(params);
    expect(method.result.schema).toBeTypeOf('object');
    expect(method.summary.length).toBeGreaterThan(10);
  });

  it("gives the node's build as info.version: the version and the commit", () => {
    expect(document.info.version).toBe(buildVersion());
  });

  it('rpc.discover answers with the document', async () => {
    const discover = withDiscovery(methods).get('rpc.discover')!;
    expect(await discover.handler([] as never, {} as never)).toEqual(document);
  });
});

describe('the OpenRPC document, read by the OpenRPC tooling', () => {
  const all = withDiscovery(methods);
  const document = openRpcDocument(all);

  it('is a valid OpenRPC 1.3.2 document (validateOpenRPCDocument)', () => {
    expect(validateOpenRPCDocument(document)).toBe(true);
  });

  it('writes its schemas in JSON Schema draft-07, the dialect the tooling compiles: no $schema of another draft, no 2020-12 keyword', () => {
    const keys = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          keys.add(key);
          walk(child);
        }
      }
    };
    walk(document.methods.map((method) => [method.params.map((param) => param.schema), method.result.schema]));
    for (const keyword of ['$schema', '$defs', 'prefixItems', '$dynamicRef', 'unevaluatedProperties', 'dependentRequired']) expect(keys).not.toContain(keyword);
  });

  it('gives block selectors as an enum of tags or a pattern, so that MethodCallValidator checks them', () => {
    const validator = new MethodCallValidator(document);
    const blockNumber = document.methods.find((method) => method.name === 'jt_getBlockByNumber')!.params[0]!.schema as { anyOf: Record<string, unknown>[] };
    expect(blockNumber.anyOf).toContainEqual({ type: 'string', enum: ['earliest', 'latest', 'pending', 'current', 'validated', 'closed'] });
    expect(blockNumber.anyOf).toContainEqual({ type: 'string', pattern: '^(0x[0-9a-fA-F]{1,16}|\\d{1,16})$' });
    expect(validator.validate('jt_getBlockByNumber', ['latest', false])).toEqual([]);
    expect(validator.validate('jt_getBlockByNumber', ['0x94f1', true])).toEqual([]);
    for (const selector of ['Latest', 'toString', '12abc', -1, 1.5]) expect(validator.validate('jt_getBlockByNumber', [selector, false]), String(selector)).toHaveLength(1);
    expect(validator.validate('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'earliest'])).toHaveLength(1);
  });

  it('lists the errors of every method with their JSON-RPC codes: those of every call, then its own', () => {
    const codes = (name: string) => document.methods.find((method) => method.name === name)!.errors.map((error) => error.code);
    for (const method of document.methods) {
      expect(codes(method.name), method.name).toEqual(expect.arrayContaining([RpcCode.invalidParams, RpcCode.internal, RpcCode.serviceUnavailable]));
      for (const error of method.errors) expect(error.message.length, `${method.name} ${error.code}`).toBeGreaterThan(5);
    }
    expect(codes('jt_getBalance')).toEqual(expect.arrayContaining([RpcCode.outOfRange, RpcCode.accountNotFound]));
    expect(codes('jt_sendTransaction')).toEqual(expect.arrayContaining([RpcCode.unauthorized, RpcCode.noLocalAccount, RpcCode.rateLimited]));
    expect(codes('jt_sendRawTransactionAndWait')).toEqual(expect.arrayContaining([RpcCode.rejected, RpcCode.notValidated]));
    expect(codes('jt_blockNumber')).not.toContain(RpcCode.unauthorized);
  });

  describe.each([...all.values()].map((method) => [method.name, method] as const))('%s', (name, method) => {
    const rendered = document.methods.find((candidate) => candidate.name === name)!;

    it('has an example whose params MethodCallValidator accepts', () => {
      const validator = new MethodCallValidator(document);
      expect(rendered.examples.length).toBeGreaterThan(0);
      for (const example of rendered.examples) expect(validator.validate(name, example.params.map((param) => param.value)), example.name).toEqual([]);
    });

    it("whose params and result pass the method's own schemas, and the result its rendered schema", () => {
      for (const example of method.examples) {
        expect(() => parseParams(method, [...example.params]), example.name).not.toThrow();
        expect(method.result.safeParse(example.result).error, example.name).toBeUndefined();
        expect(z.fromJSONSchema(rendered.result.schema as never).safeParse(example.result).error, example.name).toBeUndefined();
      }
    });
  });
});
