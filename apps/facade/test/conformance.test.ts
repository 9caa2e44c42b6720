/**
 * The JSON-RPC contract, one `describe` per row of SPEC §4.1's method table: parameter order and
 * defaults, the result's JSON shape and types exactly as SPEC §2 gives them, the success envelope
 * `{"id","jsonrpc","result","status"}` in that key order, and each result against its method's own
 * result schema. Then every JSON-RPC 2.0 error over real HTTP. One real node on a devnet, with a
 * local account funded from the devnet's genesis by the published `xrpl` client.
 */
import path from 'node:path';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { verify } from 'ripple-keypairs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, hashes, Wallet } from 'xrpl';
import { LedgerStoreServiceService } from '@ledger-node/contracts';
import { bindService, startGrpcServer, type GrpcServer } from '@ledger-node/grpc';
import { createLogger } from '@ledger-node/telemetry';
import { cliEntry, freePort, generateLocalAccount, startProcess, stopAll, tempDir, type RunningProcess } from '@ledger-node/test-utils';
import { methods } from '../src/jsonrpc/methods/index';
import { waitUntil } from '@ledger-node/test-utils';

const passphrase = 'conformance passphrase';
const genesisSecret = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
const genesisAddress = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
/** A valid address no transaction ever touches on the devnet. */
const unfundedAddress = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
/** xrpl profile: jt_sign signs this prefix followed by the message. */
const signedMessagePrefix = '\x19XRP Ledger Signed Message:\n';
const hex64 = /^[0-9A-F]{64}$/;

let dir: string;
let removeDir: () => void;
let node: RunningProcess;
let rpcUrl: string;
let localAddress: string;
/** The funding payment genesis → local account, and the local account's own payment back. */
let funding: { hash: string; ledgerIndex: number };
let sent: { hash: string; ledgerIndex: number };
let nextId = 1;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** POSTs a raw body to /v1/jsonrpc. */
async function post(body: string | Uint8Array, contentType = 'application/json'): Promise<Answer> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await response.text();
  let parsed: unknown;
  if (text !== '') parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** One call with a fresh integer id; checks the envelope before returning the whole answer. */
async function call(method: string, params?: unknown[]): Promise<Record<string, any>> {
  const id = nextId++;
  const answer = await post(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id }));
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.body.id).toBe(id);
  return answer.body;
}

/** A success: exact envelope key order, `"status":"success"`, and the result valid against the method's schema. */
async function result(method: string, params: unknown[] = []): Promise<any> {
  const answer = await call(method, params);
  expect(answer.error, `${method} ${JSON.stringify(params)}`).toBeUndefined();
  expect(Object.keys(answer)).toEqual(['id', 'jsonrpc', 'result', 'status']);
  expect(answer.jsonrpc).toBe('2.0');
  expect(answer.status).toBe('success');
  const checked = methods.get(method)!.result.safeParse(answer.result);
  expect(checked.success, `${method} result against its schema: ${checked.error?.message}`).toBe(true);
  return answer.result;
}

/** An error: exact envelope key order, `"status":"error"`, the code, and the message. */
async function rpcError(method: string, params: unknown[], code: number, message?: RegExp): Promise<Record<string, any>> {
  const answer = await call(method, params);
  expectErrorEnvelope(answer, code);
  if (message) expect(answer.error.message).toMatch(message);
  return answer.error;
}

function expectErrorEnvelope(answer: Record<string, any>, code: number) {
  expect(Object.keys(answer)).toEqual(['id', 'jsonrpc', 'error', 'status']);
  expect(answer.jsonrpc).toBe('2.0');
  expect(answer.status).toBe('error');
  expect(answer.error.code).toBe(code);
  expect(typeof answer.error.message).toBe('string');
  expect(JSON.stringify(answer)).not.toMatch(/\n\s+at |\.ts:\d+/);
}

const sortedKeys = (value: Record<string, unknown>) => Object.keys(value).sort();

/** The JSON type of every value, by key. */
const jsonTypes = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).map(([key, field]) => [key, field === null ? 'null' : Array.isArray(field) ? 'array' : typeof field]));

async function receiptOf(hash: string): Promise<Record<string, any>> {
  return waitUntil(async () => (await call('jt_getTransactionReceipt', [hash])).result ?? undefined, 60_000, `the receipt of ${hash}`);
}

