/**
 * The network a devnet plays, end to end against a devnet process: its publisher site over real
 * HTTP, every validator's validation of each ledger on the validations stream, the `manifest`
 * command through rotation and revocation, and a validator kept offline landing on the negative
 * UNL by ledger 512.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  encodeNodePublicKey,
  getProfile,
  keylet,
  nodePublicKeyHex,
  readManifest,
  readNegativeUnl,
  readPublishedList,
  REVOKED_SEQUENCE,
  stateTreeRoot,
  verifyLedger,
  verifyValidation,
} from '@ledger-node/chain';
import { stopAll, tempDir, waitUntil, WsClient, type WsMessage } from '@ledger-node/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type DevnetProcess } from './support/devnet-process';

const profile = getProfile('xrpl');
const PUBLISHER_LINE = /validator list publisher (ED[0-9A-F]{64}) at (http:\/\/[\w.:]+\/vl\.json) \((\d+) validators\)/;

afterAll(async () => {
  await stopAll();
});

async function publisherOf(devnet: DevnetProcess): Promise<{ publisher: string; site: string; validators: number }> {
  const [, publisher, site, validators] = (await devnet.process.waitFor(PUBLISHER_LINE)) as RegExpMatchArray;
  return { publisher: publisher!, site: site!, validators: Number(validators) };
}

const isValidation = (message: WsMessage) => message.type === 'validationReceived';

async function resultOf(client: WsClient, request: WsMessage): Promise<WsMessage> {
  const response = await client.request(request);
  if (response.status !== 'success') throw new Error(`${JSON.stringify(request)}: ${JSON.stringify(response)}`);
  return response.result;
}

describe('a devnet network (ledgers closed by ledger_accept)', () => {
  const keys = tempDir('devnet-network-keys-');
  const keyFile = path.join(keys.dir, 'network-keys.json');
  let devnet: DevnetProcess;
  let client: WsClient;
  let subscriber: WsClient;
  let announced: { publisher: string; site: string; validators: number };

  beforeAll(async () => {
    devnet = await startDevnet(['-close_ms', '60000', '-idle_close_ms', '60000', '-devnet_keys', keyFile]);
    announced = await publisherOf(devnet);
    client = await WsClient.open(devnet.url);
    subscriber = await WsClient.open(devnet.url);
    expect((await subscriber.request({ command: 'subscribe', streams: ['validations'] })).status).toBe('success');
  });

  afterAll(async () => {
    await subscriber?.close();
    await client?.close();
    await devnet?.stop();
    keys.remove();
  });

  const ok = (request: WsMessage) => resultOf(client, request);

  /** Closes a ledger and resolves with the validations of it (API v1: ledger_index as a string). */
  async function closeAndCollect(expected: number): Promise<{ ledgerIndex: number; validations: WsMessage[] }> {
    const ledgerIndex = (await ok({ command: 'ledger_accept' })).ledger_current_index - 1;
    const of = (message: WsMessage) => isValidation(message) && message.ledger_index === String(ledgerIndex);
    await subscriber.waitForCount(of, expected);
    // Anything more would come in the same burst: give it a moment to show.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { ledgerIndex, validations: subscriber.messages(of) };
  }

  it('serves its list at /vl.json over HTTP, verifying with the publisher key it printed, and keeps its keys in the -devnet_keys file only', async () => {
    expect(announced.validators).toBe(5);
    expect(announced.site).toBe(`${devnet.url.replace('ws://', 'http://')}/vl.json`);
    const response = await fetch(announced.site);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const list = readPublishedList(await response.json(), new Set([announced.publisher]));
    expect(list).toMatchObject({ version: 1, publisherKey: announced.publisher, refused: [] });
    expect(list.blobs[0]).toMatchObject({ sequence: 1, effective: 0 });
    expect(list.blobs[0]!.validators).toHaveLength(5);
    expect((await fetch(announced.site.replace('/vl.json', '/other.json'))).status).toBe(404);

    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(keyFile, 'utf8')) as { publisher: { master_seed: string; signing_seed: string } };
    expect(devnet.process.output()).not.toContain(kept.publisher.master_seed);
    expect(devnet.process.output()).not.toContain(kept.publisher.signing_seed);

    const network = await ok({ command: 'devnet_network' });
    expect(network).toMatchObject({ publisher: announced.publisher, site: announced.site, list: { sequence: 1, version: 1 }, quorum: 4 });
    expect((await ok({ command: 'server_info' })).info.validation_quorum).toBe(4);
  });

  it("sends each validator's full validation of each ledger, signed by the key its manifest names and carrying its master key", async () => {
    const network = await ok({ command: 'devnet_network' });
    const { ledgerIndex, validations } = await closeAndCollect(5);
    const ledgerHash = (await ok({ command: 'ledger', ledger_index: ledgerIndex })).ledger_hash;
    expect(validations).toHaveLength(5);
    const masters = new Set<string>();
    for (const message of validations) {
      expect(message).toMatchObject({ full: true, ledger_hash: ledgerHash, flags: 0x80000001 });
      const validation = verifyValidation(profile, message.data);
      expect(validation).toMatchObject({ ledgerIndex, ledgerHash, full: true, publicKey: nodePublicKeyHex(message.validation_public_key, profile) });
      expect(message.signing_time).toBe(validation.signingTime);
      const validator = network.validators.find((candidate: WsMessage) => candidate.master_key_n === message.master_key);
      expect(validator.signing_key_n).toBe(message.validation_public_key);
      const manifest = await ok({ command: 'manifest', public_key: message.master_key });
      expect(manifest.details.ephemeral_key).toBe(message.validation_public_key);
      expect(readManifest(manifest.manifest).signingKey).toBe(validation.publicKey);
      masters.add(message.master_key);
    }
    expect(masters.size).toBe(5);
    // Its start-up line named the same master keys.
    const [, printed] = (await devnet.process.waitFor(/validators \(master keys; each validates with the signing key its manifest names\): ([\w ]+)"/)) as RegExpMatchArray;
    expect(new Set(printed!.split(' '))).toEqual(masters);
  });

  it('rotates a signing key: the next ledger is validated with the new key, the manifest command names it, the list once republished', async () => {
    const before = (await ok({ command: 'devnet_network' })).validators[1];
    const rotated = (await ok({ command: 'devnet_validator', validator: 1, action: 'rotate' })).validator;
    expect(rotated).toMatchObject({ index: 1, master_key: before.master_key, manifest_sequence: 2 });
    expect(rotated.signing_key).not.toBe(before.signing_key);

    const { validations } = await closeAndCollect(5);
    const mine = validations.find((message) => message.master_key === before.master_key_n)!;
    expect(mine.validation_public_key).toBe(rotated.signing_key_n);
    expect(verifyValidation(profile, mine.data).publicKey).toBe(rotated.signing_key);

    const manifest = await ok({ command: 'manifest', public_key: before.master_key_n });
    expect(manifest.details).toEqual({ master_key: before.master_key_n, ephemeral_key: rotated.signing_key_n, seq: 2 });
    expect(await ok({ command: 'manifest', public_key: before.signing_key_n })).toEqual({ requested: before.signing_key_n });

    const listed = async () => {
      const list = readPublishedList(await (await fetch(announced.site)).json(), new Set([announced.publisher]));
      return readManifest(list.blobs[0]!.validators.find((validator) => validator.masterKey === before.master_key)!.manifest!).sequence;
    };
    expect(await listed()).toBe(1);
    expect((await ok({ command: 'devnet_publish' })).list).toMatchObject({ sequence: 2, version: 1 });
    expect(await listed()).toBe(2);
  });

  it('revokes a master key: it validates no more and the manifest command answers its revocation', async () => {
    const target = (await ok({ command: 'devnet_network' })).validators[2];
    expect((await ok({ command: 'devnet_validator', validator: 2, action: 'revoke' })).validator).toMatchObject({ revoked: true, manifest_sequence: REVOKED_SEQUENCE });
    const { validations } = await closeAndCollect(4);
    expect(validations).toHaveLength(4);
    expect(validations.map((message) => message.master_key)).not.toContain(target.master_key_n);
    const manifest = await ok({ command: 'manifest', public_key: target.master_key_n });
    expect(manifest.details).toEqual({ master_key: target.master_key_n, seq: REVOKED_SEQUENCE });
    expect(readManifest(manifest.manifest).revoked).toBe(true);
    // 4 validators trusted now: max(ceil(3.2), ceil(2.4)).
    expect((await ok({ command: 'server_info' })).info.validation_quorum).toBe(4);
  });

  it('takes a validator offline and back online', async () => {
    const target = (await ok({ command: 'devnet_network' })).validators[3];
    await ok({ command: 'devnet_validator', validator: 3, action: 'offline' });
    const offline = await closeAndCollect(3);
    expect(offline.validations.map((message) => message.master_key)).not.toContain(target.master_key_n);
    await ok({ command: 'devnet_validator', validator: 3, action: 'online' });
    const online = await closeAndCollect(4);
    expect(online.validations.map((message) => message.master_key)).toContain(target.master_key_n);
  });

  it('answers bad control parameters with invalidParams and keeps serving', async () => {
    for (const request of [
      { command: 'devnet_validator', validator: 9, action: 'rotate' },
      { command: 'devnet_validator', validator: 0, action: 'dance' },
      { command: 'devnet_publish', version: 2, pending: { effective: 'soon' } },
      { command: 'manifest', public_key: 'n9NotAKey' },
    ]) {
      expect(await client.request(request)).toMatchObject({ status: 'error', error: 'invalidParams', error_code: 31 });
    }
    expect((await client.request({ command: 'ping' })).status).toBe('success');
  });
});

