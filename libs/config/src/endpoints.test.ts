import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@ledger-node/test-utils';
import { readEndpointFile, shownUrl, upstreamEndpoints } from './endpoints';
import { parseFlags } from './parse';
import { allFlags } from './options/index';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function fileWith(text: string): string {
  const { dir, remove } = tempDir('endpoints-');
  cleanups.push(remove);
  const file = path.join(dir, 'endpoints');
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

const flagsOf = (values: Record<string, string>) => ({ string: (name: string) => values[name], boolean: () => false });

describe('shownUrl', () => {
  it.each([
    ['ws://127.0.0.1:6006', 'ws://127.0.0.1:6006'],
    ['wss://s.altnet.rippletest.net:51233', 'wss://s.altnet.rippletest.net:51233'],
    ['wss://user:s3cret@node.example:443/ws', 'wss://***@node.example/ws'],
    ['wss://apikey@node.example', 'wss://***@node.example/'],
    ['wss://node.example/ws?token=s3cret&network=main', 'wss://node.example/ws?token=***&network=***'],
    ['ws://u:p@[::1]:6006?k=v', 'ws://***@[::1]:6006/?k=***'],
  ])('shows %s as %s', (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
    expect(shownUrl(url)).not.toMatch(/s3cret|:p@|=v/);
  });
});

describe('upstreamEndpoints', () => {
  it('reads -endpoint_file: shown URLs without credentials, the full URL only to connect', () => {
    const file = fileWith('# main and backup\n\nwss://user:s3cret@a.example/ws\n  wss://b.example?token=t0ken  \n');
    const endpoints = upstreamEndpoints(flagsOf({ endpoint_file: file }), 'wss://default.example');
    expect(endpoints.urls).toEqual(['wss://***@a.example/ws', 'wss://b.example/?token=***']);
    expect(endpoints.connectUrl('wss://***@a.example/ws')).toBe('wss://user:s3cret@a.example/ws');
    expect(endpoints.connectUrl('wss://b.example/?token=***')).toBe('wss://b.example/?token=t0ken');
  });

  it('takes -endpoint, else the default; one server named twice is one endpoint', () => {
    expect(upstreamEndpoints(flagsOf({ endpoint: 'ws://a:1, ws://b:2,ws://a:1' }), 'wss://d').urls).toEqual(['ws://a:1', 'ws://b:2']);
    // Spellings of one URL: case, the default port, a trailing slash.
    expect(upstreamEndpoints(flagsOf({ endpoint: 'ws://h:6006,ws://h:6006/,WS://H:6006,wss://x.example:443/,wss://x.example' }), 'wss://d').urls).toEqual(['ws://h:6006', 'wss://x.example']);
    expect(upstreamEndpoints(flagsOf({}), 'wss://d').urls).toEqual(['wss://d']);
    expect(upstreamEndpoints(flagsOf({}), 'wss://d').connectUrl('wss://d')).toBe('wss://d');
  });

  it('refuses both flags at once, and two endpoints that differ only in credentials', () => {
    const file = fileWith('wss://a.example\n');
    expect(() => upstreamEndpoints(flagsOf({ endpoint_file: file, endpoint: 'ws://a:1' }), 'wss://d')).toThrow(/exclude each other/);
    const twice = fileWith('wss://u:one@a.example\nwss://u:two@a.example\n');
    expect(() => upstreamEndpoints(flagsOf({ endpoint_file: twice }), 'wss://d')).toThrow(/differ only in their credentials \(wss:\/\/\*\*\*@a\.example\/\)/);
  });
});

describe('readEndpointFile', () => {
  it('names a bad line by its number, never by its text (it may hold a password)', () => {
    const file = fileWith('wss://ok.example\nhttps://user:s3cret@bad.example\n');
    expect(() => readEndpointFile(file)).toThrow(/endpoint 2: must be ws:\/\/HOST:PORT/);
    expect(() => readEndpointFile(file)).not.toThrow(/s3cret/);
  });

  it('refuses an empty file and one it cannot read', () => {
    expect(() => readEndpointFile(fileWith('# nothing\n\n'))).toThrow(/names no endpoint/);
    const unreadable = fileWith('wss://a.example\n');
    chmodSync(unreadable, 0o000);
    if (process.getuid?.() !== 0) expect(() => readEndpointFile(unreadable)).toThrow(/cannot read -endpoint_file .*EACCES/);
    expect(() => readEndpointFile('/nonexistent/endpoints')).toThrow(/cannot read -endpoint_file \/nonexistent\/endpoints: ENOENT/);
  });
});

describe('-endpoint', () => {
  it('refuses a URL with credentials: a command line is public', () => {
    for (const url of ['wss://user:s3cret@a.example', 'wss://a.example?token=s3cret']) {
      expect(() => parseFlags(['-endpoint', url], allFlags)).toThrow(/holds credentials .* give such URLs in -endpoint_file/);
      // The error names the URL with its credentials hidden.
      expect(() => parseFlags(['-endpoint', url], allFlags)).not.toThrow(/s3cret/);
    }
    expect(parseFlags(['-endpoint', 'ws://A.example:1'], allFlags).flags.string('endpoint')).toBe('ws://A.example:1');
  });
});