beforeAll(async () => {
  ({ dir, remove: removeDir } = tempDir('conformance-'));
  localAddress = generateLocalAccount(dir, 'n', passphrase).address;
  const rpcPort = await freePort();
  rpcUrl = `http://127.0.0.1:${rpcPort}/v1/jsonrpc`;
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '300', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
    '-data_dir', dir, '-password_file', path.join(dir, 'password'), '-thread_count', '2',
  ]);
  const devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/))[1]!;
  await node.waitFor(/facade\s+ready/);

  const client = new Client(devnetUrl);
  await client.connect();
  try {
    const genesis = Wallet.fromSeed(genesisSecret);
    const outcome = await client.submitAndWait({ TransactionType: 'Payment', Account: genesis.address, Destination: localAddress, Amount: '50000000000' }, { wallet: genesis });
    expect((outcome.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    funding = { hash: outcome.result.hash, ledgerIndex: outcome.result.ledger_index! };
  } finally {
    await client.disconnect();
  }
  await receiptOf(funding.hash);
  const [sentHash] = await result('jt_sendTransaction', [{ from: 'n', to: genesisAddress, value: '1000000' }]);
  sent = { hash: sentHash, ledgerIndex: (await receiptOf(sentHash)) && (await call('jt_getTransactionByHash', [sentHash])).result.ledger_index };
  await waitUntil(async () => (await call('jt_syncing')).result === false, 30_000, 'the node level with the devnet');
}, 150_000);

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

describe('jt_syncing', () => {
  it('takes no parameters and answers false, with status success, when level with the upstream', async () => {
    const answer = await post(JSON.stringify({ jsonrpc: '2.0', method: 'jt_syncing', params: [], id: 7 }));
    expect(answer.text).toBe('{"id":7,"jsonrpc":"2.0","result":false,"status":"success"}');
    expect(await result('jt_syncing')).toBe(false);
    await rpcError('jt_syncing', [true], -32602, /takes 0 parameter/);
  });
});

describe('jt_blockNumber', () => {
  it('takes no parameters and answers the current block number as a JSON number', async () => {
    const blockNumber = await result('jt_blockNumber');
    expect(Number.isInteger(blockNumber)).toBe(true);
    expect(blockNumber).toBeGreaterThanOrEqual(sent.ledgerIndex);
    const latest = await result('jt_getBlockByNumber', ['latest', false]);
    expect(latest.ledger_index).toBeGreaterThanOrEqual(blockNumber);
    // The id comes back as it was sent, string ids included.
    const answer = await post(JSON.stringify({ jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 'abc' }));
    expect(answer.text).toMatch(/^\{"id":"abc","jsonrpc":"2\.0","result":\d+,"status":"success"\}$/);
    await rpcError('jt_blockNumber', ['latest'], -32602, /takes 0 parameter/);
  });
});

describe('jt_getBalance', () => {
  it('takes (address, block selector) and answers the balance object of SPEC §2.3', async () => {
    const balance = await result('jt_getBalance', [localAddress, 'validated']);
    expect(sortedKeys(balance)).toEqual(['account', 'balance', 'coins', 'ledger_hash', 'ledger_index', 'validated']);
    expect(jsonTypes(balance)).toEqual({ account: 'string', balance: 'string', coins: 'array', ledger_hash: 'string', ledger_index: 'number', validated: 'boolean' });
    expect(balance).toMatchObject({ account: localAddress, coins: [], validated: true });
    expect(balance.ledger_hash).toMatch(hex64);
    // 50 000 XRP in, 1 XRP and a 12-drop fee out.
    const atSend = await result('jt_getBalance', [localAddress, `0x${sent.ledgerIndex.toString(16)}`]);
    expect(atSend.balance).toBe(String(50_000_000_000 - 1_000_000 - 12));
    expect(atSend.ledger_index).toBe(sent.ledgerIndex);
  });

  it('requires the block selector, and checks the parameters in order', async () => {
    await rpcError('jt_getBalance', [localAddress], -32602, /takes 2 parameter/);
    await rpcError('jt_getBalance', ['validated', localAddress], -32602, /parameter 1 \(address\)/);
    await rpcError('jt_getBalance', [localAddress, 'earliest'], -32602, /parameter 2 \(block\)/);
  });
});

