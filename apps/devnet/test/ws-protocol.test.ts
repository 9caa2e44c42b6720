/**
 * rippled's WebSocket protocol on the live devnet (a separate process): error shapes for malformed
 * requests (the server keeps serving), and the ledger / transactions / accounts streams.
 */
import { readFixture, stopAll, WsClient, type WsMessage } from '@ledger-node/test-utils';
import { Wallet } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from './support/verify-ledger';
import { startDevnet, type DevnetProcess } from './support/devnet-process';

const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb');

let devnet: DevnetProcess;
let client: WsClient;

beforeAll(async () => {
  // A long close interval: these tests close ledgers themselves with ledger_accept.
  devnet = await startDevnet(['-close_ms', '60000']);
  client = await WsClient.open(devnet.url);
});

afterAll(async () => {
  await client?.close();
  await devnet?.stop();
  await stopAll();
});

async function expectStillServing(connection: WsClient = client): Promise<void> {
  const pong = await connection.request({ command: 'ping' });
  expect(pong).toMatchObject({ status: 'success', type: 'response', result: {} });
}

describe('malformed requests', () => {
  it('answers text that is not JSON with jsonInvalid and keeps serving', async () => {
    const answer = await client.sendText('{"command": "ping"', (message) => message.error === 'jsonInvalid');
    expect(answer).toEqual({ error: 'jsonInvalid', type: 'error', value: '{"command": "ping"' });
    await expectStillServing();
  });

  it('answers a request without a command with missingCommand, echoing the id and the request', async () => {
    const answer = await client.sendText('{"id": "no-command", "ledger_index": 1}', (message) => message.id === 'no-command');
    expect(answer).toEqual({
      error: 'missingCommand',
      id: 'no-command',
      request: { id: 'no-command', ledger_index: 1 },
      status: 'error',
      type: 'response',
    });
    await expectStillServing();
  });

  it('answers an unknown command with unknownCmd', async () => {
    const answer = await client.request({ command: 'wallet_propose_everything' });
    expect(answer).toMatchObject({ error: 'unknownCmd', error_code: 32, error_message: 'Unknown method.', status: 'error' });
  });

  it('answers an unsupported api_version with invalid_API_version', async () => {
    const answer = await client.request({ command: 'ping', api_version: 7 });
    expect(answer).toMatchObject({ error: 'invalid_API_version', status: 'error', type: 'response', api_version: 7 });
  });

  it("answers bad parameters with rippled's error objects", async () => {
    const cases: Array<[WsMessage, WsMessage]> = [
      [{ command: 'account_info' }, { error: 'invalidParams', error_code: 31, error_message: "Missing field 'account'." }],
      [{ command: 'account_info', account: 'rNotAnAddress' }, { error: 'actMalformed', error_code: 35, error_message: 'Account malformed.' }],
      [{ command: 'ledger', ledger_index: 'latest' }, { error: 'invalidParams', error_code: 31, error_message: 'ledgerIndexMalformed' }],
      [{ command: 'ledger', ledger_index: 999_999 }, { error: 'lgrNotFound', error_code: 21, error_message: 'ledgerNotFound' }],
      [{ command: 'tx', transaction: 'ABCD' }, { error: 'invalidParams', error_code: 31 }],
      [{ command: 'tx', transaction: 'A'.repeat(64) }, { error: 'txnNotFound', error_code: 29, error_message: 'Transaction not found.' }],
      [{ command: 'ledger_entry', index: 'B'.repeat(64) }, { error: 'entryNotFound', error_code: 98 }],
      [{ command: 'subscribe', streams: ['not_a_stream'] }, { error: 'malformedStream', error_code: 71, error_message: 'Stream malformed.' }],
      [{ command: 'submit', tx_blob: 'XYZ' }, { error: 'invalidParams', error_code: 31 }],
      [{ command: 'submit', tx_blob: '1200' }, { error: 'invalidTransaction' }],
      [{ command: 'account_tx', account: genesis.classicAddress, marker: 'page-2' }, { error: 'invalidParams', error_code: 31 }],
    ];
    for (const [request, expected] of cases) {
      const answer = await client.request(request);
      expect(answer, JSON.stringify(request)).toMatchObject({ ...expected, request, status: 'error', type: 'response' });
    }
    await expectStillServing();
  });

  it('answers an unfunded address with actNotFound and the ledger it looked at', async () => {
    const unfunded = Wallet.generate().classicAddress;
    const answer = await client.request({ command: 'account_info', account: unfunded, ledger_index: 'validated' });
    expect(answer).toMatchObject({ error: 'actNotFound', error_code: 19, account: unfunded, validated: true, status: 'error' });
    expect(typeof answer.ledger_index).toBe('number');
  });

  it("shapes an error response exactly like rippled's (recorded subscribeError)", async () => {
    const recorded = readFixture<WsMessage>('xrpl/responses/xrpl.js/subscribeError.json');
    const answer = await client.request({ command: 'subscribe', streams: 'validations' });
    expect(Object.keys(answer).sort()).toEqual(Object.keys(recorded).sort());
    expect({ ...answer, id: recorded.id }).toEqual({ ...recorded, request: { ...recorded.request, id: answer.id } });
  });

  it('closes a connection whose message exceeds the size limit and keeps serving others', async () => {
    const victim = await WsClient.open(devnet.url);
    await victim.sendText(JSON.stringify({ command: 'ping', padding: 'x'.repeat(2 * 1024 * 1024) }), () => false).catch(() => undefined);
    expect(victim.isOpen).toBe(false);
    await expectStillServing();
  });
});

