import { describe, expect, it } from 'vitest';
import { envelopeErrors, MAX_ECHOED_CHARS, parseWsRequest, readApiVersion, readCommand, wsError, wsSuccess } from './protocol';

describe('the WebSocket envelope', () => {
  it('answers text that is not a JSON object with jsonInvalid, echoing at most 4096 characters', () => {
    expect(parseWsRequest('{"command":')).toEqual({ response: { error: 'jsonInvalid', type: 'error', value: '{"command":' } });
    expect(parseWsRequest('[1]')).toEqual({ response: { error: 'jsonInvalid', type: 'error', value: '[1]' } });
    const long = `"${'x'.repeat(10_000)}"`;
    expect((parseWsRequest(long) as { response: { value: string } }).response.value).toHaveLength(MAX_ECHOED_CHARS);
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