describe('a devnet network with fast flag ledgers (-close_ms 20 -idle_close_ms 20)', () => {
  let devnet: DevnetProcess;
  let client: WsClient;

  beforeAll(async () => {
    devnet = await startDevnet(['-close_ms', '20', '-idle_close_ms', '20']);
    client = await WsClient.open(devnet.url);
  });

  afterAll(async () => {
    await client?.close();
    await devnet?.stop();
  });

  const ok = (request: WsMessage) => resultOf(client, request);

  /** The ledger as the node fetches it (binary), verified the node's way, and its state root recomputed from every object. */
  async function expectVerifies(ledgerIndex: number): Promise<void> {
    const fetched = await ok({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true, binary: true });
    const verification = verifyLedger({
      ledgerIndex,
      headerBlob: Buffer.from(fetched.ledger.ledger_data, 'hex'),
      ledgerHash: fetched.ledger_hash,
      transactions: fetched.ledger.transactions.map((tx: WsMessage) => ({ txBlob: Buffer.from(tx.tx_blob, 'hex'), metaBlob: Buffer.from(tx.meta, 'hex') })),
    });
    expect(verification.ok, verification.ok ? '' : verification.failure.message).toBe(true);
    const state: { index: string; blob: string }[] = [];
    let marker: unknown;
    do {
      const page = await ok({ command: 'ledger_data', ledger_index: ledgerIndex, binary: true, marker });
      state.push(...page.state.map((entry: WsMessage) => ({ index: entry.index, blob: entry.data })));
      marker = page.marker;
    } while (marker !== undefined);
    expect(verification.ok && stateTreeRoot(state)).toBe(verification.ok && verification.ledger.header.accountHash);
  }

  it('puts a validator offline through the first flag period on the negative UNL: UNLModify at 256, DisabledValidators at 512', async () => {
    const offline = (await ok({ command: 'devnet_validator', validator: 4, action: 'offline' })).validator;
    expect((await ok({ command: 'ledger_closed' })).ledger_index).toBeLessThan(100);

    await waitUntil(async () => (await ok({ command: 'ledger_closed' })).ledger_index >= 513, 50_000, 'ledger 513', 500);

    const flag = await ok({ command: 'ledger', ledger_index: 256, transactions: true, expand: true });
    const modifications = flag.ledger.transactions.filter((tx: WsMessage) => tx.TransactionType === 'UNLModify');
    expect(modifications).toEqual([
      expect.objectContaining({ Account: '', Fee: '0', LedgerSequence: 256, UNLModifyDisabling: 1, UNLModifyValidator: offline.master_key }),
    ]);
    expect((await ok({ command: 'ledger_entry', index: keylet.negativeUnl(), ledger_index: 256 })).node).toMatchObject({ ValidatorToDisable: offline.master_key });

    const disabled = await ok({ command: 'ledger_entry', index: keylet.negativeUnl(), ledger_index: 512, binary: true });
    expect(readNegativeUnl(profile, Buffer.from(disabled.node_binary, 'hex'))).toEqual(new Set([offline.master_key]));
    expect((await ok({ command: 'ledger_entry', index: keylet.negativeUnl(), ledger_index: 512 })).node).toMatchObject({
      DisabledValidators: [{ DisabledValidator: { PublicKey: offline.master_key, FirstLedgerSequence: 512 } }],
    });
    for (const ledgerIndex of [255, 256, 511, 512]) await expectVerifies(ledgerIndex);

    const network = await ok({ command: 'devnet_network' });
    expect(network.validators.map((validator: WsMessage) => validator.negative_unl)).toEqual([false, false, false, false, true]);
    expect(network.negative_unl.disabled).toEqual([offline.master_key]);
    expect(offline.master_key_n).toBe(encodeNodePublicKey(offline.master_key, profile));
    // 5 trusted, 1 disabled: max(ceil(0.8 × 4), ceil(0.6 × 5)) = 4.
    expect((await ok({ command: 'server_info' })).info.validation_quorum).toBe(4);
  }, 70_000);
});
