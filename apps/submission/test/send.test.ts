/**
 * Keys to payments through real processes: `account generate`, then a node on an embedded devnet
 * (-dev) signs with the keystore, submits through the submission service, and reads the receipt
 * from the synced ledgers.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { deriveKeypair, verify } from 'ripple-keypairs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ECDSA, hashes, Wallet, xrpToDrops, type Payment } from 'xrpl';
import { SubmissionServiceService, SubmissionState } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import { childPids, cliEntry, decryptKeyFile, freePort, printFigures, startProcess, stopAll, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';

const passphrase = 'send test passphrase';
const CONCURRENT_SENDS = 20;
const genesisSecret = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
const genesisAddress = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
let dir: string;
let removeDir: () => void;
let node: RunningProcess;
let rpcPort: number;
let devnetUrl: string;
let alice: string;
let bob: string;
const transcript: string[] = [];

async function call(method: string, params: unknown[] = [], headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  const text = await response.text();
  transcript.push(text);
  return JSON.parse(text) as Record<string, any>;
}

async function receiptOf(hash: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  return waitUntil(async () => (await call('jt_getTransactionReceipt', [hash])).result as Record<string, any> | null, timeoutMs, `the receipt of ${hash}`, 300);
}

function generate(nickname: string): string {
  const result = spawnSync(process.execPath, [cliEntry(), 'account', 'generate', '-nickname', nickname, '-data_dir', dir, '-json'], {
    env: { ...process.env, LEDGER_NODE_PASSWORD: passphrase },
    encoding: 'utf8',
  });
  transcript.push(result.stdout, result.stderr);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout).address as string;
}

/** A modified AccountRoot of a receipt, by account. */
function accountChange(receipt: Record<string, any>, account: string) {
  const node = receipt.AffectedNodes.map((n: Record<string, any>) => n.ModifiedNode ?? n.CreatedNode).find(
    (n: Record<string, any>) => n.LedgerEntryType === 'AccountRoot' && (n.FinalFields ?? n.NewFields).Account === account,
  );
  return node as Record<string, any>;
}

