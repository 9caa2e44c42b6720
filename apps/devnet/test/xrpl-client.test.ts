/**
 * The devnet as a separate process, driven by the published `xrpl` package's Client (which speaks
 * API version 2 by default): autofill, submitAndWait, balances, trust lines, account history and
 * rippled's submit results. Then every ledger closed meanwhile is verified with `xrpl`'s hashes.
 */
import { DEFAULT_DEFINITIONS, decode, encode } from 'ripple-binary-codec';
import { getProfile } from '@ledger-node/chain';
import { notationOf, rippledNotation } from '@ledger-node/rippled-api';
import { stopAll } from '@ledger-node/test-utils';
import { Client, dropsToXrp, Wallet, xrpToDrops, type Payment, type TrustSet } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type DevnetProcess } from './support/devnet-process';
import { headerFieldsOfJson, parseLedgerHeader, serializedFields } from './support/ledger-checks';
import { verifyLedger, type Requester } from './support/verify-ledger';

const GENESIS_SECRET = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';

/** Result codes from the published codec's table, not from the devnet. */
const resultCode = (token: string) => DEFAULT_DEFINITIONS.transactionResult.from(token).ordinal;

let devnet: DevnetProcess;
let client: Client;
const genesis = Wallet.fromSeed(GENESIS_SECRET);
const holder = Wallet.generate();
/** Hashes of every transaction these tests got validated, in submission order. */
const genesisTxHashes: string[] = [];

beforeAll(async () => {
  devnet = await startDevnet(['-close_ms', '200']);
  client = new Client(devnet.url);
  await client.connect();
});

afterAll(async () => {
  if (client?.isConnected()) await client.disconnect();
  await devnet?.stop();
  await stopAll();
});

/** An autofilled, signed transaction (xrpl autofill: Sequence, Fee, LastLedgerSequence). */
async function signed(wallet: Wallet, tx: Payment | TrustSet, change: (prepared: Record<string, any>) => void = () => {}) {
  const prepared = (await client.autofill(tx)) as Record<string, any>;
  change(prepared);
  return wallet.sign(prepared as Payment);
}

describe('devnet with the xrpl Client', () => {
  it('announces the genesis account on start', () => {
    expect(devnet.process.output()).toContain(genesis.classicAddress);
  });

  it('creates an account with an autofilled native payment from genesis (submitAndWait)', async () => {
    const response = await client.submitAndWait(
      { TransactionType: 'Payment', Account: genesis.classicAddress, Destination: holder.classicAddress, Amount: xrpToDrops('1000') },
      { wallet: genesis },
    );
    expect(response.result.validated).toBe(true);
    expect(response.result.meta).toMatchObject({ TransactionResult: 'tesSUCCESS', delivered_amount: xrpToDrops('1000') });
    expect((response.result.tx_json as Record<string, unknown>).DeliverMax).toBe(xrpToDrops('1000'));
    genesisTxHashes.push(response.result.hash);
    expect(await client.getXrpBalance(holder.classicAddress)).toBe(1000);
  });

  it('applies a TrustSet and then an issued-currency payment over the new line', async () => {
    const trustSet = await client.submitAndWait(
      {
        TransactionType: 'TrustSet',
        Account: holder.classicAddress,
        LimitAmount: { currency: 'USD', issuer: genesis.classicAddress, value: '1000' },
      },
      { wallet: holder },
    );
    expect(trustSet.result.meta).toMatchObject({ TransactionResult: 'tesSUCCESS' });
    const payment = await client.submitAndWait(
      {
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: holder.classicAddress,
        Amount: { currency: 'USD', issuer: genesis.classicAddress, value: '25' },
      },
      { wallet: genesis },
    );
    expect(payment.result.meta).toMatchObject({
      TransactionResult: 'tesSUCCESS',
      delivered_amount: { currency: 'USD', issuer: genesis.classicAddress, value: '25' },
    });
    genesisTxHashes.push(payment.result.hash);

    const balances = await client.getBalances(holder.classicAddress);
    const trustSetFee = String((trustSet.result.tx_json as Record<string, unknown>).Fee);
    expect(balances).toEqual([
      { currency: 'XRP', value: String(dropsToXrp(String(1_000_000_000n - BigInt(trustSetFee)))) },
      { currency: 'USD', issuer: genesis.classicAddress, value: '25' },
    ]);
  });

  it('lists the trust line from both sides with account_lines', async () => {
    const holderLines = await client.request({ command: 'account_lines', account: holder.classicAddress });
    expect(holderLines.result.lines).toEqual([
      expect.objectContaining({ account: genesis.classicAddress, balance: '25', currency: 'USD', limit: '1000', limit_peer: '0' }),
    ]);
    const issuerLines = await client.request({ command: 'account_lines', account: genesis.classicAddress, ledger_index: 'validated' });
    expect(issuerLines.result.lines).toEqual([
      expect.objectContaining({ account: holder.classicAddress, balance: '-25', currency: 'USD', limit: '0', limit_peer: '1000' }),
    ]);
    expect((issuerLines.result as Record<string, unknown>).validated).toBe(true);
  });

  it('pages account_tx with limit and marker, returning every transaction exactly once', async () => {
    for (let payment = 0; payment < 3; payment++) {
      const { tx_blob: txBlob, hash } = await signed(genesis, {
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: holder.classicAddress,
        Amount: String(1_000_000 + payment),
      });
      const submitted = await client.request({ command: 'submit', tx_blob: txBlob });
      expect(submitted.result.engine_result).toBe('tesSUCCESS');
      genesisTxHashes.push(hash);
    }
    await client.request({ command: 'ledger_accept' } as never);

    const everything = await client.request({ command: 'account_tx', account: genesis.classicAddress, limit: 400 });
    const allHashes = everything.result.transactions.map((entry) => entry.hash);
    expect(allHashes).toEqual(expect.arrayContaining(genesisTxHashes));

    for (const forward of [false, true]) {
      const pagedHashes: string[] = [];
      let marker: unknown;
      let pages = 0;
      do {
        const page = await client.request({ command: 'account_tx', account: genesis.classicAddress, limit: 2, forward, marker });
        expect(page.result.transactions.length).toBeLessThanOrEqual(2);
        pagedHashes.push(...page.result.transactions.map((entry) => entry.hash!));
        marker = page.result.marker;
        pages++;
      } while (marker !== undefined);
      expect(pages).toBe(Math.ceil(allHashes.length / 2));
      expect(pagedHashes).toEqual(forward ? [...allHashes].reverse() : allHashes);
      expect(new Set(pagedHashes).size).toBe(pagedHashes.length);
    }
  });

  it('answers submit of an already used sequence with tefPAST_SEQ', async () => {
    const { tx_blob: txBlob } = await signed(
      genesis,
      { TransactionType: 'Payment', Account: genesis.classicAddress, Destination: holder.classicAddress, Amount: '1000' },
      (prepared) => {
        prepared.Sequence -= 1;
      },
    );
    const response = await client.request({ command: 'submit', tx_blob: txBlob });
    expect(response.result).toMatchObject({
      engine_result: 'tefPAST_SEQ',
      engine_result_code: resultCode('tefPAST_SEQ'),
      applied: false,
      tx_blob: txBlob,
    });
  });

  it('answers submit of a payment beyond the balance with tecUNFUNDED_PAYMENT, charging the fee', async () => {
    const { tx_blob: txBlob } = await signed(holder, {
      TransactionType: 'Payment',
      Account: holder.classicAddress,
      Destination: genesis.classicAddress,
      Amount: xrpToDrops('5000'),
    });
    const response = await client.request({ command: 'submit', tx_blob: txBlob });
    expect(response.result).toMatchObject({
      engine_result: 'tecUNFUNDED_PAYMENT',
      engine_result_code: resultCode('tecUNFUNDED_PAYMENT'),
      applied: true,
      accepted: true,
    });
    await client.request({ command: 'ledger_accept' } as never);
  });

  it('answers submit of a payment with a bad signature with rippled invalidTransaction', async () => {
    const { tx_blob: txBlob } = await signed(genesis, {
      TransactionType: 'Payment',
      Account: genesis.classicAddress,
      Destination: holder.classicAddress,
      Amount: '1000',
    });
    const fields = decode(txBlob) as Record<string, string>;
    const signature = fields.TxnSignature!;
    const lastDigit = signature.at(-1) === '0' ? '1' : '0';
    const tampered = encode({ ...fields, TxnSignature: signature.slice(0, -1) + lastDigit });
    const failure = await client.request({ command: 'submit', tx_blob: tampered }).then(
      () => undefined,
      (error: { data?: Record<string, unknown> }) => error.data,
    );
    expect(failure).toMatchObject({
      error: 'invalidTransaction',
      error_exception: 'fails local checks: Invalid signature.',
      status: 'error',
      type: 'response',
    });
  });
});

