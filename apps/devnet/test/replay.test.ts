/**
 * Replay mode against real XRPL mainnet ledgers 11119599..11119604: what the devnet serves must
 * hash to what was recorded, computed here with the published `xrpl` package and node:crypto.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decode } from 'ripple-binary-codec';
import { devnetNetworkKeys, encodeNodePublicKey, getProfile, verifyValidation } from '@ledger-node/chain';
import { fixturesDir, readFixture, stopAll, tempDir, WsClient } from '@ledger-node/test-utils';
import { hashes } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type DevnetProcess } from './support/devnet-process';

interface RecordedTx {
  hash: string;
  [field: string]: unknown;
}

interface RecordedLedgerFile {
  ledger: { ledger_hash: string; transaction_hash: string; transactions: RecordedTx[] };
  ledger_index: number;
}

const recordedIndexes = [11119599, 11119600, 11119601, 11119602, 11119603, 11119604];
const recorded = new Map(
  recordedIndexes.map((ledgerIndex) => [ledgerIndex, readFixture<RecordedLedgerFile>(`xrpl/ledgers/mainnet/${ledgerIndex}.json`)]),
);

/** SHA-512Half with a 4-byte hash prefix (rippled HashPrefix), uppercase hex. */
function prefixedHash(prefix: string, hex: string): string {
  return createHash('sha512')
    .update(Buffer.concat([Buffer.from(prefix, 'latin1'), Buffer.from(hex, 'hex')]))
    .digest()
    .subarray(0, 32)
    .toString('hex')
    .toUpperCase();
}