beforeAll(async () => {
  ({ dir, remove: removeDir } = tempDir('send-'));
  alice = generate('alice');
  bob = generate('bob');
  writeFileSync(path.join(dir, 'password'), `${passphrase}\n`, { mode: 0o600 });
  rpcPort = await freePort();
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '300', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
    '-data_dir', dir, '-password_file', path.join(dir, 'password'), '-thread_count', '2',
    // Concurrent sends from one client are the point here, not the per-client send limit.
    '-send_rate', '0',
    // Nor the scrypt derivation of each signature (the keystore's tests, crash-node and account.test
    // sign with the default, one derivation each): the key stays derived while the file runs.
    '-unlock_seconds', '600',
    // An open ledger takes one transaction; more are queued (terQUEUED) for the next ledgers.
    '-open_ledger_limit', '1',
  ]);
  devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/))[1]!;
  for (const service of ['ledger-store', 'keystore', 'submission', 'sync', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`), 60_000);
  // Fund alice from genesis with a blob signed elsewhere: jt_sendRawTransaction.
  const client = new Client(devnetUrl);
  await client.connect();
  try {
    const genesis = Wallet.fromSeed(genesisSecret);
    const prepared = await client.autofill({ TransactionType: 'Payment', Account: genesis.address, Destination: alice, Amount: xrpToDrops(10_000) });
    const { tx_blob: blob, hash } = genesis.sign(prepared);
    const funded = await call('jt_sendRawTransaction', [blob]);
    expect(funded.result, JSON.stringify(funded)).toEqual([hash]);
    expect((await receiptOf(hash)).TransactionResult).toBe('tesSUCCESS');
  } finally {
    await client.disconnect();
  }
}, 120_000);

afterAll(async () => {
  transcript.push(node?.output() ?? '');
  await stopAll();
  removeDir?.();
});

describe('signing and sending through the keystore and the submission service', () => {
  it('jt_accounts lists the local accounts', async () => {
    expect((await call('jt_accounts')).result.sort()).toEqual([alice, bob].sort());
  });

  it('jt_sendTransaction pays from a local account (by nickname) and the receipt shows the balance changes', async () => {
    const { result } = await call('jt_sendTransaction', [{ from: 'alice', to: bob, value: '25000000', fee: '12' }]);
    expect(result).toHaveLength(1);
    const receipt = await receiptOf(result[0]);
    expect(receipt.TransactionResult).toBe('tesSUCCESS');
    const sender = accountChange(receipt, alice);
    expect(BigInt(sender.PreviousFields.Balance) - BigInt(sender.FinalFields.Balance)).toBe(25_000_012n);
    const receiver = accountChange(receipt, bob);
    expect(BigInt(receiver.NewFields.Balance)).toBe(25_000_000n);
    const tx = (await call('jt_getTransactionByHash', [result[0]])).result;
    expect(tx).toMatchObject({ Account: alice, Destination: bob, Amount: '25000000', Fee: '12', TransactionType: 'Payment', validated: true });
  });

  // 20 at once race for sequences.
  it(`${CONCURRENT_SENDS} concurrent jt_sendTransaction from one account all validate with distinct sequences`, async () => {
    const answers = await Promise.all(Array.from({ length: CONCURRENT_SENDS }, (_, i) => call('jt_sendTransaction', [{ from: alice, to: bob, value: 1000 + i }])));
    const hashes = answers.map((answer) => {
      expect(answer.status, JSON.stringify(answer)).toBe('success');
      return answer.result[0] as string;
    });
    expect(new Set(hashes).size).toBe(CONCURRENT_SENDS);
    const receipts = await Promise.all(hashes.map((hash) => receiptOf(hash, 120_000)));
    expect(receipts.every((receipt) => receipt.TransactionResult === 'tesSUCCESS')).toBe(true);
    const sequences = await Promise.all(hashes.map(async (hash) => (await call('jt_getTransactionByHash', [hash])).result.Sequence as number));
    expect(new Set(sequences).size).toBe(CONCURRENT_SENDS);
  }, 180_000);

  it('jt_signTransaction returns a blob that decodes and verifies', async () => {
    const { result } = await call('jt_signTransaction', [{ from: alice, to: bob, value: 7 }]);
    const tx = decode(result[0]) as Record<string, any>;
    expect(tx).toMatchObject({ TransactionType: 'Payment', Account: alice, Destination: bob, Amount: '7', Fee: '12' });
    expect(tx.LastLedgerSequence).toBeGreaterThan(0);
    const { TxnSignature, ...unsigned } = tx;
    expect(verify(encodeForSigning(unsigned), TxnSignature, tx.SigningPubKey)).toBe(true);
  });

  it('jt_sign signs prefix + message, verifiable with ripple-keypairs', async () => {
    const message = Buffer.from('hello ledger');
    const { result } = await call('jt_sign', ['bob', `0x${message.toString('hex')}`]);
    expect(result).toMatch(/^0x[0-9a-f]+$/);
    const publicKey = deriveKeypair(decryptSeed(bob)).publicKey;
    const signed = Buffer.concat([Buffer.from('\x19XRP Ledger Signed Message:\n'), message]).toString('hex');
    expect(verify(signed, result.slice(2).toUpperCase(), publicKey)).toBe(true);
  });

  it.each([
    [[{ from: 'alice', value: 5 }], /"to" \(the destination address\) is required/],
    [[{ from: 'alice', to: genesisAddress, value: '1.5' }], /"value"/],
    [[{ from: 'alice', to: genesisAddress, value: -3 }], /"value"/],
    [[{ from: 'alice', to: genesisAddress }], /"value"/],
    [[{ from: 'alice', to: 'not-an-address', value: 5 }], /"to" is not a valid/],
  ])('jt_sendTransaction%j is -32602', async (params, message) => {
    const answer = await call('jt_sendTransaction', params);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(message);
  });

  it('an unknown from is "no local account"', async () => {
    const answer = await call('jt_sendTransaction', [{ from: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', to: bob, value: 5 }]);
    expect(answer.error).toMatchObject({ code: -32004, message: 'no local account rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' });
  });

  it('a bad signature in jt_sendRawTransaction is refused before submission', async () => {
    const { result } = await call('jt_signTransaction', [{ from: alice, to: bob, value: 9 }]);
    const tampered = result[0].replace(/(6140000000000000)09/, '$10A');
    expect(tampered).not.toBe(result[0]);
    const answer = await call('jt_sendRawTransaction', [tampered]);
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/signature does not verify/) });
  });

  it('no seed, private key or passphrase appears in any output', () => {
    const everything = transcript.join('\n') + node.output();
    for (const address of [alice, bob]) {
      const seed = decryptSeed(address);
      const { privateKey } = deriveKeypair(seed);
      expect(everything).not.toContain(seed);
      expect(everything.toUpperCase()).not.toContain(privateKey.toUpperCase());
    }
    expect(everything).not.toContain(passphrase);
  });
});

describe('what a send returns: one row of the outcome table each (docs/api.md "What a send returns")', () => {
  const ZERO_HASH = '0'.repeat(64);
  /** The submission record of a hash, from the submission service itself. */
  async function recordOf(hash: string) {
    const submission = createGrpcClient(SubmissionServiceService, `unix:${path.join(dir, 'run', 'submission.sock')}`, { serviceLabel: 'submission' });
    try {
      return (await submission.getSubmission({ lookup: { $case: 'hash', hash: Buffer.from(hash, 'hex') } })).submission;
    } finally {
      submission.close();
    }
  }
  /** A payment signed by a wallet of the test, autofilled by the devnet, with `fields` over it. */
  async function signedBy(wallet: Wallet, fields: Record<string, unknown>) {
    const client = new Client(devnetUrl);
    await client.connect();
    try {
      const prepared = await client.autofill({ TransactionType: 'Payment', Account: wallet.address, Destination: alice, Amount: '1000', ...fields } as Payment);
      return wallet.sign({ ...prepared, ...fields } as Payment);
    } finally {
      await client.disconnect();
    }
  }

  it('tec: paying more than the balance answers the hash, and the receipt shows tecUNFUNDED_PAYMENT with the fee taken (both paths)', async () => {
    const overdraw = { from: 'bob', to: alice, value: '100000000000000' };
    const { result: [sentHash] } = await call('jt_sendTransaction', [overdraw]);
    const { result: [blob] } = await call('jt_signTransaction', [overdraw]);
    const { result: [rawHash] } = await call('jt_sendRawTransaction', [blob]);
    expect(rawHash).toBe(hashes.hashSignedTx(blob));
    for (const hash of [sentHash, rawHash]) {
      expect(hash).not.toBe(ZERO_HASH);
      const receipt = await receiptOf(hash);
      expect(receipt.TransactionResult).toBe('tecUNFUNDED_PAYMENT');
      const payer = accountChange(receipt, bob);
      expect(BigInt(payer.PreviousFields.Balance) - BigInt(payer.FinalFields.Balance)).toBe(12n);
      await waitUntil(async () => (await recordOf(hash))?.state === SubmissionState.VALIDATED, 30_000, `the record of ${hash} validated`);
      expect(await recordOf(hash)).toMatchObject({ engineResult: 'tecUNFUNDED_PAYMENT' });
    }
  });

  it('ter: a blob from an account that does not exist answers the zero hash; it is held, then expires, in no ledger', async () => {
    const stranger = Wallet.generate();
    const current = (await call('jt_blockNumber')).result as number;
    const signed = stranger.sign({ TransactionType: 'Payment', Account: stranger.address, Destination: alice, Amount: '1000', Fee: '12', Sequence: 1, LastLedgerSequence: current + 8 });
    expect((await call('jt_sendRawTransaction', [signed.tx_blob])).result).toEqual([ZERO_HASH]);
    expect(await recordOf(signed.hash)).toMatchObject({ state: SubmissionState.HELD, engineResult: 'terNO_ACCOUNT' });
    await waitUntil(async () => (await recordOf(signed.hash))?.state === SubmissionState.EXPIRED, 60_000, 'the held transaction expired');
    expect((await call('jt_getTransactionReceipt', [signed.hash])).result).toBeNull();
  });

  it('terQUEUED: past a full open ledger a transaction is queued; it answers its hash and validates in a coming ledger', async () => {
    const genesis = Wallet.fromSeed(genesisSecret);
    const first = await signedBy(genesis, {});
    const sequence = decode(first.tx_blob).Sequence as number;
    const following = await Promise.all([1, 2, 3].map((offset) => signedBy(genesis, { Sequence: sequence + offset })));
    const sent = [first, ...following];
    for (const { tx_blob: blob, hash } of sent) expect((await call('jt_sendRawTransaction', [blob])).result).toEqual([hash]);
    const results = await Promise.all(sent.map(async ({ hash }) => (await recordOf(hash))!.engineResult));
    expect(results).toContain('terQUEUED');
    for (const { hash } of sent) expect((await receiptOf(hash)).TransactionResult).toBe('tesSUCCESS');
  });

  it('tef, tel and tem: a transaction that cannot enter a ledger answers the zero hash and is recorded rejected', async () => {
    const genesis = Wallet.fromSeed(genesisSecret);
    const cases = [
      ['tefMAX_LEDGER', await signedBy(genesis, { LastLedgerSequence: 2 })],
      ['telINSUF_FEE_P', await signedBy(genesis, { Fee: '1' })],
      ['temREDUNDANT', await signedBy(genesis, { Destination: genesis.address })],
    ] as const;
    for (const [engineResult, signed] of cases) {
      expect((await call('jt_sendRawTransaction', [signed.tx_blob])).result, engineResult).toEqual([ZERO_HASH]);
      expect(await recordOf(signed.hash)).toMatchObject({ state: SubmissionState.REJECTED, engineResult });
    }
    // jt_sendTransaction answers the same way: a fee below the minimum.
    expect((await call('jt_sendTransaction', [{ from: alice, to: bob, value: 5, fee: 1 }])).result).toEqual([ZERO_HASH]);
  });

  it('a validated transaction sent again, any number of times, answers its hash and stays validated in its ledger', async () => {
    const signed = await signedBy(Wallet.fromSeed(genesisSecret), {});
    expect((await call('jt_sendRawTransaction', [signed.tx_blob])).result).toEqual([signed.hash]);
    await receiptOf(signed.hash);
    await waitUntil(async () => (await recordOf(signed.hash))?.state === SubmissionState.VALIDATED, 30_000, 'the record validated');
    const { ledgerIndex } = (await recordOf(signed.hash))!;
    for (let again = 0; again < 3; again++) expect((await call('jt_sendRawTransaction', [signed.tx_blob])).result).toEqual([signed.hash]);
    expect(await recordOf(signed.hash)).toMatchObject({ state: SubmissionState.VALIDATED, engineResult: 'tesSUCCESS', ledgerIndex });
  });
});

describe('submit and wait (jt_sendTransactionAndWait, jt_sendRawTransactionAndWait)', () => {
  it('answers the validated receipt: tesSUCCESS, and a tec one with its result', async () => {
    const paid = await call('jt_sendTransactionAndWait', [{ from: 'alice', to: bob, value: '1000' }, 60]);
    expect(paid.result).toMatchObject({ TransactionResult: 'tesSUCCESS' });
    const { result: [blob] } = await call('jt_signTransaction', [{ from: 'bob', to: alice, value: '100000000000000' }]);
    const overdrawn = await call('jt_sendRawTransactionAndWait', [blob]);
    expect(overdrawn.result).toMatchObject({ TransactionResult: 'tecUNFUNDED_PAYMENT' });
    expect((await call('jt_getTransactionReceipt', [hashes.hashSignedTx(blob)])).result).toEqual(overdrawn.result);
  });

  it('is -32006 with the engine result for a transaction that cannot enter a ledger, and -32014 with its hash and state when not validated in time or expired', async () => {
    const genesis = Wallet.fromSeed(genesisSecret);
    const client = new Client(devnetUrl);
    await client.connect();
    let redundant;
    try {
      redundant = genesis.sign(await client.autofill({ TransactionType: 'Payment', Account: genesis.address, Destination: genesis.address, Amount: '1000' }));
    } finally {
      await client.disconnect();
    }
    expect((await call('jt_sendRawTransactionAndWait', [redundant.tx_blob])).error).toMatchObject({ code: -32006, data: { engine_result: 'temREDUNDANT', hash: redundant.hash } });

    const stranger = Wallet.generate();
    const current = (await call('jt_blockNumber')).result as number;
    const never = (sequence: number, lastLedgerSequence: number) =>
      stranger.sign({ TransactionType: 'Payment', Account: stranger.address, Destination: alice, Amount: '1000', Fee: '12', Sequence: sequence, LastLedgerSequence: lastLedgerSequence });
    const waiting = never(1, current + 1_000);
    expect((await call('jt_sendRawTransactionAndWait', [waiting.tx_blob, 1])).error).toMatchObject({
      code: -32014,
      message: `transaction ${waiting.hash} not validated within 1 s: it is held`,
      data: { hash: waiting.hash, state: 'held' },
    });
    const expiring = never(2, current + 3);
    expect((await call('jt_sendRawTransactionAndWait', [expiring.tx_blob, 60])).error).toMatchObject({
      code: -32014,
      data: { hash: expiring.hash, state: 'expired', last_ledger_sequence: current + 3 },
    });
    expect((await call('jt_sendRawTransactionAndWait', [expiring.tx_blob, 0])).error).toMatchObject({ code: -32602, message: expect.stringMatching(/timeoutSeconds/) });
  }, 120_000);
});

describe('a flood of sends that can never enter a ledger', () => {
  it('leaves the book and the submission service\'s memory bounded: 4 000 blobs from an account that does not exist', async () => {
    // Four times the bound of held records (1 000).
    const FLOOD = 4_000;
    const stranger = Wallet.generate(ECDSA.ed25519);
    const current = (await call('jt_blockNumber')).result as number;
    // Signed batch by batch: signing all first would hold the event loop past the server's keep-alive timeout.
    const blob = (sequence: number) =>
      stranger.sign({ TransactionType: 'Payment', Account: stranger.address, Destination: alice, Amount: '1000', Fee: '12', Sequence: sequence, LastLedgerSequence: current + 10_000 }).tx_blob;
    const submissionPid = () => childPids(node).get('submission')!;
    const residentMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${submissionPid()}/status`, 'utf8'))![1]) / 1024;
    const rssBefore = residentMb();
    let zeroHashes = 0;
    for (let first = 0; first < FLOOD; first += 100) {
      const batch = Array.from({ length: 100 }, (_, offset) => ({ jsonrpc: '2.0', method: 'jt_sendRawTransaction', params: [blob(first + offset + 1)], id: first + offset }));
      const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
      const answers = (await response.json()) as Record<string, any>[];
      zeroHashes += answers.filter((answer) => answer.result?.[0] === '0'.repeat(64)).length;
    }
    const rssAfter = residentMb();
    const submission = createGrpcClient(SubmissionServiceService, `unix:${path.join(dir, 'run', 'submission.sock')}`, { serviceLabel: 'submission' });
    const open = (await submission.listSubmissions({}).finally(() => submission.close())).submissions;
    const held = open.filter((record) => record.state === SubmissionState.HELD).length;
    printFigures('send-flood', { blobs: FLOOD, zero_hashes: zeroHashes, held_tracked: held, open_records: open.length, rss_mb_before: Math.round(rssBefore), rss_mb_after: Math.round(rssAfter) });
    expect(zeroHashes).toBe(FLOOD);
    // The oldest held records are let go past the bound (1 000): the book does not grow with the flood.
    expect(held).toBeLessThanOrEqual(1_000);
    expect(rssAfter - rssBefore).toBeLessThan(100);
  }, 300_000);
});