describe('every ledger the devnet closed during these tests', () => {
  it('verifies with xrpl hashes: header, transaction tree, and state tree from ledger_data pages', async () => {
    const validated = await client.getLedgerIndex();
    expect(validated).toBeGreaterThan(5);
    const request: Requester = async (body) => ((await client.request({ ...body, api_version: 1 } as never)) as { result: Record<string, any> }).result;
    for (let ledgerIndex = 1; ledgerIndex <= validated; ledgerIndex++) await verifyLedger(request, ledgerIndex);
  });

  it('serves binary ledgers that decode to the same header and transactions as the JSON ones', async () => {
    const validated = await client.getLedgerIndex();
    for (let ledgerIndex = 1; ledgerIndex <= validated; ledgerIndex++) {
      const request = { command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true, api_version: 1 };
      const json: any = await client.request(request as never);
      const binary: any = await client.request({ ...request, binary: true } as never);
      expect(parseLedgerHeader(binary.result.ledger.ledger_data)).toEqual(headerFieldsOfJson(json.result.ledger));
      // The JSON is rippled's notation of the same fields (UInt64 as short hex, path steps with their type).
      const notation = notationOf(getProfile('xrpl'));
      const decoded = binary.result.ledger.transactions.map((tx: { tx_blob: string; meta: string }) => ({
        tx: rippledNotation(decode(tx.tx_blob), notation),
        meta: rippledNotation(decode(tx.meta), notation),
      }));
      const expected = json.result.ledger.transactions.map((tx: Record<string, any>) => ({
        tx: serializedFields(tx),
        meta: serializedFields(tx.metaData),
      }));
      expect(decoded).toEqual(expected);
    }
  });

  it('serves binary ledger_data pages holding the same objects as the JSON pages', async () => {
    const readAll = async (binary: boolean) => {
      const entries: Array<Record<string, any>> = [];
      let marker: unknown;
      do {
        const page: any = await client.request({ command: 'ledger_data', ledger_index: 'validated', binary, limit: 4, marker } as never);
        entries.push(...page.result.state);
        marker = page.result.marker;
      } while (marker !== undefined);
      return entries;
    };
    const [jsonEntries, binaryEntries] = await Promise.all([readAll(false), readAll(true)]);
    const notation = notationOf(getProfile('xrpl'));
    expect(binaryEntries.map((entry) => ({ ...rippledNotation(decode(entry.data), notation), index: entry.index }))).toEqual(jsonEntries);
  });
});
