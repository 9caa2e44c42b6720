import { afterEach, describe, expect, it, vi } from 'vitest';
import { rpcClient } from './clients';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** fetch's error for a socket the other side had closed when the request went out on it. */
const closedSocket = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
const answer = (result: unknown) => new Response(JSON.stringify({ jsonrpc: '2.0', result, id: 1 }), { headers: { 'content-type': 'application/json' } });

describe('rpcClient', () => {
  it('sends a call again, once, when it went out on a socket the server had closed as idle', async () => {
    const fetch = vi.fn().mockRejectedValueOnce(closedSocket()).mockResolvedValueOnce(answer(7));
    vi.stubGlobal('fetch', fetch);
    expect(await rpcClient(1)('jt_blockNumber')).toMatchObject({ result: 7 });
    expect(fetch).toHaveBeenCalledTimes(2);

    const twice = vi.fn().mockRejectedValueOnce(closedSocket()).mockRejectedValueOnce(closedSocket());
    vi.stubGlobal('fetch', twice);
    await expect(rpcClient(1)('jt_blockNumber')).rejects.toThrow('fetch failed');
    expect(twice).toHaveBeenCalledTimes(2);
  });

  it('does not send a call again for any other failure', async () => {
    const refused = vi.fn().mockRejectedValue(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
    vi.stubGlobal('fetch', refused);
    await expect(rpcClient(1)('jt_blockNumber')).rejects.toThrow('fetch failed');
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
