/**
 * `ledger-node -dev -chain jingtum -rpc -api` end to end: one -chain flag switches every process
 * (devnet, sync, ledger-store, keystore, submission, facade and the account commands) to the
 * Jingtum profile — j addresses, Jingtum field codes, SWT, `no_skywell`, the Jingtum jt_sign prefix.
 * Transactions the test signs itself are built with the profile's own keys and codec, since the
 * xrpl package speaks only r addresses.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile, hashLedgerHeader, hashTransaction, ledgerHeaderFromJson } from '@ledger-node/chain';
import { cliEntry, connectUpstream, decryptKeyFile, freePort, startProcess, stopAll, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';

const jingtum = getProfile('jingtum');
const xrpl = getProfile('xrpl');
const passphrase = 'jingtum end-to-end passphrase';
const genesis = { address: 'jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', secret: 'snoPBjXtMeMyMHUVTgbuqAfg1SUTb' };
/** Text of an address in either alphabet: a base58 string of AccountID length. */
const ADDRESS_SHAPE = /^[1-9A-HJ-NP-Za-km-z]{25,35}$/;
/** Keys whose string values are account addresses in ledger JSON, SPEC objects and REST bodies. */
const ADDRESS_KEYS = new Set([
  'Account', 'Destination', 'Issuer', 'issuer', 'Owner', 'RegularKey', 'Authorize', 'Unauthorize', 'Target',
  'account', 'address', 'from', 'to', 'from_address', 'to_address', 'counterparty', 'source', 'destination',
]);

let dir: string;
let removeDir: () => void;
let node: RunningProcess;
let rpcPort: number;
let apiPort: number;
let devnet: Awaited<ReturnType<typeof connectUpstream>>;
/** The local account `a`, made by `account generate -chain jingtum`. */
let local: string;
/** Every answer of the node, checked for r addresses at the end. */
const answers: { what: string; body: unknown }[] = [];