describe('jt_getTransactionCount', () => {
  it('takes (address, block selector) and answers the number of transactions the address sent, as a JSON number', async () => {
    expect(await result('jt_getTransactionCount', [localAddress, 'validated'])).toBe(1);
    expect(await result('jt_getTransactionCount', [localAddress, String(sent.ledgerIndex - 1)])).toBe(0);
    await rpcError('jt_getTransactionCount', [localAddress], -32602, /takes 2 parameter/);
    await rpcError('jt_getTransactionCount', [42, 'validated'], -32602, /\(address\)/);
  });
});

describe('jt_getBlockTransactionCountByHash', () => {
  it('takes a 32-byte block hash and answers the number of its transactions, or null', async () => {
    const block = await result('jt_getBlockByNumber', [String(sent.ledgerIndex), false]);
    expect(await result('jt_getBlockTransactionCountByHash', [block.ledger_hash])).toBe(block.ledger.transactions.length);
    expect(await result('jt_getBlockTransactionCountByHash', [`0x${block.ledger_hash.toLowerCase()}`])).toBe(block.ledger.transactions.length);
    expect(await result('jt_getBlockTransactionCountByHash', ['0'.repeat(64)])).toBeNull();
    await rpcError('jt_getBlockTransactionCountByHash', [String(sent.ledgerIndex)], -32602, /\(blockHash\): expected a 32-byte hash/);
  });
});

describe('jt_getBlockTransactionCountByNumber', () => {
  it('takes a block number (decimal, 0x hex or integer) or tag and answers the number of its transactions', async () => {
    const block = await result('jt_getBlockByNumber', [String(sent.ledgerIndex), false]);
    for (const selector of [String(sent.ledgerIndex), `0x${sent.ledgerIndex.toString(16)}`, sent.ledgerIndex]) {
      expect(await result('jt_getBlockTransactionCountByNumber', [selector])).toBe(block.ledger.transactions.length);
    }
    expect(typeof (await result('jt_getBlockTransactionCountByNumber', ['latest']))).toBe('number');
    await rpcError('jt_getBlockTransactionCountByNumber', ['newest'], -32602, /\(blockNumber\)/);
  });
});

