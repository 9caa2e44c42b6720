import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Wallet, xrpToDrops } from 'xrpl';
import { cliEntry, freePort, generateLocalAccount, startProcess, stopAll, tempDir } from '@ledger-node/test-utils';
import { rpcClient, waitUntil } from '@ledger-node/test-utils';

/** Every route the OpenAPI document lists is called on a real node, and its answer checked against the document. */
type Operation = { parameters: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, { content: { 'application/json': { schema: Record<string, unknown> } } }> };
let document: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** A schema of the document as zod reads it: its references to the shared components resolved through $defs. */
function schemaOf(schema: Record<string, unknown>) {
  const resolved = JSON.stringify({ ...schema, $defs: document.components.schemas }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return z.fromJSONSchema(JSON.parse(resolved) as never);
}
let base: string;
let removeDir: () => void;
const samples: Record<string, string> = {};
let signedBlob: string;

beforeAll(async () => {
  const { dir, remove } = tempDir();
  removeDir = remove;
  const { address: localAddress } = generateLocalAccount(dir, 'local', 'openapi test passphrase');
  const [rpcPort, apiPort] = [await freePort(), await freePort()];
  const node = startProcess([
    cliEntry(), '-dev', '-close_ms', '300', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
    '-data_dir', dir, '-password_file', path.join(dir, 'password'),
  ]);
  const devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/))[1]!;
  await node.waitFor(/facade\s+ready/);
  base = `http://127.0.0.1:${apiPort}`;
  const call = rpcClient(rpcPort);
  const client = new Client(devnetUrl);
  await client.connect();
  try {
    const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb');
    const fund = genesis.sign(await client.autofill({ TransactionType: 'Payment', Account: genesis.address, Destination: localAddress, Amount: xrpToDrops(1000) }));
    await call('jt_sendRawTransaction', [fund.tx_blob]);
    await waitUntil(async () => (await call('jt_getTransactionReceipt', [fund.hash])).result, 60_000, 'the funding payment');
    samples.hash = fund.hash;
    samples.ledger = String((await call('jt_getTransactionByHash', [fund.hash])).result.ledger_index);
    samples.address = localAddress;
    const next = genesis.sign(await client.autofill({ TransactionType: 'Payment', Account: genesis.address, Destination: localAddress, Amount: '1000' }));
    signedBlob = next.tx_blob;
    samples.id = next.hash;
  } finally {
    await client.disconnect();
  }
  await waitUntil(async () => (await call('jt_getBalance', [localAddress, 'validated'])).result, 60_000, 'account state');
  document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as typeof document;
}, 180_000);

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every REST route', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/v1/accounts/{address}/balances',
        '/v1/accounts/{address}/payments',
        '/v1/accounts/{address}/proof',
        '/v1/accounts/{address}/transactions',
        '/v1/ledgers/{ledger}',
        '/v1/local-accounts',
        '/v1/status',
        '/v1/submissions/{id}',
        '/v1/transactions',
        '/v1/transactions/{hash}',
        '/v1/transactions/{hash}/proof',
      ].sort(),
    );
  });

  it('describes answers that every route really gives', async () => {
    // The POST first, so that the submission it creates can be read back.
    const operations = Object.entries(document.paths)
      .flatMap(([route, methods]) => Object.entries(methods).map(([method, operation]) => ({ route, method, operation })))
      .sort((a, b) => (a.method === 'post' ? -1 : b.method === 'post' ? 1 : 0));
    for (const { route, method, operation } of operations) {
      const url = route.replace(/\{(\w+)\}/g, (_match, name: string) => samples[name]!);
      const response = await fetch(`${base}${url}`, {
        method: method.toUpperCase(),
        ...(operation.requestBody ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_blob: signedBlob }) } : {}),
      });
      const body = await response.json();
      expect(response.status, `${method} ${url}: ${JSON.stringify(body)}`).toBe(200);
      const schema = schemaOf(operation.responses['200']!.content['application/json'].schema);
      const checked = schema.safeParse(body);
      expect(checked.success, `${method} ${url}: ${JSON.stringify(checked.error?.issues)}`).toBe(true);
    }
  });

  it('describes the error answers too', async () => {
    for (const [url, status] of [
      ['/v1/ledgers/999999', 404],
      ['/v1/ledgers/not-a-ledger', 400],
      ['/v1/transactions/XYZ', 400],
      ['/v1/accounts/rBadAddress/balances', 400],
      ['/v1/accounts/' + samples.address + '/transactions?limit=5000', 400],
    ] as const) {
      const response = await fetch(`${base}${url}`);
      expect(response.status, url).toBe(status);
      const template = Object.keys(document.paths).find((route) => new RegExp(`^${route.replace(/\{\w+\}/g, '[^/]+')}$`).test(url.split('?')[0]!))!;
      const schema = schemaOf(document.paths[template]!.get!.responses[String(status)]!.content['application/json'].schema);
      expect(schema.safeParse(await response.json()).success, url).toBe(true);
    }
  });
});
