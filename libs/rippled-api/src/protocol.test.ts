import { describe, expect, it } from 'vitest';
import { envelopeErrors, JSON_NEST_LIMIT, MAX_ECHOED_CHARS, nestedTooDeep, parseWsRequest, readApiVersion, readCommand, wsError, wsSuccess } from './protocol';

describe('the WebSocket envelope', () => {
  it('answers text that is not a JSON object with jsonInvalid, echoing at most 4096 characters', () => {
    expect(parseWsRequest('{"command":')).toEqual({ response: { error: 'jsonInvalid', type: 'error', value: '{"command":' } });
    expect(parseWsRequest('[1]')).toEqual({ response: { error: 'jsonInvalid', type: 'error', value: '[1]' } });
    const long = `"${'x'.repeat(10_000)}"`;
    expect((parseWsRequest(long) as { response: { value: string } }).response.value).toHaveLength(MAX_ECHOED_CHARS);
  });

  it("refuses a value inside more than 25 arrays and objects as rippled's reader does, scalars and empty containers alike", () => {
    const arrays = (count: number, inner = '') => '['.repeat(count) + inner + ']'.repeat(count);
    // The request object is the first level: a value inside it sits at depth 1.
    const request = (value: string) => `{"command":"ping","x":${value}}`;
    expect(JSON_NEST_LIMIT).toBe(25);
    expect(parseWsRequest(request(arrays(25)))).toHaveProperty('request');
    expect(parseWsRequest(request(arrays(24, '1')))).toHaveProperty('request');
    expect(parseWsRequest(request(arrays(26)))).toEqual({ response: { error: 'jsonInvalid', type: 'error', value: request(arrays(26)) } });
    expect(parseWsRequest(request(arrays(25, '"deep"')))).toHaveProperty('response');
    const objects = (count: number) => '{"a":'.repeat(count) + '1' + '}'.repeat(count);
    expect(nestedTooDeep(JSON.parse(objects(25)))).toBe(false);
    expect(nestedTooDeep(JSON.parse(objects(26)))).toBe(true);
    // Deep far past any stack: walked without recursion.
    expect(nestedTooDeep(JSON.parse(arrays(200_000)))).toBe(true);
  });

  it('reads the API version as rippled does: absent is 1; only 1 and 2 are served', () => {
    expect(readApiVersion({})).toBe(1);
    expect(readApiVersion({ api_version: 2 })).toBe(2);
    expect(readApiVersion({ api_version: 3 })).toBeUndefined();
    expect(readApiVersion({ api_version: '2' })).toBeUndefined();
  });

  it('reads the command from `command` or `method`, refusing two that disagree', () => {
    expect(readCommand({ command: 'ping' })).toBe('ping');
    expect(readCommand({ method: 'ping' })).toBe('ping');
    expect(readCommand({ command: 'ping', method: 'ping' })).toBe('ping');
    expect(readCommand({ command: 'ping', method: 'tx' })).toBeUndefined();
    expect(readCommand({ command: 7 })).toBeUndefined();
  });

  it('echoes id and api_version; an error also echoes the request', () => {
    const request = { id: 7, api_version: 2, command: 'ping' };
    expect(wsSuccess(request, {})).toEqual({ id: 7, api_version: 2, result: {}, status: 'success', type: 'response' });
    expect(wsError(request, envelopeErrors.unknownCmd)).toEqual({
      id: 7,
      api_version: 2,
      error: 'unknownCmd',
      error_code: 32,
      error_message: 'Unknown method.',
      request,
      status: 'error',
      type: 'response',
    });
    expect(wsSuccess({ command: 'ping' }, {})).toEqual({ result: {}, status: 'success', type: 'response' });
  });
});

describe('what an error echoes', () => {
  it('a request too large or too deep to echo whole is echoed as its command and id', () => {
    const large = { command: 'subscribe', id: 7, accounts: Array.from({ length: 5_000 }, () => 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe') };
    expect(wsError(large, { error: 'invalidParams' })).toEqual({ id: 7, error: 'invalidParams', request: { command: 'subscribe', id: 7 }, status: 'error', type: 'response' });
    let deep: Record<string, unknown> = {};
    const root = { command: 'ledger', id: 'x', nested: deep };
    for (let depth = 0; depth < 20_000; depth++) deep = deep.next = {};
    const answer = wsError(root, { error: 'invalidParams' });
    expect(answer.request).toEqual({ command: 'ledger', id: 'x' });
    expect(() => JSON.stringify(answer)).not.toThrow();
    // A small one is echoed whole, as rippled does.
    expect(wsError({ command: 'ping', id: 1, x: [1] }, { error: 'e' }).request).toEqual({ command: 'ping', id: 1, x: [1] });
  });
});