/** SPEC §2.4: the block object, every key with its JSON type. */
function expectBlockShape(block: Record<string, any>, full: boolean) {
  expect(sortedKeys(block)).toEqual(['ledger', 'ledger_hash', 'ledger_index', 'validated']);
  expect(jsonTypes(block)).toEqual({ ledger: 'object', ledger_hash: 'string', ledger_index: 'number', validated: 'boolean' });
  const { ledger } = block;
  expect(jsonTypes(ledger)).toEqual({
    accepted: 'boolean',
    account_hash: 'string',
    close_time: 'number',
    close_time_human: 'string',
    close_time_resolution: 'number',
    closed: 'boolean',
    hash: 'string',
    ledger_hash: 'string',
    ledger_index: 'string',
    parent_hash: 'string',
    seqNum: 'string',
    totalCoins: 'string',
    total_coins: 'string',
    transaction_hash: 'string',
    transactions: 'array',
  });
  expect(ledger.close_time_human).toMatch(/^\d{4}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(ledger.hash).toBe(block.ledger_hash);
  expect(ledger.ledger_hash).toBe(block.ledger_hash);
  expect(ledger.ledger_index).toBe(String(block.ledger_index));
  expect(ledger.seqNum).toBe(String(block.ledger_index));
  expect(ledger.totalCoins).toBe(ledger.total_coins);
  expect(ledger.totalCoins).toMatch(/^\d+$/);
  for (const tx of ledger.transactions) {
    if (full) expect(typeof tx === 'object' && hex64.test(tx.hash)).toBe(true);
    else expect(tx).toMatch(hex64);
  }
}

describe('jt_getBlockByHash', () => {
  it('takes (32-byte hash, Boolean) and answers the block object with hashes or full transactions, or null', async () => {
    const byNumber = await result('jt_getBlockByNumber', [String(sent.ledgerIndex), false]);
    const hashesOnly = await result('jt_getBlockByHash', [byNumber.ledger_hash, false]);
    expectBlockShape(hashesOnly, false);
    expect(hashesOnly).toEqual(byNumber);
    expect(hashesOnly.ledger.transactions).toContain(sent.hash);
    const full = await result('jt_getBlockByHash', [byNumber.ledger_hash, true]);
    expectBlockShape(full, true);
    expect(full.ledger.transactions.find((tx: Record<string, any>) => tx.hash === sent.hash)).toMatchObject({ Account: localAddress, Destination: genesisAddress, Amount: '1000000' });
    expect(await result('jt_getBlockByHash', ['F'.repeat(64), true])).toBeNull();
    await rpcError('jt_getBlockByHash', [byNumber.ledger_hash], -32602, /takes 2 parameter/);
    await rpcError('jt_getBlockByHash', [false, byNumber.ledger_hash], -32602, /parameter 1 \(blockHash\)/);
    await rpcError('jt_getBlockByHash', [byNumber.ledger_hash, 'true'], -32602, /parameter 2 \(fullTransactions\): expected true/);
  });
});

describe('jt_getBlockByNumber', () => {
  it('takes (number or tag earliest/latest/pending, Boolean) and answers the block object, or null', async () => {
    const block = await result('jt_getBlockByNumber', [`0x${funding.ledgerIndex.toString(16)}`, true]);
    expectBlockShape(block, true);
    expect(block.ledger_index).toBe(funding.ledgerIndex);
    expect(block.ledger.transactions.map((tx: Record<string, any>) => tx.hash)).toContain(funding.hash);
    expect((await result('jt_getBlockByNumber', ['earliest', false])).ledger_index).toBe(1);
    const latest = await result('jt_getBlockByNumber', ['latest', false]);
    expectBlockShape(latest, false);
    expect((await result('jt_getBlockByNumber', ['pending', false])).ledger_index).toBeGreaterThanOrEqual(latest.ledger_index);
    expect(await result('jt_getBlockByNumber', ['4000000000', false])).toBeNull();
    await rpcError('jt_getBlockByNumber', [false, 'latest'], -32602, /parameter 1 \(blockNumber\)/);
  });
});

/** SPEC §2.5 for the local account's payment, every field with its JSON type. */
function expectTransactionShape(tx: Record<string, any>) {
  expect(jsonTypes(tx)).toEqual({
    Account: 'string',
    Amount: 'string',
    Destination: 'string',
    Fee: 'string',
    Flags: 'number',
    // Set by the submission service (rippled's expiry rule); every field of the transaction is shown.
    LastLedgerSequence: 'number',
    Sequence: 'number',
    SigningPubKey: 'string',
    TransactionType: 'string',
    TxnSignature: 'string',
    date: 'number',
    hash: 'string',
    inLedger: 'number',
    ledger_hash: 'string',
    ledger_index: 'number',
    validated: 'boolean',
  });
  expect(tx).toMatchObject({ Account: localAddress, Amount: '1000000', Destination: genesisAddress, Fee: '12', TransactionType: 'Payment', hash: sent.hash, inLedger: sent.ledgerIndex, ledger_index: sent.ledgerIndex, validated: true });
  expect(tx.ledger_hash).toMatch(hex64);
}

describe('jt_getTransactionByHash', () => {
  it('takes a 32-byte transaction hash and answers the transaction object, or null', async () => {
    expectTransactionShape(await result('jt_getTransactionByHash', [sent.hash]));
    expect((await result('jt_getTransactionByHash', [`0x${sent.hash.toLowerCase()}`])).hash).toBe(sent.hash);
    expect(await result('jt_getTransactionByHash', ['0'.repeat(64)])).toBeNull();
    await rpcError('jt_getTransactionByHash', [], -32602, /takes 1 parameter/);
    await rpcError('jt_getTransactionByHash', [sent.hash.slice(2)], -32602, /\(transactionHash\): expected a 32-byte hash as 64 hex digits/);
  });
});

describe('jt_getTransactionByBlockHashAndIndex', () => {
  it('takes (32-byte block hash, index) and answers the same transaction object, or null', async () => {
    const tx = await result('jt_getTransactionByHash', [sent.hash]);
    const { TransactionIndex } = await result('jt_getTransactionReceipt', [sent.hash]);
    const byIndex = await result('jt_getTransactionByBlockHashAndIndex', [tx.ledger_hash, `0x${TransactionIndex.toString(16)}`]);
    expectTransactionShape(byIndex);
    expect(byIndex).toEqual(tx);
    expect(await result('jt_getTransactionByBlockHashAndIndex', [tx.ledger_hash, 999])).toBeNull();
    await rpcError('jt_getTransactionByBlockHashAndIndex', [TransactionIndex, tx.ledger_hash], -32602, /parameter 1 \(blockHash\)/);
  });
});

describe('jt_getTransactionByBlockNumberAndIndex', () => {
  it('takes (block number or tag, index) and answers the same transaction object, or null', async () => {
    const tx = await result('jt_getTransactionByHash', [sent.hash]);
    const { TransactionIndex } = await result('jt_getTransactionReceipt', [sent.hash]);
    const byIndex = await result('jt_getTransactionByBlockNumberAndIndex', [String(sent.ledgerIndex), TransactionIndex]);
    expectTransactionShape(byIndex);
    expect(byIndex).toEqual(tx);
    expect(await result('jt_getTransactionByBlockNumberAndIndex', [String(sent.ledgerIndex), '999'])).toBeNull();
    await rpcError('jt_getTransactionByBlockNumberAndIndex', [String(sent.ledgerIndex), -1], -32602, /parameter 2 \(transactionIndex\)/);
  });
});

describe('jt_getTransactionReceipt', () => {
  it('takes a 32-byte transaction hash and answers the receipt of SPEC §2.6, or null', async () => {
    const receipt = await result('jt_getTransactionReceipt', [sent.hash]);
    // delivered_amount: what the payment delivered, as rippled adds to a successful payment's metadata.
    expect(sortedKeys(receipt)).toEqual(['AffectedNodes', 'TransactionIndex', 'TransactionResult', 'delivered_amount', 'hash']);
    expect(jsonTypes(receipt)).toEqual({ AffectedNodes: 'array', TransactionIndex: 'number', TransactionResult: 'string', delivered_amount: 'string', hash: 'string' });
    expect(receipt).toMatchObject({ TransactionResult: 'tesSUCCESS', hash: sent.hash, delivered_amount: '1000000' });
    expect(receipt.AffectedNodes).toHaveLength(2);
    for (const affected of receipt.AffectedNodes) {
      expect(Object.keys(affected)).toEqual(['ModifiedNode']);
      const modified = affected.ModifiedNode;
      expect(jsonTypes(modified)).toEqual({ FinalFields: 'object', LedgerEntryType: 'string', LedgerIndex: 'string', PreviousFields: 'object', PreviousTxnID: 'string', PreviousTxnLgrSeq: 'number' });
      expect(modified.LedgerEntryType).toBe('AccountRoot');
      expect(modified.LedgerIndex).toMatch(hex64);
      expect(modified.PreviousTxnID).toMatch(hex64);
      expect(jsonTypes(modified.FinalFields)).toEqual({ Account: 'string', Balance: 'string', Flags: 'number', OwnerCount: 'number', Sequence: 'number' });
    }
    const sender = receipt.AffectedNodes.find((affected: Record<string, any>) => affected.ModifiedNode.FinalFields.Account === localAddress).ModifiedNode;
    expect(jsonTypes(sender.PreviousFields)).toEqual({ Balance: 'string', Sequence: 'number' });
    expect(BigInt(sender.PreviousFields.Balance) - BigInt(sender.FinalFields.Balance)).toBe(1_000_012n);
    expect(sender.PreviousTxnID).toBe(funding.hash);
    expect(await result('jt_getTransactionReceipt', ['A'.repeat(64)])).toBeNull();
    await rpcError('jt_getTransactionReceipt', [sent.hash, true], -32602, /takes 1 parameter/);
  });
});

describe('jt_accounts', () => {
  it('takes no parameters and answers the local account addresses as an array of strings', async () => {
    expect(await result('jt_accounts')).toEqual([localAddress]);
    await rpcError('jt_accounts', ['n'], -32602, /takes 0 parameter/);
  });
});

describe('jt_sign', () => {
  it('takes (address, hex message) and answers a 0x-prefixed signature over the chain prefix and the message', async () => {
    const message = Buffer.from('conformance');
    const signature = await result('jt_sign', [localAddress, `0x${message.toString('hex')}`]);
    expect(signature).toMatch(/^0x[0-9a-f]+$/);
    const { SigningPubKey } = await result('jt_getTransactionByHash', [sent.hash]);
    const signed = Buffer.concat([Buffer.from(signedMessagePrefix), message]).toString('hex');
    expect(verify(signed, signature.slice(2).toUpperCase(), SigningPubKey)).toBe(true);
    // The nickname names the same key; hex without 0x is the same message.
    expect(verify(signed, (await result('jt_sign', ['n', message.toString('hex')])).slice(2).toUpperCase(), SigningPubKey)).toBe(true);
    await rpcError('jt_sign', [`0x${message.toString('hex')}`, localAddress], -32602, /parameter 2 \(message\): expected the message as an even number of hex digits/);
  });
});

describe('jt_sendTransaction', () => {
  it('takes a transaction request object, defaults the fee to 12, and answers a one-element array holding the hash', async () => {
    const answer = await result('jt_sendTransaction', [{ from: localAddress, to: genesisAddress, value: '2000' }]);
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatch(hex64);
    expect((await receiptOf(answer[0])).TransactionResult).toBe('tesSUCCESS');
    expect(await result('jt_getTransactionByHash', [answer[0]])).toMatchObject({ Fee: '12', Amount: '2000', Account: localAddress, Destination: genesisAddress });
    await rpcError('jt_sendTransaction', [localAddress, genesisAddress], -32602, /takes 1 parameter/);
    await rpcError('jt_sendTransaction', [{ from: localAddress, to: genesisAddress, value: '5', gas: 1 }], -32602, /\(transaction\)/);
  });
});

describe('jt_signTransaction', () => {
  it('takes a transaction request object, defaults the fee to 12, and answers a one-element array holding the signed hex', async () => {
    const [blob, ...rest] = await result('jt_signTransaction', [{ from: 'n', to: genesisAddress, value: 5 }]);
    expect(rest).toEqual([]);
    expect(blob).toMatch(/^[0-9A-F]+$/);
    const tx = decode(blob) as Record<string, any>;
    expect(tx).toMatchObject({ TransactionType: 'Payment', Account: localAddress, Destination: genesisAddress, Amount: '5', Fee: '12' });
    const { TxnSignature, ...unsigned } = tx;
    expect(verify(encodeForSigning(unsigned), TxnSignature, tx.SigningPubKey)).toBe(true);
    const [withFee] = await result('jt_signTransaction', [{ from: 'n', to: genesisAddress, value: '5', fee: '15' }]);
    expect(decode(withFee)).toMatchObject({ Fee: '15' });
  });
});

describe('jt_sendRawTransaction', () => {
  it('takes a signed transaction as hex and answers a one-element array holding its hash', async () => {
    const [blob] = await result('jt_signTransaction', [{ from: localAddress, to: genesisAddress, value: '777' }]);
    const answer = await result('jt_sendRawTransaction', [blob]);
    expect(answer).toEqual([hashes.hashSignedTx(blob)]);
    expect((await receiptOf(answer[0])).TransactionResult).toBe('tesSUCCESS');
    await rpcError('jt_sendRawTransaction', [], -32602, /takes 1 parameter/);
    await rpcError('jt_sendRawTransaction', ['xyz'], -32602, /\(signedTransaction\)/);
  });
});

describe('jt_account', () => {
  it('takes (address, page, perPage, newestFirst, direction) with defaults 0, all, true, both and answers the history entries of SPEC §2.7', async () => {
    const history = await result('jt_account', [localAddress]);
    expect(await result('jt_account', [localAddress, 0, 1000, true, 'both'])).toEqual(history);
    expect(history.length).toBeGreaterThanOrEqual(2);
    for (const entry of history) {
      expect(jsonTypes(entry)).toEqual({ amount: 'string', date: 'string', from_address: 'string', hash: 'string', to_address: 'string', type: 'string' });
      expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    }
    // Newest first by default: the funding payment is the oldest entry.
    expect(history.at(-1)).toEqual({ amount: '50000000000', date: expect.any(String), from_address: genesisAddress, hash: funding.hash, to_address: localAddress, type: 'Payment' });
    expect(await result('jt_account', [localAddress, 0, 1000, false])).toEqual([...history].reverse());
    expect(await result('jt_account', [localAddress, 0, 1000, true, 'in'])).toEqual([history.at(-1)]);
    expect((await result('jt_account', [localAddress, 0, 1000, true, 'out'])).map((entry: Record<string, any>) => entry.from_address)).toEqual(history.slice(0, -1).map(() => localAddress));
    expect(await result('jt_account', [localAddress, 1, 1])).toEqual([history[1]]);
  });

  it('checks each parameter in its position', async () => {
    await rpcError('jt_account', [localAddress, '0'], -32602, /parameter 2 \(page\)/);
    await rpcError('jt_account', [localAddress, 0, 0], -32602, /parameter 3 \(perPage\)/);
    await rpcError('jt_account', [localAddress, 0, 10, 'yes'], -32602, /parameter 4 \(newestFirst\)/);
    await rpcError('jt_account', [localAddress, 0, 10, true, 'sideways'], -32602, /parameter 5 \(direction\): expected "in", "out" or "both"/);
  });
});

describe('JSON-RPC 2.0 errors over HTTP', () => {
  const invalidRequests: [string, unknown][] = [
    ['no jsonrpc', { method: 'jt_blockNumber', params: [], id: 1 }],
    ['jsonrpc "1.0"', { jsonrpc: '1.0', method: 'jt_blockNumber', params: [], id: 1 }],
    ['jsonrpc as a number', { jsonrpc: 2.0, method: 'jt_blockNumber', params: [], id: 1 }],
    ['no method', { jsonrpc: '2.0', params: [], id: 1 }],
    ['method as a number', { jsonrpc: '2.0', method: 42, params: [], id: 1 }],
    ['params as an object', { jsonrpc: '2.0', method: 'jt_blockNumber', params: { a: 1 }, id: 1 }],
    ['params as a string', { jsonrpc: '2.0', method: 'jt_blockNumber', params: 'x', id: 1 }],
    ['id as an object', { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: { a: 1 } }],
    ['id as an array', { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: [1] }],
    ['id as a boolean', { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: true }],
    ['a string body', 'jt_blockNumber'],
    ['a number body', 42],
  ];

  it.each(invalidRequests)('%s is -32600 invalid request', async (_what, request) => {
    const answer = await post(JSON.stringify(request));
    expect(answer.status).toBe(200);
    expectErrorEnvelope(answer.body, -32600);
    expect(answer.body.error.message).toMatch(/^invalid request: /);
    const sentId = typeof request === 'object' && request !== null ? (request as Record<string, unknown>).id : undefined;
    expect(answer.body.id).toBe(typeof sentId === 'number' ? sentId : null);
  });

  it.each([
    ['truncated JSON', '{"jsonrpc":"2.0","method":"jt_blockNumber",'],
    ['not JSON at all', 'hello'],
    ['a trailing comma', '{"jsonrpc":"2.0","method":"jt_blockNumber","params":[],"id":1,}'],
  ])('%s is -32700 parse error with a null id', async (_what, body) => {
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expectErrorEnvelope(answer.body, -32700);
    expect(answer.body.id).toBeNull();
  });

  it('an unknown method is -32601 naming it', async () => {
    expect((await rpcError('eth_blockNumber', [], -32601)).message).toBe('method not found: eth_blockNumber');
  });

  it('invalid params are -32602: the message names the parameter and the expected form, data names the parameter', async () => {
    const error = await rpcError('jt_getBlockByNumber', ['nope', false], -32602);
    expect(error.message).toBe('invalid parameter 1 (blockNumber): expected a ledger number (decimal, 0x hex or integer) or one of earliest, latest, pending, current, validated, closed');
    expect(error.data).toEqual({ param: 'blockNumber' });
  });

  it.each([
    ['jt_sign', -32004, () => [unfundedAddress, '0x00'], new RegExp(`no local account "?${unfundedAddress}"?`)],
    ['jt_getTransactionCount', -32002, () => [localAddress, String(4_000_000_000)], /outside|not stored/],
    ['jt_getBalance', -32003, () => [unfundedAddress, 'validated'], new RegExp(`account ${unfundedAddress} not found at ledger \\d+`)],
  ] as const)('a domain error of %s is %i, inside -32000..-32099, with status error', async (method, code, params, message) => {
    await rpcError(method, params(), code, message);
    expect(code).toBeGreaterThanOrEqual(-32099);
    expect(code).toBeLessThanOrEqual(-32000);
  });

  it('a batch answers each call by id, leaves out notifications, and reports each element\'s own error', async () => {
    const answer = await post(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 1 },
        { jsonrpc: '2.0', method: 'jt_nope', params: [], id: 2 },
        { jsonrpc: '2.0', method: 'jt_getTransactionByHash', params: ['xx'], id: 3 },
        { jsonrpc: '2.0', method: 'jt_blockNumber', params: [] },
        { method: 'jt_blockNumber', id: 5 },
        7,
        { jsonrpc: '2.0', method: 'jt_getTransactionByHash', params: [sent.hash], id: 'tx' },
      ]),
    );
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
    const byId = new Map<unknown, Record<string, any>>(answer.body.filter((entry: Record<string, any>) => entry.id !== null).map((entry: Record<string, any>) => [entry.id, entry]));
    expect(answer.body).toHaveLength(6);
    expect(Object.keys(byId.get(1)!)).toEqual(['id', 'jsonrpc', 'result', 'status']);
    expect(typeof byId.get(1)!.result).toBe('number');
    expectErrorEnvelope(byId.get(2)!, -32601);
    expectErrorEnvelope(byId.get(3)!, -32602);
    expectErrorEnvelope(byId.get(5)!, -32600);
    expect(byId.get('tx')!.result.hash).toBe(sent.hash);
    const anonymous = answer.body.filter((entry: Record<string, any>) => entry.id === null);
    expect(anonymous).toHaveLength(1);
    expectErrorEnvelope(anonymous[0], -32600);
  });

  it('an empty batch is a single -32600, not an array', async () => {
    const answer = await post('[]');
    expect(answer.status).toBe(200);
    expectErrorEnvelope(answer.body, -32600);
    expect(answer.body.id).toBeNull();
  });

  it('a batch longer than the limit is a single -32600 naming the limit', async () => {
    const calls = Array.from({ length: 101 }, (_, index) => ({ jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: index }));
    const answer = await post(JSON.stringify(calls));
    expectErrorEnvelope(answer.body, -32600);
    expect(answer.body.error.message).toMatch(/101 .*100/);
  });

  it('a notification (no id) gets no response entry: 204 with no body, also for a batch of notifications and a failing one', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'jt_blockNumber', params: [] },
      [{ jsonrpc: '2.0', method: 'jt_blockNumber', params: [] }, { jsonrpc: '2.0', method: 'jt_syncing' }],
      { jsonrpc: '2.0', method: 'jt_getTransactionByHash', params: ['zz'] },
    ]) {
      const answer = await post(JSON.stringify(body));
      expect(answer.status, JSON.stringify(body)).toBe(204);
      expect(answer.text).toBe('');
    }
  });

  it('a body that is not JSON by its content type is 415', async () => {
    const answer = await post(JSON.stringify({ jsonrpc: '2.0', method: 'jt_blockNumber', params: [], id: 1 }), 'text/plain');
    expect(answer.status).toBe(415);
    expectErrorEnvelope(answer.body, -32600);
  });

  it('a body over the size limit (1 MiB by default) is 413', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    const answer = await post(JSON.stringify({ jsonrpc: '2.0', method: 'jt_blockNumber', params: [padding], id: 1 }));
    expect(answer.status).toBe(413);
    expectErrorEnvelope(answer.body, -32600);
  });

  it('GET is 405 with Allow: POST', async () => {
    const response = await fetch(rpcUrl);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expectErrorEnvelope((await response.json()) as Record<string, any>, -32600);
  });
});

