import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { isLoopback, signingPolicy } from './signing-policy';

const request = (authorization?: string) => ({ get: (name: string) => (name === 'authorization' ? (authorization ?? '') : '') }) as unknown as Koa.Context;

describe('signingPolicy', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '::1'])('trusts every caller of a loopback listener (%s) without a token', (host) => {
    expect(isLoopback(host)).toBe(true);
    expect(signingPolicy({ listenerHost: host })(request())).toEqual({});
  });

  it('refuses everyone on a public listener without a token, saying why', () => {
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(signingPolicy({ listenerHost: '0.0.0.0' })(request('Bearer x')).signingRefusal).toMatch(/not on loopback \(0\.0\.0\.0\) and no -rpc_token_file/);
  });

  it('with a token, trusts exactly the callers that present it, on any listener', () => {
    for (const listenerHost of ['0.0.0.0', '127.0.0.1']) {
      const policy = signingPolicy({ listenerHost, token: 's3cret' });
      expect(policy(request('Bearer s3cret'))).toEqual({});
      // The scheme in any case (RFC 9110), the token exactly.
      expect(policy(request('bearer s3cret'))).toEqual({});
      expect(policy(request('BEARER  s3cret '))).toEqual({});
      expect(policy(request('Bearer S3CRET')).signingRefusal).toBeDefined();
      expect(policy(request('Bearer s3cret2')).signingRefusal).toBeDefined();
      expect(policy(request('Basic s3cret')).signingRefusal).toBeDefined();
      expect(policy(request('Bearer wrong')).signingRefusal).toMatch(/Authorization: Bearer/);
      expect(policy(request()).signingRefusal).toBeDefined();
    }
  });
});
