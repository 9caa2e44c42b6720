/**
 * What needs a live engine, through a whole node (`ledger-node -dev -ws`): ripple_path_find,
 * path_find (a subscription whose updates are relayed), simulate and submit_multisigned forwarded by the submission service to the
 * devnet the node syncs from and marked `forwarded`, and `manifest` answered from the manifests
 * sync follows. Transactions are made and (multi-)signed by the published `xrpl` package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, decode, multisign, Wallet, type SubmittableTransaction } from 'xrpl';
import { stopAll, waitUntil, WsClient } from '@ledger-node/test-utils';
import { GENESIS, postRippled, startRippledNode, type Json, type RippledNode } from './support/rippled-node';

afterAll(async () => {
  await stopAll();
});

/** A request xrpl's types do not name (the forwarded commands, manifest, the devnet's controls): its result. */
async function ask(client: Client, request: Json): Promise<Json> {
  const answer = (await client.request(request as never)) as { result: Json };
  return answer.result;
}

/** The rippled error a request was refused with (xrpl's RippledError carries the whole answer). */
async function refusal(client: Client, request: Json): Promise<Json> {
  try {
    await client.request(request as never);
  } catch (error) {
    return (error as { data?: Json }).data ?? { thrown: String(error) };
  }
  throw new Error(`${request.command} was not refused`);
}