describe('-32603 internal error', () => {
  let failingStore: GrpcServer;
  let facade: RunningProcess;
  let facadeUrl: string;

  beforeAll(async () => {
    // A ledger-store that fails every call with an unexpected error, as a store whose disk failed
    // would: the facade must answer -32603 without repeating what went wrong.
    const storeAddress = `unix:${path.join(dir, 'failing-store.sock')}`;
    const failing = new Proxy({}, { get: () => async () => { throw new Error('disk failure at /var/lib/secret/node.db'); } });
    failingStore = await startGrpcServer({
      address: storeAddress,
      services: [bindService('ledgernode.ledgerstore.v1.LedgerStoreService', LedgerStoreServiceService, failing as never)],
      logger: createLogger('failing-store', 'silent'),
    });
    const port = await freePort();
    facadeUrl = `http://127.0.0.1:${port}/v1/jsonrpc`;
    facade = startProcess([
      cliEntry(), 'serve', 'facade', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-sync=false',
      '-ledger_store_addr', storeAddress, '-data_dir', path.join(dir, 'facade-only'),
    ]);
    await facade.waitFor(/"msg":"facade serving"/);
  });

  afterAll(async () => {
    await facade?.stop();
    await failingStore?.stop();
  });

  it('answers -32603 "internal error" with a correlation id in data, no stack and no detail, and logs the details under that id', async () => {
    const response = await fetch(facadeUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'jt_getTransactionByHash', params: [sent.hash], id: 9 }) });
    expect(response.status).toBe(200);
    const text = await response.text();
    const answer = JSON.parse(text);
    expectErrorEnvelope(answer, -32603);
    expect(answer).toEqual({ id: 9, jsonrpc: '2.0', error: { code: -32603, message: 'internal error', data: { correlation_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) } }, status: 'error' });
    expect(text).not.toMatch(/disk failure|secret|Error:|\bat /);
    await facade.waitFor(new RegExp(answer.error.data.correlation_id), 5_000);
  });
});
