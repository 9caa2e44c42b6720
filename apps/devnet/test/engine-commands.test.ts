/**
 * The devnet's answers to what the node forwards (simulate, ripple_path_find, path_find,
 * submit_multisigned), in process over the live engine, with transactions made and signed by the
 * published `xrpl` package (multi-signatures included).
 */
import { devnetNetworkKeys, getProfile } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { multisign, Wallet, type Transaction } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetChain } from '../src/engine';
import { DevnetNetwork } from '../src/network/network';
import { LiveLedgerSource } from '../src/ws/live-source';
import { answer } from '../src/ws/server';
import { Subscriber } from '../src/ws/subscriptions';

type Json = Record<string, any>;

const logger = createLogger('devnet-test', 'silent');
const profile = getProfile('xrpl');
const source = new LiveLedgerSource(createDevnetChain(profile), { closeMs: 60_000, logger });
const network = new DevnetNetwork(profile, devnetNetworkKeys());
const subscriber = new Subscriber(source, network, () => {});
let id = 0;
const call = (request: Json): Json => answer(JSON.stringify({ id: ++id, ...request }), { source, network, subscriber, startedAtMs: Date.now(), logger });
const ok = (request: Json): Json => {
  const response = call(request);
  if (response.status !== 'success') throw new Error(`${JSON.stringify(request)} failed: ${JSON.stringify(response)}`);
  return response.result;
};
const sequenceOf = (address: string): number => ok({ command: 'account_info', account: address, ledger_index: 'current' }).account_data.Sequence;
const balanceOf = (address: string): string => ok({ command: 'account_info', account: address, ledger_index: 'current' }).account_data.Balance;

const genesis = Wallet.fromSeed(profile.genesis.secret);
const issuer = Wallet.generate();
const alice = Wallet.generate();
const bob = Wallet.generate();
const signers = [Wallet.generate(), Wallet.generate(), Wallet.generate()];

function submitSigned(wallet: Wallet, tx: Json, expected = 'tesSUCCESS'): Json {
  const { tx_blob: txBlob } = wallet.sign({ Account: wallet.classicAddress, Fee: '10', Sequence: sequenceOf(wallet.classicAddress), ...tx } as Transaction);
  const result = ok({ command: 'submit', tx_blob: txBlob });
  expect(result.engine_result).toBe(expected);
  return result;
}

beforeAll(() => {
  for (const wallet of [issuer, alice, bob]) submitSigned(genesis, { TransactionType: 'Payment', Destination: wallet.classicAddress, Amount: '1000000000' });
  ok({ command: 'ledger_accept' });
  submitSigned(issuer, { TransactionType: 'AccountSet', SetFlag: 8 });
  for (const holder of [alice, bob]) submitSigned(holder, { TransactionType: 'TrustSet', LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '1000' } });
  ok({ command: 'ledger_accept' });
  submitSigned(issuer, { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: { currency: 'USD', issuer: issuer.classicAddress, value: '300' } });
  ok({ command: 'ledger_accept' });
});

afterAll(() => source.stop());

