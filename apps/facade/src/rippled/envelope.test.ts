import { describe, expect, it } from 'vitest';
import { RenderedJson } from '../queries/rendered-json';
import { httpAnswer, maskSecrets, parseHttpCall, parseWsCall, wsAnswer } from './envelope';

describe("rippled's WebSocket envelope", () => {
  it('reads the command, its fields and the API version (1 when none is named)', () => {
    expect(parseWsCall(JSON.stringify({ id: 7, command: 'account_info', account: 'r1', api_version: 2 }))).toEqual({
      call: { command: 'account_info', fields: { account: 'r1' }, apiVersion: 2, request: { id: 7, command: 'account_info', account: 'r1', api_version: 2 } },
    });
    expect(parseWsCall('{"command":"ping"}')).toMatchObject({ call: { command: 'ping', apiVersion: 1 } });
    // rippled also takes `method` for `command`.
    expect(parseWsCall('{"method":"ping"}')).toMatchObject({ call: { command: 'ping' } });
  });

  it('answers text that is not a JSON object with jsonInvalid, echoing the text', () => {
    expect(parseWsCall('not json')).toEqual({ answer: { error: 'jsonInvalid', type: 'error', value: 'not json' } });
    expect(parseWsCall('[1,2]')).toEqual({ answer: { error: 'jsonInvalid', type: 'error', value: '[1,2]' } });
    expect(parseWsCall('42')).toEqual({ answer: { error: 'jsonInvalid', type: 'error', value: '42' } });
  });

  it('answers a request without a command with missingCommand, and an unknown API version with invalid_API_version', () => {
    expect(parseWsCall('{"id":3}')).toEqual({ answer: { id: 3, error: 'missingCommand', request: { id: 3 }, status: 'error', type: 'response' } });
    expect(parseWsCall('{"id":3,"command":5}')).toMatchObject({ answer: { error: 'missingCommand' } });
    expect(parseWsCall('{"id":3,"command":"ping","method":"fee"}')).toMatchObject({ answer: { error: 'missingCommand' } });
    expect(parseWsCall('{"id":4,"command":"ping","api_version":3}')).toEqual({
      answer: { id: 4, api_version: 3, error: 'invalid_API_version', request: { id: 4, command: 'ping', api_version: 3 }, status: 'error', type: 'response' },
    });
  });

  it('answers success with id, result, status and type, and errors with the request echoed, secrets masked', () => {
    const request = { id: 'a', command: 'wallet_propose', seed: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb', api_version: 2 };
    expect(JSON.parse(wsAnswer(request, { result: { x: 1 } }))).toEqual({ id: 'a', api_version: 2, result: { x: 1 }, status: 'success', type: 'response' });
    expect(JSON.parse(wsAnswer(request, { error: { error: 'unknownCmd', error_code: 32, error_message: 'Unknown method.' } }))).toEqual({
      id: 'a',
      api_version: 2,
      error: 'unknownCmd',
      error_code: 32,
      error_message: 'Unknown method.',
      request: { id: 'a', command: 'wallet_propose', seed: '<masked>', api_version: 2 },
      status: 'error',
      type: 'response',
    });
  });
});

describe("rippled's HTTP JSON-RPC envelope", () => {
  it('reads {method, params: [{…}]} with the API version from params[0]', () => {
    expect(parseHttpCall({ method: 'ledger', params: [{ ledger_index: 5, api_version: 2 }] })).toEqual({
      call: { command: 'ledger', fields: { ledger_index: 5 }, apiVersion: 2, request: { ledger_index: 5, api_version: 2, command: 'ledger' } },
    });
    expect(parseHttpCall({ method: 'ping' })).toMatchObject({ call: { command: 'ping', fields: {}, apiVersion: 1 } });
    expect(parseHttpCall({ method: 'ping', params: [null] })).toMatchObject({ call: { command: 'ping', fields: {} } });
  });

  it("refuses what rippled refuses, with HTTP 400 and rippled's text", () => {
    const refusal = (body: unknown) => ('refusal' in parseHttpCall(body) ? (parseHttpCall(body) as { refusal: { status: number; text: string } }).refusal : undefined);
    expect(refusal([1])).toEqual({ status: 400, text: 'Unable to parse request: the body is not a JSON object' });
    expect(refusal({ params: [{}] })).toEqual({ status: 400, text: 'Null method' });
    expect(refusal({ method: null })).toEqual({ status: 400, text: 'Null method' });
    expect(refusal({ method: 3 })).toEqual({ status: 400, text: 'method is not string' });
    expect(refusal({ method: '' })).toEqual({ status: 400, text: 'method is empty' });
    expect(refusal({ method: 'ping', params: {} })).toEqual({ status: 400, text: 'params unparsable' });
    expect(refusal({ method: 'ping', params: [{}, {}] })).toEqual({ status: 400, text: 'params unparsable' });
    expect(refusal({ method: 'ping', params: ['x'] })).toEqual({ status: 400, text: 'params unparsable' });
    expect(refusal({ method: 'ping', params: [{ api_version: 9 }] })).toEqual({ status: 400, text: 'invalid_API_version' });
  });

  it('answers {result: {…, status}}, an error with the request (the params and the command) echoed, secrets masked', () => {
    expect(JSON.parse(httpAnswer({ command: 'ping' }, { result: {} }))).toEqual({ result: { status: 'success' } });
    const request = { command: 'sign', secret: 's…', tx_json: {}, id: 9 };
    expect(JSON.parse(httpAnswer(request, { error: { error: 'unknownCmd', error_code: 32, error_message: 'Unknown method.' } }))).toEqual({
      result: {
        error: 'unknownCmd',
        error_code: 32,
        error_message: 'Unknown method.',
        request: { command: 'sign', secret: '<masked>', tx_json: {}, id: 9 },
        status: 'error',
      },
      id: 9,
    });
  });

  it('writes a rendered result in as it is, in both envelopes, beside the same fields an object result gets', () => {
    const result = { hash: 'AB', validated: true, meta: { TransactionResult: 'tesSUCCESS' } };
    const rendered = RenderedJson.of(result);
    const wsRequest = { id: 'a"b', command: 'tx', api_version: 2 };
    expect(wsAnswer(wsRequest, { result: rendered })).toBe(wsAnswer(wsRequest, { result }));
    expect(JSON.parse(wsAnswer(wsRequest, { result: rendered }))).toEqual({ id: 'a"b', api_version: 2, result, status: 'success', type: 'response' });
    const httpRequest = { command: 'tx', id: 9, jsonrpc: '2.0' };
    expect(httpAnswer(httpRequest, { result: rendered })).toBe(httpAnswer(httpRequest, { result }));
    expect(JSON.parse(httpAnswer(httpRequest, { result: rendered }))).toEqual({ result: { ...result, status: 'success' }, jsonrpc: '2.0', id: 9 });
    expect(JSON.parse(httpAnswer({ command: 'ping' }, { result: RenderedJson.of({}) }))).toEqual({ result: { status: 'success' } });
  });

  it('masks every field rippled masks and leaves a request without them as it is', () => {
    expect(maskSecrets({ passphrase: 'a', secret: 'b', seed: 'c', seed_hex: 'd', account: 'r' })).toEqual({
      passphrase: '<masked>',
      secret: '<masked>',
      seed: '<masked>',
      seed_hex: '<masked>',
      account: 'r',
    });
    const plain = { account: 'r' };
    expect(maskSecrets(plain)).toBe(plain);
  });
});