describe('failures of one service', () => {
  it('submission restarted mid-flight still tracks its pending transactions', async () => {
    const { result } = await call('jt_sendTransaction', [{ from: alice, to: bob, value: 4242 }]);
    const submissionPid = Number(/submission\s+(?:ready|restarted)\s+pid (\d+)/.exec(node.output())![1]);
    process.kill(submissionPid, 'SIGKILL');
    await node.waitFor(/submission\s+restarted/);
    expect((await receiptOf(result[0])).TransactionResult).toBe('tesSUCCESS');
    // The journal's last line of the record says where it stands.
    const tracked = await waitUntil(() => {
      const lines = readFileSync(path.join(dir, 'submission', 'submissions.jsonl'), 'utf8').trim().split('\n');
      const last = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((record) => record.hash === result[0]).at(-1);
      return last?.state === 'validated' ? last : undefined;
    }, 10_000, 'the journal saying validated');
    expect(tracked).toMatchObject({ state: 'validated', engineResult: 'tesSUCCESS' });
  }, 60_000);

  it('with the keystore hung, signing calls get a clear error and reads keep working', async () => {
    const keystorePid = Number([...node.output().matchAll(/keystore\s+(?:ready|restarted)\s+pid (\d+)/g)].at(-1)![1]);
    process.kill(keystorePid, 'SIGSTOP');
    try {
      const answer = await call('jt_sign', [alice, '0x00']);
      expect(answer.error.code).toBe(-32008);
      expect(answer.error.message).toMatch(/^keystore unavailable/);
      expect((await call('jt_blockNumber')).result).toBeGreaterThan(1);
    } finally {
      process.kill(keystorePid, 'SIGKILL');
    }
  }, 60_000);
});

function decryptSeed(address: string): string {
  return decryptKeyFile(path.join(dir, 'keystore', `${address}.json`), passphrase);
}