describe('simulate', () => {
  it('applies an unsigned payment to a copy of the open ledger: the result and metadata, nothing committed', () => {
    const before = balanceOf(alice.classicAddress);
    const pending = source.pendingCount();
    const result = ok({ command: 'simulate', tx_json: { TransactionType: 'Payment', Account: alice.classicAddress, Destination: bob.classicAddress, Amount: '1000000' } });
    expect(result).toMatchObject({
      applied: false,
      engine_result: 'tesSUCCESS',
      engine_result_code: 0,
      engine_result_message: 'The simulated transaction would have been applied.',
      ledger_index: source.writer.openLedgerIndex(),
      tx_json: {
        TransactionType: 'Payment',
        Account: alice.classicAddress,
        Fee: '10',
        Sequence: sequenceOf(alice.classicAddress),
        SigningPubKey: '',
        TxnSignature: '',
        hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      },
      meta: { TransactionResult: 'tesSUCCESS', delivered_amount: '1000000' },
    });
    const sender = result.meta.AffectedNodes.find((node: Json) => node.ModifiedNode?.FinalFields?.Account === alice.classicAddress).ModifiedNode;
    expect(sender.FinalFields.Balance).toBe((BigInt(before) - 1_000_010n).toString());
    // Nothing reached the open ledger.
    expect(balanceOf(alice.classicAddress)).toBe(before);
    expect(source.pendingCount()).toBe(pending);
  });

  it('answers a tec result with its metadata, and a tem result without any', () => {
    const tec = ok({ command: 'simulate', tx_json: { TransactionType: 'Payment', Account: alice.classicAddress, Destination: Wallet.generate().classicAddress, Amount: '1' } });
    expect(tec).toMatchObject({ engine_result: 'tecNO_DST_INSUF_XRP', applied: false, meta: { TransactionResult: 'tecNO_DST_INSUF_XRP' } });
    const tem = ok({ command: 'simulate', tx_json: { TransactionType: 'Payment', Account: alice.classicAddress, Destination: alice.classicAddress, Amount: '1' } });
    expect(tem.engine_result).toBe('temREDUNDANT');
    expect(tem).not.toHaveProperty('meta');
  });

  it('answers hex with binary, from a tx_blob too', () => {
    const fields = { TransactionType: 'AccountSet', Account: bob.classicAddress, Fee: '10', Sequence: sequenceOf(bob.classicAddress), SigningPubKey: '' };
    const result = ok({ command: 'simulate', tx_blob: profile.codec.encode(fields), binary: true });
    // The transaction as simulated: autofilled with an empty signature, as rippled echoes it.
    expect(result).toMatchObject({ engine_result: 'tesSUCCESS', tx_blob: profile.codec.encode({ ...fields, TxnSignature: '' }), meta_blob: expect.stringMatching(/^[0-9A-F]+$/) });
    expect(result).not.toHaveProperty('tx_json');
  });

  it("refuses rippled's way: key fields, both or neither of tx_blob and tx_json, a signed transaction", () => {
    const refusal = (request: Json) => call({ command: 'simulate', ...request });
    expect(refusal({ tx_json: { TransactionType: 'AccountSet', Account: bob.classicAddress }, secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' })).toMatchObject({ error: 'invalidParams', error_message: "Invalid field 'secret'." });
    expect(refusal({})).toMatchObject({ error: 'invalidParams', error_message: 'Neither `tx_blob` nor `tx_json` included.' });
    expect(refusal({ tx_json: {}, tx_blob: '1200' })).toMatchObject({ error: 'invalidParams', error_message: 'Can only include one of `tx_blob` and `tx_json`.' });
    expect(refusal({ tx_blob: 'ZZ' })).toMatchObject({ error: 'invalidParams', error_message: "Invalid field 'tx_blob'." });
    const { tx_blob: signed } = bob.sign({ TransactionType: 'AccountSet', Account: bob.classicAddress, Fee: '10', Sequence: sequenceOf(bob.classicAddress) } as Transaction);
    expect(refusal({ tx_blob: signed })).toMatchObject({ error: 'transactionSigned', error_code: 96, error_message: 'Transaction should not be signed.' });
    expect(refusal({ tx_json: { TransactionType: 'AccountSet', Account: bob.classicAddress, Signers: [{ Signer: { Account: alice.classicAddress, TxnSignature: '00' } }] } })).toMatchObject({ error: 'transactionSigned' });
    expect(refusal({ tx_json: { TransactionType: 'AccountSet', Account: Wallet.generate().classicAddress } })).toMatchObject({ error: 'srcActNotFound' });
  });
});

describe('ripple_path_find and path_find create', () => {
  const request = (amount: Json | string, from = alice, to = bob) => ({ source_account: from.classicAddress, destination_account: to.classicAddress, destination_amount: amount });

  it('finds the direct native path', () => {
    expect(ok({ command: 'ripple_path_find', ...request('5000000') })).toEqual({
      alternatives: [{ paths_computed: [], source_amount: '5000000' }],
      destination_account: bob.classicAddress,
      destination_currencies: ['XRP', 'USD'],
      full_reply: true,
      ledger_current_index: source.writer.openLedgerIndex(),
      source_account: alice.classicAddress,
      validated: false,
    });
  });

  it('finds the issued-currency path through the issuer, the source amount in the sender’s name', () => {
    const usd = { currency: 'USD', issuer: issuer.classicAddress, value: '25' };
    expect(ok({ command: 'ripple_path_find', ...request(usd) }).alternatives).toEqual([{ paths_computed: [], source_amount: { currency: 'USD', issuer: alice.classicAddress, value: '25' } }]);
    // The issuer sends its own issue; a holder without enough finds none, nor a receiver without room.
    expect(ok({ command: 'ripple_path_find', ...request(usd, issuer, bob) }).alternatives).toHaveLength(1);
    expect(ok({ command: 'ripple_path_find', ...request(usd, bob, alice) }).alternatives).toEqual([]);
    expect(ok({ command: 'ripple_path_find', ...request({ ...usd, value: '2000' }, issuer, bob) }).alternatives).toEqual([]);
  });

  it("keeps the connection's path_find request: create answers at once, each closed ledger sends an update with the create's id, status finds the paths again, close ends it", () => {
    const sent: Json[] = [];
    const own = new Subscriber(source, network, (message) => sent.push(message));
    const onOwn = (request: Json): Json => answer(JSON.stringify({ id: 'paths-1', ...request }), { source, network, subscriber: own, startedAtMs: Date.now(), logger });
    expect(onOwn({ command: 'path_find', subcommand: 'status' })).toMatchObject({ error: 'noPathRequest', error_code: 33 });
    expect(onOwn({ command: 'path_find', subcommand: 'create', ...request('5000000') }).result).toMatchObject({
      alternatives: [{ paths_computed: [], source_amount: '5000000' }],
      destination_amount: '5000000',
      full_reply: true,
    });
    const openLedger = ok({ command: 'ledger_current' }).ledger_current_index;
    ok({ command: 'ledger_accept' });
    expect(sent).toEqual([
      expect.objectContaining({ type: 'path_find', id: 'paths-1', full_reply: true, ledger_current_index: openLedger + 1, alternatives: [{ paths_computed: [], source_amount: '5000000' }] }),
    ]);
    expect(onOwn({ command: 'path_find', subcommand: 'status' }).result).toMatchObject({ ledger_current_index: openLedger + 1, full_reply: true });
    expect(onOwn({ command: 'path_find', subcommand: 'close' }).result).toMatchObject({ closed: true, destination_amount: '5000000' });
    ok({ command: 'ledger_accept' });
    expect(sent).toHaveLength(1);
    expect(onOwn({ command: 'path_find', subcommand: 'close' })).toMatchObject({ error: 'noPathRequest', error_code: 33 });
    expect(onOwn({ command: 'path_find' })).toMatchObject({ error: 'invalidParams' });
    own.close();
  });

  it("answers rippled's errors for malformed and unknown accounts and amounts", () => {
    expect(call({ command: 'ripple_path_find', ...request('5'), source_account: 'nope' })).toMatchObject({ error: 'srcActMalformed' });
    expect(call({ command: 'ripple_path_find', ...request('5'), destination_account: 7 })).toMatchObject({ error: 'dstActMalformed' });
    expect(call({ command: 'ripple_path_find', ...request('-5') })).toMatchObject({ error: 'dstAmtMalformed' });
    expect(call({ command: 'ripple_path_find', ...request('5', Wallet.generate()) })).toMatchObject({ error: 'srcActNotFound' });
    expect(call({ command: 'ripple_path_find', ...request({ currency: 'USD', issuer: issuer.classicAddress, value: '1' }, alice, Wallet.generate()) })).toMatchObject({ error: 'dstActNotFound' });
  });
});

describe('submit_multisigned', () => {
  let sequence = 0;
  const payment = () => ({ TransactionType: 'Payment', Account: alice.classicAddress, Destination: bob.classicAddress, Amount: '2000000', Fee: '40', Sequence: sequence, SigningPubKey: '' }) as Transaction;
  const signedBy = (wallets: Wallet[]) => profile.codec.decode(multisign(wallets.map((wallet) => wallet.sign(payment(), true).tx_blob)));

  beforeAll(() => {
    submitSigned(alice, {
      TransactionType: 'SignerListSet',
      SignerQuorum: 2,
      SignerEntries: signers.map((wallet) => ({ SignerEntry: { Account: wallet.classicAddress, SignerWeight: 1 } })),
    });
    ok({ command: 'ledger_accept' });
    sequence = sequenceOf(alice.classicAddress);
  });

  it('keeps the signer list as rippled writes it: one owner object, entries by AccountID', () => {
    const objects = ok({ command: 'account_info', account: alice.classicAddress, ledger_index: 'validated' }).account_data;
    expect(objects.OwnerCount).toBe(2);
  });

  it('refuses signatures below the quorum (tefBAD_QUORUM) and a signer off the list (tefBAD_SIGNATURE), applying nothing', () => {
    expect(ok({ command: 'submit_multisigned', tx_json: signedBy([signers[0]!]) }).engine_result).toBe('tefBAD_QUORUM');
    expect(ok({ command: 'submit_multisigned', tx_json: signedBy([signers[0]!, Wallet.generate()]) }).engine_result).toBe('tefBAD_SIGNATURE');
  });

  it('refuses a forged multi-signature as a local check (invalidTransaction)', () => {
    const forged = signedBy([signers[0]!, signers[1]!]);
    forged.Amount = '9000000';
    expect(call({ command: 'submit_multisigned', tx_json: forged })).toMatchObject({ error: 'invalidTransaction', error_exception: expect.stringContaining('Invalid signature') });
  });

  it('simulates a multi-signed payment before it is signed: the list and its quorum checked, no signature asked', () => {
    const unsigned = (wallets: Wallet[]) => ({
      TransactionType: 'Payment',
      Account: alice.classicAddress,
      Destination: bob.classicAddress,
      Amount: '1000000',
      Signers: wallets.map((wallet) => ({ Signer: { Account: wallet.classicAddress } })),
    });
    expect(ok({ command: 'simulate', tx_json: unsigned([signers[0]!, signers[1]!]) })).toMatchObject({ engine_result: 'tesSUCCESS', tx_json: { Fee: '30' } });
    expect(ok({ command: 'simulate', tx_json: unsigned([signers[0]!]) }).engine_result).toBe('tefBAD_QUORUM');
  });

  it('applies a payment signed by a quorum of the list', () => {
    const before = BigInt(balanceOf(bob.classicAddress));
    const result = ok({ command: 'submit_multisigned', tx_json: signedBy([signers[2]!, signers[0]!]) });
    expect(result).toMatchObject({ engine_result: 'tesSUCCESS', applied: true, tx_json: { Account: alice.classicAddress, SigningPubKey: '' } });
    ok({ command: 'ledger_accept' });
    expect(BigInt(balanceOf(bob.classicAddress)) - before).toBe(2_000_000n);
    expect(ok({ command: 'tx', transaction: result.tx_json.hash })).toMatchObject({ validated: true, meta: { TransactionResult: 'tesSUCCESS' } });
  });
});

describe('hostile input', () => {
  it('answers every malformed request with a rippled error or a result, never internal', async () => {
    const { default: fc } = await import('fast-check');
    const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(alice.classicAddress, issuer.classicAddress, '', 'XRP', '1200', -1, 2 ** 53, '1e400'));
    const txJson = fc.dictionary(
      fc.constantFrom('TransactionType', 'Account', 'Destination', 'Amount', 'Fee', 'Sequence', 'SigningPubKey', 'TxnSignature', 'Signers', 'SignerQuorum', 'SignerEntries', 'Flags', 'LimitAmount', 'SendMax', 'Paths', 'TicketSequence'),
      fc.oneof(value, fc.constantFrom('Payment', 'SignerListSet', 'AccountSet', 'TrustSet', 'OfferCreate', [{ Signer: { Account: bob.classicAddress, SigningPubKey: '02', TxnSignature: '00' } }])),
      { maxKeys: 8 },
    );
    const request = fc.oneof(
      fc.record({ command: fc.constant('simulate'), tx_json: fc.oneof(txJson, value), binary: fc.oneof(fc.boolean(), value) }, { requiredKeys: ['command'] }),
      fc.record({ command: fc.constant('simulate'), tx_blob: fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF') }), value) }),
      fc.record({ command: fc.constant('submit_multisigned'), tx_json: fc.oneof(txJson, value) }, { requiredKeys: ['command'] }),
      fc.record(
        {
          command: fc.constantFrom('ripple_path_find', 'path_find'),
          subcommand: fc.oneof(fc.constant('create'), value),
          source_account: fc.oneof(fc.constant(alice.classicAddress), value),
          destination_account: fc.oneof(fc.constant(bob.classicAddress), value),
          destination_amount: fc.oneof(value, fc.record({ currency: value, issuer: value, value })),
          source_currencies: fc.oneof(value, fc.array(fc.record({ currency: value, issuer: value }), { maxLength: 3 })),
        },
        { requiredKeys: ['command'] },
      ),
    );
    fc.assert(
      fc.property(request, (fields) => {
        const response = call(fields);
        expect(['success', 'error']).toContain(response.status);
        expect(response.error, JSON.stringify(fields)).not.toBe('internal');
      }),
      { numRuns: 3000 },
    );
  });
});