describe('streams', () => {
  it('sends ledgerClosed and transaction messages to a subscriber (API v1 shapes)', async () => {
    const subscriber = await WsClient.open(devnet.url);
    try {
      const subscribed = await subscriber.request({ command: 'subscribe', streams: ['ledger', 'transactions'] });
      expect(subscribed.result).toMatchObject({ fee_base: 10, reserve_base: 1_000_000, reserve_inc: 200_000 });
      expect(typeof subscribed.result.ledger_hash).toBe('string');

      const info = await client.request({ command: 'account_info', account: genesis.classicAddress, ledger_index: 'current' });
      const destination = Wallet.generate().classicAddress;
      const { tx_blob: txBlob, hash } = genesis.sign({
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: destination,
        Amount: '50000000',
        Fee: '10',
        Sequence: info.result.account_data.Sequence,
      });
      const submitted = await client.request({ command: 'submit', tx_blob: txBlob });
      expect(submitted.result).toMatchObject({ engine_result: 'tesSUCCESS', applied: true, tx_json: { hash } });
      const accepted = await client.request({ command: 'ledger_accept' });
      const closedIndex = accepted.result.ledger_current_index - 1;

      const ledgerClosed = await subscriber.waitFor((message) => message.type === 'ledgerClosed' && message.ledger_index === closedIndex);
      const closed = await client.request({ command: 'ledger', ledger_index: closedIndex });
      expect(ledgerClosed).toMatchObject({
        fee_base: 10,
        ledger_hash: closed.result.ledger_hash,
        ledger_time: closed.result.ledger.close_time,
        reserve_base: 1_000_000,
        reserve_inc: 200_000,
        txn_count: 1,
        validated_ledgers: `1-${closedIndex}`,
      });

      const transaction = await subscriber.waitFor((message) => message.type === 'transaction');
      expect(transaction).toMatchObject({
        engine_result: 'tesSUCCESS',
        engine_result_code: 0,
        ledger_hash: closed.result.ledger_hash,
        ledger_index: closedIndex,
        meta: { TransactionResult: 'tesSUCCESS' },
        status: 'closed',
        transaction: { hash, Account: genesis.classicAddress, Destination: destination, Amount: '50000000' },
        validated: true,
      });
    } finally {
      await subscriber.close();
    }
  });

  it('sends an account subscriber (API v2) only the transactions that affect its accounts', async () => {
    const watched = Wallet.generate();
    const subscriber = await WsClient.open(devnet.url);
    try {
      await subscriber.request({ command: 'subscribe', accounts: [watched.classicAddress], api_version: 2 });
      const sequence = (await client.request({ command: 'account_info', account: genesis.classicAddress })).result.account_data.Sequence;
      const payments = [Wallet.generate().classicAddress, watched.classicAddress].map((destination, offset) =>
        genesis.sign({
          TransactionType: 'Payment',
          Account: genesis.classicAddress,
          Destination: destination,
          Amount: '20000000',
          Fee: '10',
          Sequence: sequence + offset,
        }),
      );
      for (const payment of payments) {
        expect((await client.request({ command: 'submit', tx_blob: payment.tx_blob })).result.engine_result).toBe('tesSUCCESS');
      }
      await client.request({ command: 'ledger_accept' });
      const message = await subscriber.waitFor((candidate) => candidate.type === 'transaction');
      expect(message).toMatchObject({ hash: payments[1]!.hash, tx_json: { Destination: watched.classicAddress, DeliverMax: '20000000' } });
      expect(message.tx_json.Amount).toBeUndefined();
      await expectStillServing(subscriber);
      expect(subscriber.messages((candidate) => candidate.type === 'transaction')).toHaveLength(1);
    } finally {
      await subscriber.close();
    }
  });
});

describe('every ledger the devnet closed during these tests', () => {
  it('verifies with xrpl hashes', async () => {
    const validated: number = (await client.request({ command: 'ledger_closed' })).result.ledger_index;
    expect(validated).toBeGreaterThanOrEqual(3);
    for (let ledgerIndex = 1; ledgerIndex <= validated; ledgerIndex++) {
      await verifyLedger(async (body) => (await client.request(body)).result, ledgerIndex);
    }
  });
});