describe('forwarded commands and manifest through ledger-node -dev -ws', () => {
  let node: RippledNode;
  let client: Client;
  let devnet: Client;
  const genesis = Wallet.fromSeed(GENESIS.xrpl.secret);
  const issuer = Wallet.generate();
  const alice = Wallet.generate();
  const bob = Wallet.generate();
  const signers = [Wallet.generate(), Wallet.generate(), Wallet.generate()];

  const onDevnet = async (wallet: Wallet, tx: Json) => {
    const { result } = await devnet.submitAndWait({ Account: wallet.classicAddress, ...tx } as SubmittableTransaction, { wallet });
    expect((result.meta as Json).TransactionResult, `${tx.TransactionType} on the devnet`).toBe('tesSUCCESS');
  };

  beforeAll(async () => {
    node = await startRippledNode(['-close_ms', '300']);
    devnet = new Client(node.devnetUrl);
    await devnet.connect();
    client = new Client(node.wsUrl, { connectionTimeout: 10_000 });
    client.on('error', () => undefined);
    await client.connect();
    for (const wallet of [issuer, alice, bob]) await onDevnet(genesis, { TransactionType: 'Payment', Destination: wallet.classicAddress, Amount: '1000000000' });
    await onDevnet(issuer, { TransactionType: 'AccountSet', SetFlag: 8 });
    for (const holder of [alice, bob]) await onDevnet(holder, { TransactionType: 'TrustSet', LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '1000' } });
    await onDevnet(issuer, { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: { currency: 'USD', issuer: issuer.classicAddress, value: '300' } });
    await onDevnet(alice, { TransactionType: 'SignerListSet', SignerQuorum: 2, SignerEntries: signers.map((wallet) => ({ SignerEntry: { Account: wallet.classicAddress, SignerWeight: 1 } })) });
  }, 120_000);

  afterAll(async () => {
    if (client?.isConnected()) await client.disconnect();
    if (devnet?.isConnected()) await devnet.disconnect();
    await node?.stop();
  });

  const pathRequest = (amount: unknown) => ({ source_account: alice.classicAddress, destination_account: bob.classicAddress, destination_amount: amount });
  const withoutLedger = ({ ledger_current_index: _current, ...rest }: Json) => rest;

  it("answers ripple_path_find as the devnet does, marked forwarded: the direct native and issued-currency paths", async () => {
    for (const amount of ['5000000', { currency: 'USD', issuer: issuer.classicAddress, value: '25' }]) {
      const request = { command: 'ripple_path_find', ...pathRequest(amount) };
      const result = await ask(client, request);
      const expected = await ask(devnet, request);
      expect(result.forwarded).toBe(true);
      expect(withoutLedger(result)).toEqual({ ...withoutLedger(expected), forwarded: true });
      expect(result.alternatives).toHaveLength(1);
    }
    const usd = await ask(client, { command: 'ripple_path_find', ...pathRequest({ currency: 'USD', issuer: issuer.classicAddress, value: '25' }) });
    expect(usd.alternatives[0].source_amount).toEqual({ currency: 'USD', issuer: alice.classicAddress, value: '25' });
  });

  it("relays path_find as a subscription: the upstream's updates after each closed ledger, status, close, and a closed connection closes the request upstream", async () => {
    // A connection of its own, read message by message (xrpl's Client hides messages it did not ask for).
    const socket = await WsClient.open(node.wsUrl);
    try {
      const created = await socket.request({ command: 'path_find', subcommand: 'create', ...pathRequest('7000000') });
      expect(created).toMatchObject({ status: 'success', result: { alternatives: [{ paths_computed: [], source_amount: '7000000' }], destination_amount: '7000000', full_reply: true, forwarded: true } });
      await node.process.waitFor(/path request 1 opened, 1 open/, 10_000);
      // The devnet closes a ledger every 300 ms and finds the request's paths again.
      const update = await socket.waitFor((message) => message.type === 'path_find', 10_000);
      expect(update).toMatchObject({ type: 'path_find', id: created.id, forwarded: true, full_reply: true, alternatives: [{ paths_computed: [], source_amount: '7000000' }] });
      expect(update.ledger_current_index).toBeGreaterThan(created.result.ledger_current_index);
      const status = await socket.request({ command: 'path_find', subcommand: 'status' });
      expect(status).toMatchObject({ status: 'success', result: { full_reply: true, destination_amount: '7000000', forwarded: true } });
      const closed = await socket.request({ command: 'path_find', subcommand: 'close' });
      expect(closed).toMatchObject({ status: 'success', result: { closed: true, forwarded: true } });
      await node.process.waitFor(/path request 1 closed, 0 open/, 10_000);
      expect(await socket.request({ command: 'path_find', subcommand: 'status' })).toMatchObject({ status: 'error', error: 'noPathRequest', error_code: 33 });

      // A new request, then the client goes away: the node closes it upstream.
      expect(await socket.request({ command: 'path_find', subcommand: 'create', ...pathRequest('8000000') })).toMatchObject({ status: 'success', result: { forwarded: true } });
      await node.process.waitFor(/path request 2 opened, 1 open/, 10_000);
    } finally {
      await socket.close();
    }
    await node.process.waitFor(/path request 2 closed, 0 open/, 10_000);
    // Over HTTP there is no connection to relay updates on: rippled's noEvents.
    expect((await postRippled(node.httpUrl, 'path_find', { subcommand: 'create', ...pathRequest('7000000') })).body?.result).toMatchObject({ status: 'error', error: 'noEvents', error_code: 7 });
  });

  it('simulates a payment on the open ledger without committing it', async () => {
    const before = (await devnet.request({ command: 'account_info', account: alice.classicAddress, ledger_index: 'current' })).result.account_data.Balance;
    const result = await ask(client, { command: 'simulate', tx_json: { TransactionType: 'Payment', Account: alice.classicAddress, Destination: bob.classicAddress, Amount: '1000000' } });
    expect(result).toMatchObject({ applied: false, engine_result: 'tesSUCCESS', engine_result_code: 0, forwarded: true, meta: { TransactionResult: 'tesSUCCESS' }, tx_json: { Account: alice.classicAddress, SigningPubKey: '' } });
    expect((await devnet.request({ command: 'account_info', account: alice.classicAddress, ledger_index: 'current' })).result.account_data.Balance).toBe(before);
    // rippled's HTTP JSON-RPC form is forwarded the same way.
    const overHttp = await postRippled(node.httpUrl, 'simulate', { tx_json: { TransactionType: 'AccountSet', Account: bob.classicAddress } });
    expect(overHttp.body?.result).toMatchObject({ status: 'success', applied: false, engine_result: 'tesSUCCESS', forwarded: true });
  });

  it('refuses key material before anything is forwarded', async () => {
    expect(await refusal(client, { command: 'simulate', secret: GENESIS.xrpl.secret, tx_json: { TransactionType: 'AccountSet', Account: alice.classicAddress } })).toMatchObject({
      error: 'invalidParams',
      error_message: "Invalid field 'secret'.",
    });
  });

  it('submits a multi-signed payment from an account with a SignerList, and reads it back from the node’s store', async () => {
    const { result: info } = await client.request({ command: 'account_info', account: alice.classicAddress, ledger_index: 'current' });
    const { result: current } = await devnet.request({ command: 'ledger_current' });
    const payment = {
      TransactionType: 'Payment',
      Account: alice.classicAddress,
      Destination: bob.classicAddress,
      Amount: '3000000',
      Fee: '30',
      Sequence: info.account_data.Sequence,
      LastLedgerSequence: current.ledger_current_index + 40,
      SigningPubKey: '',
    } as SubmittableTransaction;
    const signed = multisign([signers[0]!, signers[2]!].map((wallet) => wallet.sign(payment, true).tx_blob));
    const result = await ask(client, { command: 'submit_multisigned', tx_json: decode(signed) });
    expect(result).toMatchObject({ engine_result: 'tesSUCCESS', forwarded: true });
    const hash = result.tx_json.hash as string;
    const stored = await waitUntil(
      async () => {
        try {
          const { result: tx } = await client.request({ command: 'tx', transaction: hash });
          return tx.validated ? (tx as Json) : undefined;
        } catch {
          return undefined;
        }
      },
      60_000,
      'the multi-signed payment in the node’s store',
      250,
    );
    expect(stored).toMatchObject({ hash, validated: true, meta: { TransactionResult: 'tesSUCCESS', delivered_amount: '3000000' } });
    expect(stored.tx_json.Signers).toHaveLength(2);
  });

  it("answers manifest for a devnet validator's master key from the manifests sync follows, as the devnet does", async () => {
    const network = await ask(devnet, { command: 'devnet_network' });
    const validator = network.validators[0] as Json;
    const request = { command: 'manifest', public_key: validator.master_key_n };
    const expected = await ask(devnet, request);
    expect(expected.manifest).toEqual(expect.any(String));
    const answer = await waitUntil(
      async () => {
        const result = await ask(client, request);
        return result.manifest === undefined ? undefined : result;
      },
      30_000,
      'the validator manifest followed by sync',
      250,
    );
    expect(answer).toEqual(expected);
    expect(await ask(client, { command: 'manifest', public_key: validator.signing_key_n })).toMatchObject({ details: { master_key: validator.master_key_n } });
    expect(await refusal(client, { command: 'manifest', public_key: 'nHnotakey' })).toMatchObject({ error: 'invalidParams', requested: 'nHnotakey' });
  });
});
