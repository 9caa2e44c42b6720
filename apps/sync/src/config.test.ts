import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFlags, parseFlags } from '@ledger-node/config';
import { syncConfig } from './config';

const dir = mkdtempSync(path.join(tmpdir(), 'sync-config-'));
const configOf = (...argv: string[]) => syncConfig(parseFlags(['-data_dir', dir, ...argv], allFlags, { env: {} }).flags);

const RIPPLE = 'ED2677ABFFD1B33AC6FBC3062B71F1E8397C1505E1C42C64D11AD1B28FF73F4734';
const XRPLF = 'ED42AEC58B701EEBB77356FFFEC26F83C1F0407263530F068C7C73D392C7E06FD1';
const TESTNET = 'ED264807102805220DA0F312E71FC2C69E1552C9C5790F6C25E3729DEB573D5860';

describe('what proves a ledger, as the flags say', () => {
  it("with no trust flag: the default endpoint's network's published list (testnet), or -network_id's", () => {
    expect(configOf().trust).toMatchObject({ publisherKeys: [TESTNET], sites: ['https://vl.altnet.rippletest.net'], origin: 'the XRP Ledger testnet defaults' });
    const mainnet = configOf('-network_id', '0');
    expect(mainnet.trust).toMatchObject({ publisherKeys: [RIPPLE, XRPLF], sites: ['https://vl.ripple.com', 'https://unl.xrplf.org'], origin: 'the XRP Ledger mainnet defaults' });
    expect(mainnet.endpoints.urls).toEqual(['wss://xrplcluster.com']);
    expect(configOf('-network_id', '0', '-endpoint', 'ws://127.0.0.1:6006').endpoints.urls).toEqual(['ws://127.0.0.1:6006']);
    expect(configOf('-chain', 'jingtum').trust).toMatchObject({ publisherKeys: [], sites: [], origin: 'none' });
    expect(configOf('-network_id', '2').trust.publisherKeys).toEqual([]);
  });

  it('with any trust flag, exactly what the flags say', () => {
    const file = path.join(dir, 'validators.txt');
    writeFileSync(file, `${TESTNET}\n`);
    expect(configOf('-validators', file).trust).toMatchObject({ publisherKeys: [], sites: [], validators: { keys: [TESTNET], quorum: 1 }, origin: 'the command line' });
    expect(configOf('-validator_list_sites', 'http://127.0.0.1:1/vl.json', '-validator_list_keys', XRPLF.toLowerCase()).trust).toMatchObject({ publisherKeys: [XRPLF], sites: ['http://127.0.0.1:1/vl.json'] });
    expect(configOf('-validator_list_keys', 'none').trust).toMatchObject({ publisherKeys: [], sites: [], validators: undefined });
    expect(configOf().trust.keptListsDir).toBe(path.join(dir, 'validator-lists'));
  });

  it('reads the lists of keys given alone from the endpoints, at /vl/<key> (where rippled serves the lists it holds)', () => {
    expect(configOf('-endpoint', 'ws://127.0.0.1:6006,wss://x.example', '-validator_list_keys', XRPLF).trust.sites).toEqual([`http://127.0.0.1:6006/vl/${XRPLF}`, `https://x.example/vl/${XRPLF}`]);
  });

  it('refuses sites without keys, and a site or key that is none', () => {
    expect(() => configOf('-validator_list_sites', 'https://vl.example')).toThrow(/need -validator_list_keys/);
    expect(() => parseFlags(['-validator_list_sites', 'ftp://x'], allFlags, { env: {} })).toThrow(/not an http, https or file URL/);
    expect(() => parseFlags(['-validator_list_keys', 'ED00'], allFlags, { env: {} })).toThrow(/not a publisher public key/);
  });
});