describe('devnet -replay', () => {
  let devnet: DevnetProcess;
  let client: WsClient;
  let folder: { dir: string; remove: () => void };

  beforeAll(async () => {
    folder = tempDir('devnet-replay-');
    for (const ledgerIndex of recordedIndexes) {
      copyFileSync(path.join(fixturesDir(), `xrpl/ledgers/mainnet/${ledgerIndex}.json`), path.join(folder.dir, `${ledgerIndex}.json`));
    }
    writeFileSync(path.join(folder.dir, 'truncated-ledger.json'), '{"ledger": {"ledger_index": ');
    devnet = await startDevnet(['-replay', folder.dir, '-replay_rate', '20']);
    client = await WsClient.open(devnet.url);
  });

  afterAll(async () => {
    await client?.close();
    await devnet?.stop();
    await stopAll();
    folder?.remove();
  });

  it('reports a file that does not parse, naming it', () => {
    const logLines = devnet.process.output().split('\n').filter((line) => line.includes('truncated-ledger.json'));
    expect(logLines).toHaveLength(1);
    expect(JSON.parse(logLines[0]!)).toMatchObject({ level: 'error', file: 'truncated-ledger.json' });
  });

  it('reports the contiguous range it holds and its newest ledger in server_info', async () => {
    const response = await client.request({ command: 'server_info' });
    expect(response.status).toBe('success');
    expect(response.result.info.complete_ledgers).toBe('11119599-11119604');
    expect(response.result.info.validated_ledger).toMatchObject({
      seq: 11119604,
      hash: recorded.get(11119604)!.ledger.ledger_hash,
    });
  });

  it('answers ledger_closed with the newest recorded ledger', async () => {
    const response = await client.request({ command: 'ledger_closed' });
    expect(response.result).toEqual({ ledger_hash: recorded.get(11119604)!.ledger.ledger_hash, ledger_index: 11119604 });
  });

  it.each(recordedIndexes)('serves ledger %i in binary form that hashes to the recorded hashes', async (ledgerIndex) => {
    const file = recorded.get(ledgerIndex)!;
    const response = await client.request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true, binary: true });
    expect(response.status).toBe('success');
    expect(response.result.ledger_hash).toBe(file.ledger.ledger_hash);
    // rippled: ledger hash = SHA-512Half('LWR\0' + header bytes).
    expect(prefixedHash('LWR\0', response.result.ledger.ledger_data)).toBe(file.ledger.ledger_hash);

    const served: Array<{ tx_blob: string; meta: string }> = response.result.ledger.transactions;
    const servedHashes = served.map((tx) => prefixedHash('TXN\0', tx.tx_blob));
    expect([...servedHashes].sort()).toEqual(file.ledger.transactions.map((tx) => tx.hash).sort());
    const treeInput = served.map((tx) => ({ ...decode(tx.tx_blob), metaData: decode(tx.meta) }));
    expect(hashes.hashTxTree(treeInput as never)).toBe(file.ledger.transaction_hash);
  });

  it('serves a ledger by hash in JSON form with its recorded header and transactions', async () => {
    const file = recorded.get(11119601)!;
    const response = await client.request({ command: 'ledger', ledger_hash: file.ledger.ledger_hash, transactions: true, expand: true });
    const ledger = response.result.ledger;
    expect(ledger.ledger_index).toBe('11119601');
    expect(hashes.hashLedgerHeader(ledger)).toBe(file.ledger.ledger_hash);
    expect(hashes.hashTxTree(ledger.transactions)).toBe(file.ledger.transaction_hash);
    expect(ledger.transactions.map((tx: RecordedTx) => tx.hash)).toEqual(
      expect.arrayContaining(file.ledger.transactions.map((tx) => tx.hash)),
    );
  });

  it('serves a recorded transaction by hash, in binary (v1) and as tx_json + meta (v2)', async () => {
    const recordedTx = recorded.get(11119603)!.ledger.transactions[0]!;
    const binary = await client.request({ command: 'tx', transaction: recordedTx.hash, binary: true });
    expect(prefixedHash('TXN\0', binary.result.tx)).toBe(recordedTx.hash);
    expect(binary.result).toMatchObject({ hash: recordedTx.hash, ledger_index: 11119603, validated: true });

    const v2 = await client.request({ command: 'tx', transaction: recordedTx.hash, api_version: 2 });
    expect(v2.result).toMatchObject({
      hash: recordedTx.hash,
      ledger_index: 11119603,
      ledger_hash: recorded.get(11119603)!.ledger.ledger_hash,
      validated: true,
      tx_json: { Account: recordedTx.Account, Sequence: recordedTx.Sequence, TransactionType: recordedTx.TransactionType },
      meta: { TransactionResult: (recordedTx.metaData as { TransactionResult: string }).TransactionResult },
    });
    expect(v2.api_version).toBe(2);
  });

  it('answers lgrNotFound for a ledger it does not hold', async () => {
    const response = await client.request({ command: 'ledger', ledger_index: 11119605 });
    expect(response).toMatchObject({
      error: 'lgrNotFound',
      error_code: 21,
      error_message: 'ledgerNotFound',
      request: { command: 'ledger', ledger_index: 11119605 },
      status: 'error',
      type: 'response',
    });
  });

  it('refuses submit and ledger_accept, which need a live chain', async () => {
    const submit = await client.request({ command: 'submit', tx_blob: '1200' });
    expect(submit).toMatchObject({ status: 'error', error: 'notSupported' });
    const accept = await client.request({ command: 'ledger_accept' });
    expect(accept).toMatchObject({ status: 'error', error: 'notStandAlone' });
  });

  it('announces the recorded ledgers in ascending order on the ledger stream after a client subscribes', async () => {
    const subscriber = await WsClient.open(devnet.url);
    try {
      const response = await subscriber.request({ command: 'subscribe', streams: ['ledger'] });
      expect(response.status).toBe('success');
      const announced = await subscriber.waitForCount((message) => message.type === 'ledgerClosed', recordedIndexes.length);
      expect(announced.map((message) => message.ledger_index)).toEqual(recordedIndexes);
      expect(announced.map((message) => message.ledger_hash)).toEqual(recordedIndexes.map((index) => recorded.get(index)!.ledger.ledger_hash));
      expect(announced.map((message) => message.txn_count)).toEqual(
        recordedIndexes.map((index) => recorded.get(index)!.ledger.transactions.length),
      );
    } finally {
      await subscriber.close();
    }
  });

  it("publishes each validator's signed validation of each recorded ledger on the validations stream, the newest ledger's at once", async () => {
    const subscriber = await WsClient.open(devnet.url);
    try {
      const response = await subscriber.request({ command: 'subscribe', streams: ['validations'] });
      expect(response.status).toBe('success');
      const xrpl = getProfile('xrpl');
      const network = devnetNetworkKeys();
      const messages = await subscriber.waitForCount((candidate) => candidate.type === 'validationReceived', network.validators.length);
      const newest = recordedIndexes.at(-1)!;
      const ledgerHash = recorded.get(newest)!.ledger.ledger_hash;
      for (const [position, message] of messages.slice(0, network.validators.length).entries()) {
        const validator = network.validators[position]!;
        expect(message).toMatchObject({
          full: true,
          ledger_index: String(newest),
          ledger_hash: ledgerHash,
          validation_public_key: encodeNodePublicKey(validator.signing.publicKey, xrpl),
          master_key: encodeNodePublicKey(validator.master.publicKey, xrpl),
        });
        expect(verifyValidation(xrpl, message.data as string)).toMatchObject({ ledgerIndex: newest, ledgerHash, publicKey: validator.signing.publicKey.toUpperCase(), full: true });
      }
    } finally {
      await subscriber.close();
    }
  });
});