function cli(args: string[]) {
  const result = spawnSync(process.execPath, [cliEntry(), ...args], { env: { ...process.env, LEDGER_NODE_PASSWORD: passphrase }, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

async function call(method: string, params: unknown[] = []): Promise<Record<string, any>> {
  const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  const body = (await response.json()) as Record<string, any>;
  answers.push({ what: `${method} ${JSON.stringify(params)}`, body });
  return body;
}

async function rest(route: string): Promise<Record<string, any>> {
  const response = await fetch(`http://127.0.0.1:${apiPort}/v1${route}`);
  const body = (await response.json()) as Record<string, any>;
  answers.push({ what: `GET ${route}`, body });
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function receiptOf(hash: string): Promise<Record<string, any>> {
  return waitUntil(async () => (await call('jt_getTransactionReceipt', [hash])).result, 30_000, `the receipt of ${hash}`);
}


/**
 * Signs a transaction with the Jingtum profile's keys over the Jingtum codec's signing bytes, fills
 * Sequence from the devnet, and sends the blob through jt_sendRawTransaction. Returns the receipt.
 */
async function sendSigned(secret: string, fields: Record<string, unknown>): Promise<Record<string, any>> {
  const keypair = jingtum.keys.deriveKeypair(secret);
  const account = jingtum.keys.deriveAddress(keypair.publicKey);
  const info = await devnet.request('account_info', { account, ledger_index: 'current' });
  expect(info.result.account_data.Account).toBe(account);
  const tx: Record<string, unknown> = { ...fields, Account: account, Fee: '12', Sequence: info.result.account_data.Sequence, SigningPubKey: keypair.publicKey };
  tx.TxnSignature = jingtum.keys.sign(jingtum.codec.encodeForSigning(tx), keypair.privateKey);
  const blob = jingtum.codec.encode(tx);
  const hash = hashTransaction(blob);
  expect((await call('jt_sendRawTransaction', [blob])).result).toEqual([hash]);
  const receipt = await receiptOf(hash);
  expect(receipt.TransactionResult).toBe('tesSUCCESS');
  return receipt;
}

/**
 * Checks every string under an address key (it must be a Jingtum address) and every string anywhere
 * (it must not be a valid XRPL address); `checked` collects the address fields seen.
 */
function addressProblems(value: unknown, where = '$', checked: string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((member, index) => addressProblems(member, `${where}[${index}]`, checked));
  if (typeof value !== 'object' || value === null) {
    // A string valid in the XRPL alphabet is an r address whatever its key: none may appear.
    return typeof value === 'string' && ADDRESS_SHAPE.test(value) && xrpl.codec.isValidAddress(value) ? [`${where}: r address ${value}`] : [];
  }
  return Object.entries(value).flatMap(([key, member]) => {
    if (typeof member === 'string' && ADDRESS_KEYS.has(key) && ADDRESS_SHAPE.test(member)) {
      checked.push(`${where}.${key}`);
      return member.startsWith('j') && jingtum.codec.isValidAddress(member) ? [] : [`${where}.${key}: not a Jingtum address ${member}`];
    }
    return addressProblems(member, `${where}.${key}`, checked);
  });
}

/** The AccountRoot of a receipt's AffectedNodes for an account (modified or created). */
function accountRootOf(receipt: Record<string, any>, account: string): Record<string, any> {
  const nodes = (receipt.AffectedNodes as Record<string, any>[]).map((node) => node.ModifiedNode ?? node.CreatedNode);
  return nodes.find((node) => node?.LedgerEntryType === 'AccountRoot' && (node.FinalFields ?? node.NewFields).Account === account)!;
}

beforeAll(async () => {
  ({ dir, remove: removeDir } = tempDir('jingtum-'));
  [rpcPort, apiPort] = [await freePort(), await freePort()];
}, 10_000);

afterAll(async () => {
  devnet?.close();
  await stopAll();
  removeDir?.();
});

describe('the address check of this suite', () => {
  it('flags an r address under any key, and a non-Jingtum address under an address key', () => {
    expect(addressProblems({ Account: genesis.address, nested: [{ issuer: genesis.address }] })).toEqual([]);
    expect(addressProblems({ result: { AffectedNodes: [{ ModifiedNode: { FinalFields: { Account: xrpl.genesis.address } } }] } })).toHaveLength(1);
    expect(addressProblems({ note: xrpl.genesis.address })).toEqual([`$.note: r address ${xrpl.genesis.address}`]);
    expect(addressProblems({ to_address: 'jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTj' })).toHaveLength(1);
  });
});

describe('ledger-node account -chain jingtum', () => {
  it('generate gives a j address, written to a key file of chain jingtum', () => {
    const generated = JSON.parse(cli(['account', 'generate', '-chain', 'jingtum', '-nickname', 'a', '-data_dir', dir, '-json']));
    expect(generated).toMatchObject({ nickname: 'a', key_type: 'secp256k1' });
    local = generated.address;
    expect(local).toMatch(/^j/);
    expect(jingtum.codec.isValidAddress(local)).toBe(true);
    // The seed in the key file is a Jingtum seed: its key pair derives the same j address.
    const seed = decryptKeyFile(path.join(dir, 'keystore', `${local}.json`), passphrase);
    expect(jingtum.keys.deriveAddress(jingtum.keys.deriveKeypair(seed).publicKey)).toBe(local);
  });

  it('list shows it', () => {
    const listed = JSON.parse(cli(['account', 'list', '-chain', 'jingtum', '-data_dir', dir, '-json']));
    expect(listed).toEqual([expect.objectContaining({ address: local, nickname: 'a' })]);
    expect(cli(['account', 'list', '-chain', 'jingtum', '-data_dir', dir])).toMatch(new RegExp(`^${local}\\s+a\\s+secp256k1`, 'm'));
  });
});

describe('ledger-node -dev -chain jingtum -rpc -api', () => {
  const issuer = jingtum.keys.generateSeed();
  const holder = jingtum.keys.generateSeed();
  const addressOf = (seed: string) => jingtum.keys.deriveAddress(jingtum.keys.deriveKeypair(seed).publicKey);
  let paymentHash: string;

  beforeAll(async () => {
    node = startProcess([
      cliEntry(), '-dev', '-chain', 'jingtum', '-close_ms', '300', '-rpc', '-api', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
      '-apiaddr', '127.0.0.1', '-apiport', String(apiPort), '-data_dir', dir, '-thread_count', '2',
      // An open ledger takes one transaction; more are queued (terQUEUED) for the next ledgers.
      '-open_ledger_limit', '1',
    ], { env: { LEDGER_NODE_PASSWORD: passphrase } });
    const devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/))[1]!;
    await node.waitFor(/facade\s+ready/);
    devnet = await connectUpstream(devnetUrl);
  }, 60_000);

  it('runs a devnet whose genesis is the Jingtum master account', () => {
    expect(node.output()).toContain(`genesis account ${genesis.address} secret ${genesis.secret}`);
  });

  it('syncs and verifies the devnet ledgers', async () => {
    await waitUntil(async () => (await call('jt_getBlockByNumber', ['1', false])).result, 30_000, 'ledger 1');
    const balance = await waitUntil(async () => {
      const answer = await call('jt_getBalance', [genesis.address, 'validated']);
      return answer.status === 'success' && answer.result;
    }, 30_000, 'the genesis balance');
    expect(balance).toMatchObject({ account: genesis.address, balance: '100000000000000000', coins: [], validated: true });
    // Sync says so once the store has taken the state, which reads can answer from a moment earlier.
    await node.waitFor(/account state downloaded and verified at ledger \d+/, 10_000);
  });

  it('funds the local account from genesis with a blob signed by the Jingtum profile (jt_sendRawTransaction)', async () => {
    const receipt = await sendSigned(genesis.secret, { TransactionType: 'Payment', Destination: local, Amount: '1000000000' });
    expect(accountRootOf(receipt, local).NewFields).toMatchObject({ Account: local, Balance: '1000000000' });
    const tx = (await call('jt_getTransactionByHash', [receipt.hash])).result;
    expect(tx).toMatchObject({ TransactionType: 'Payment', Account: genesis.address, Destination: local, Amount: '1000000000', validated: true });
  });

  it('jt_sendTransaction from the local account validates; the receipt shows j addresses and SWT drops', async () => {
    const { result } = await call('jt_sendTransaction', [{ from: 'a', to: genesis.address, value: '25000000' }]);
    expect(result).toHaveLength(1);
    paymentHash = result[0];
    const receipt = await receiptOf(paymentHash);
    expect(receipt.TransactionResult).toBe('tesSUCCESS');
    const sender = accountRootOf(receipt, local);
    // Amounts are integer drops of SWT: 25 SWT plus the profile's default fee of 12 drops.
    expect(BigInt(sender.PreviousFields.Balance) - BigInt(sender.FinalFields.Balance)).toBe(25_000_000n + jingtum.defaultFee);
    expect(accountRootOf(receipt, genesis.address).FinalFields.Account).toBe(genesis.address);
    const tx = (await call('jt_getTransactionByHash', [paymentHash])).result;
    expect(tx).toMatchObject({ Account: local, Destination: genesis.address, Amount: '25000000', Fee: String(jingtum.defaultFee), validated: true });
  });

  it('jt_getBlockByNumber with full transactions shows the payment with j addresses, in a header that hashes to its ledger_hash', async () => {
    const tx = (await call('jt_getTransactionByHash', [paymentHash])).result;
    const block = (await call('jt_getBlockByNumber', [String(tx.ledger_index), true])).result;
    expect(block.ledger.transactions).toContainEqual(expect.objectContaining({ hash: paymentHash, Account: local, Destination: genesis.address }));
    // The block object leaves out parent_close_time: recompute the hash from the devnet's header of the same ledger.
    const upstream = (await devnet.request('ledger', { ledger_index: tx.ledger_index, transactions: true, expand: true })).result;
    answers.push({ what: `devnet ledger ${tx.ledger_index}`, body: upstream });
    expect(hashLedgerHeader(ledgerHeaderFromJson(upstream.ledger))).toBe(block.ledger_hash);
    expect(block.ledger).toMatchObject({ account_hash: upstream.ledger.account_hash, transaction_hash: upstream.ledger.transaction_hash, parent_hash: upstream.ledger.parent_hash });
  });

  it('a TrustSet and an issued payment signed with the profile show in jt_getBalance coins under no_skywell', async () => {
    await sendSigned(genesis.secret, { TransactionType: 'Payment', Destination: addressOf(issuer), Amount: '100000000' });
    await sendSigned(genesis.secret, { TransactionType: 'Payment', Destination: addressOf(holder), Amount: '100000000' });
    const trustSet = await sendSigned(holder, { TransactionType: 'TrustSet', LimitAmount: { currency: 'CNY', issuer: addressOf(issuer), value: '1000' } });
    const line = (trustSet.AffectedNodes as Record<string, any>[]).map((each) => each.CreatedNode).find((each) => each?.LedgerEntryType !== undefined && each.LedgerEntryType !== 'DirectoryNode' && each.LedgerEntryType !== 'AccountRoot');
    expect(line.LedgerEntryType).toBe('SkywellState');
    expect((await call('jt_getTransactionByHash', [trustSet.hash])).result).toMatchObject({ TransactionType: 'TrustSet', Account: addressOf(holder), LimitAmount: { issuer: addressOf(issuer) } });
    const payment = await sendSigned(issuer, { TransactionType: 'Payment', Destination: addressOf(holder), Amount: { currency: 'CNY', issuer: addressOf(issuer), value: '7' } });

    const { result } = await call('jt_getBalance', [addressOf(holder), String((await call('jt_getTransactionByHash', [payment.hash])).result.ledger_index)]);
    expect(result.account).toBe(addressOf(holder));
    expect(result.coins).toEqual([
      { account: addressOf(issuer), balance: '7', currency: 'CNY', limit: '1000', limit_peer: '0', no_skywell: expect.any(Boolean), quality_in: 0, quality_out: 0 },
    ]);
    expect(result.coins[0]).not.toHaveProperty('no_ripple');
    const issuerSide = (await call('jt_getBalance', [addressOf(issuer), 'validated'])).result;
    expect(issuerSide.coins).toEqual([expect.objectContaining({ account: addressOf(holder), balance: '-7', currency: 'CNY', no_skywell: expect.any(Boolean) })]);
  });

  it('jt_getBalance of the local account answers with its j address', async () => {
    const { result } = await call('jt_getBalance', [local, 'validated']);
    expect(result).toMatchObject({ account: local, balance: String(1_000_000_000n - 25_000_000n - jingtum.defaultFee), coins: [] });
  });

  it('jt_account entries use j addresses', async () => {
    const entries = (await call('jt_account', [local, 0, 10, true, 'both'])).result as Record<string, any>[];
    expect(entries).toEqual([
      expect.objectContaining({ hash: paymentHash, from_address: local, to_address: genesis.address, amount: '25000000', type: 'Payment' }),
      expect.objectContaining({ from_address: genesis.address, to_address: local, amount: '1000000000', type: 'Payment' }),
    ]);
  });

  it('REST balances, payments and status name the native currency SWT, in SWT units', async () => {
    const body = await rest(`/accounts/${local}/balances`);
    expect(body).toMatchObject({ account: local, balances: [{ currency: 'SWT', value: '974.999988', drops: '974999988' }] });
    const issued = await rest(`/accounts/${addressOf(holder)}/balances`);
    expect(issued.balances).toEqual([
      { currency: 'SWT', value: expect.any(String), drops: expect.stringMatching(/^\d+$/) },
      { currency: 'CNY', counterparty: addressOf(issuer), value: '7' },
    ]);
    const history = await rest(`/accounts/${local}/transactions`);
    expect(history.transactions).toHaveLength(2);
    const payments = await rest(`/accounts/${local}/payments`);
    expect(payments.payments).toContainEqual(expect.objectContaining({ hash: paymentHash, source: local, destination: genesis.address, currency: 'SWT', amount: '25', drops: '25000000' }));
    expect((await rest('/local-accounts')).accounts).toEqual([expect.objectContaining({ address: local, nickname: 'a' })]);
    expect(await rest('/status')).toMatchObject({ chain: 'jingtum', native_currency: 'SWT', drops_per_unit: '1000000' });
  });

  it('jt_accounts lists the local j address', async () => {
    expect((await call('jt_accounts')).result).toEqual([local]);
  });

  it('jt_sign signs with the Jingtum message prefix', async () => {
    const message = Buffer.from('pay the bearer 7 CNY', 'utf8');
    const { result } = await call('jt_sign', ['a', `0x${message.toString('hex')}`]);
    expect(result).toMatch(/^0x[0-9a-f]+$/);
    const signature = result.slice(2);
    const { publicKey } = jingtum.keys.deriveKeypair(decryptKeyFile(path.join(dir, 'keystore', `${local}.json`), passphrase));
    const signed = (prefix: string) => Buffer.concat([Buffer.from(prefix, 'utf8'), message]).toString('hex');
    expect(jingtum.keys.verify(signed(jingtum.signMessagePrefix), signature, publicKey)).toBe(true);
    expect(jingtum.keys.verify(signed(xrpl.signMessagePrefix), signature, publicKey)).toBe(false);
  });

  it('answers each send by the outcome table (docs/api.md "What a send returns"): the hash when it is or will be in a ledger, else the zero hash', async () => {
    const ZERO_HASH = '0'.repeat(64);
    /** A payment signed here with the Jingtum profile: `fields` over an autofilled one of `secret`'s account. */
    const signedBlob = async (secret: string, fields: Record<string, unknown>) => {
      const keypair = jingtum.keys.deriveKeypair(secret);
      const account = jingtum.keys.deriveAddress(keypair.publicKey);
      const info = await devnet.request('account_info', { account, ledger_index: 'current' }).catch(() => undefined);
      const current = (await call('jt_blockNumber')).result as number;
      const tx: Record<string, unknown> = {
        TransactionType: 'Payment', Account: account, Destination: local, Amount: '1000', Fee: '12',
        Sequence: info?.result?.account_data?.Sequence ?? 1, LastLedgerSequence: current + 20, SigningPubKey: keypair.publicKey, ...fields,
      };
      tx.TxnSignature = jingtum.keys.sign(jingtum.codec.encodeForSigning(tx), keypair.privateKey);
      const blob = jingtum.codec.encode(tx);
      return { blob, hash: hashTransaction(blob) };
    };
    const sendRaw = async (blob: string) => (await call('jt_sendRawTransaction', [blob])).result as [string];

    // tec: more than the balance, through both paths; in a ledger with its tec result.
    const { result: [sent] } = await call('jt_sendTransaction', [{ from: 'a', to: genesis.address, value: '100000000000000' }]);
    const { result: [signed] } = await call('jt_signTransaction', [{ from: 'a', to: genesis.address, value: '100000000000000' }]);
    for (const hash of [sent, (await sendRaw(signed))[0]]) {
      expect(hash).not.toBe(ZERO_HASH);
      expect((await receiptOf(hash)).TransactionResult).toBe('tecUNFUNDED_PAYMENT');
    }
    // ter: an account that does not exist; tef: LastLedgerSequence passed; tel: fee below the minimum; tem: paying itself.
    const stranger = jingtum.keys.generateSeed();
    const cannot = [
      await signedBlob(stranger, {}),
      await signedBlob(genesis.secret, { LastLedgerSequence: 2 }),
      await signedBlob(genesis.secret, { Fee: '1' }),
      await signedBlob(genesis.secret, { Destination: genesis.address }),
    ];
    const expected = [['held', 'terNO_ACCOUNT'], ['rejected', 'tefMAX_LEDGER'], ['rejected', 'telINSUF_FEE_P'], ['rejected', 'temREDUNDANT']];
    for (const [index, { blob, hash }] of cannot.entries()) {
      expect(await sendRaw(blob)).toEqual([ZERO_HASH]);
      const [state, engineResult] = expected[index]!;
      expect((await rest(`/submissions/${hash}`)).submission).toMatchObject({ state, engine_result: engineResult });
    }
    // terQUEUED: sent one after another into a full open ledger, each answers its hash and validates.
    const queued = await signedBlob(genesis.secret, {});
    const sequence = jingtum.codec.decode(queued.blob).Sequence as number;
    const line = [queued, ...(await Promise.all([1, 2].map((offset) => signedBlob(genesis.secret, { Sequence: sequence + offset }))))];
    for (const { blob, hash } of line) expect(await sendRaw(blob)).toEqual([hash]);
    const results = await Promise.all(line.map(async ({ hash }) => (await rest(`/submissions/${hash}`)).submission.engine_result));
    expect(results).toContain('terQUEUED');
    for (const { hash } of line) expect((await receiptOf(hash)).TransactionResult).toBe('tesSUCCESS');
    // tes, then sent again: the same hash each time.
    const paid = await signedBlob(genesis.secret, {});
    expect(await sendRaw(paid.blob)).toEqual([paid.hash]);
    expect((await receiptOf(paid.hash)).TransactionResult).toBe('tesSUCCESS');
    for (let again = 0; again < 2; again++) expect(await sendRaw(paid.blob)).toEqual([paid.hash]);
  });

  it('no answer carries an r address in any field', () => {
    expect(answers.length).toBeGreaterThan(20);
    const checked: string[] = [];
    const problems = answers.flatMap(({ what, body }) => addressProblems(body, '$', checked).map((problem) => `${what}: ${problem}`));
    expect(problems).toEqual([]);
    // Receipts, blocks, transactions, balances, history and REST bodies all held addresses.
    expect(checked.length).toBeGreaterThan(50);
  });
});
