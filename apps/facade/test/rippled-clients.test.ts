/**
 * Real clients, unmodified, against the node's rippled-compatible API (`-ws`): the published `xrpl`
 * package's Client (API v2) against a node on an XRPL devnet under load, and the Jingtum client
 * library `@swtc/lib`'s Remote against a node on a Jingtum devnet. Each answer is checked against
 * what the same client reads from the devnet the node syncs from (the rippled stand-in).
 */
import { Remote as JingtumRemote, Wallet as JingtumWallet } from '@swtc/lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Wallet, xrpToDrops, type AccountTxRequest, type AccountTxResponse, type LedgerStream, type SubscribeRequest } from 'xrpl';
import { stopAll, waitUntil } from '@ledger-node/test-utils';
import { GENESIS, parseRanges, portAccepts, startRippledNode, type Json, type RippledNode } from './support/rippled-node';

afterAll(async () => {
  await stopAll();
});

/**
 * The value without the fields the node leaves out or adds by design (rippled-differential.test.ts
 * lists each with its reason): in API v1, a Payment's `DeliverMax` (the node renders as rippled 2.0
 * and later, the devnet as before).
 */
function withoutIntended(value: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((member) => withoutIntended(member, keys));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)).map(([key, member]) => [key, withoutIntended(member, keys)]));
}

/** The accounts a transaction's metadata names (rippled getAffectedAccounts: account fields, and the issuers of trust-line limits). */
function affectedAccounts(tx: Json, meta: Json): Set<string> {
  const accounts = new Set<string>([tx.Account]);
  for (const affected of meta.AffectedNodes as Json[]) {
    const entry = affected.CreatedNode ?? affected.ModifiedNode ?? affected.DeletedNode;
    for (const fields of [entry.NewFields, entry.FinalFields, entry.PreviousFields]) {
      for (const [key, value] of Object.entries((fields ?? {}) as Json)) {
        if (['Account', 'Destination', 'Owner', 'RegularKey'].includes(key) && typeof value === 'string') accounts.add(value);
        if (['HighLimit', 'LowLimit', 'TakerPays', 'TakerGets'].includes(key) && typeof value === 'object') accounts.add(value.issuer);
      }
    }
  }
  return accounts;
}

describe('the xrpl Client against ledger-node -dev -ws', () => {
  let node: RippledNode;
  /** The client under test, connected to the node. */
  let client: Client;
  /** The same client on the devnet, for the reference answers. */
  let devnet: Client;
  const clientErrors: unknown[] = [];
  /** The synced range read in these tests. */
  let last: number;
  /** The devnet's ledgers 1..last (API v2, expanded). */
  const ledgers: Json[] = [];
  let holders: string[];
  let issuer: string;

  async function nodeCompleteRange(): Promise<{ first: number; last: number } | undefined> {
    const answer = await client.request({ command: 'server_info' });
    const ranges = parseRanges(answer.result.info.complete_ledgers);
    return ranges.length === 1 ? ranges[0] : undefined;
  }

  beforeAll(async () => {
    node = await startRippledNode(['-close_ms', '300', '-load', '10', '-load_accounts', '3']);
    devnet = new Client(node.devnetUrl);
    await devnet.connect();
    client = new Client(node.wsUrl, { connectionTimeout: 10_000 });
    // A client whose server goes away reports it as an `error` event; unheard, it would end the test.
    client.on('error', (...details: unknown[]) => clientErrors.push(details));
    await client.connect();
    const range = await waitUntil(
      async () => {
        const synced = await nodeCompleteRange();
        return synced && synced.first === 1 && synced.last >= 12 ? synced : undefined;
      },
      60_000,
      'the node synced from the devnet genesis to ledger 12',
      250,
    );
    last = range.last;
    // And has downloaded the account state, so that account reads answer.
    await waitUntil(() => client.request({ command: 'account_info', account: GENESIS.xrpl.address, ledger_index: last }).then(() => true), 60_000, 'account state on the node');
    for (let ledgerIndex = 1; ledgerIndex <= last; ledgerIndex++) {
      ledgers.push((await devnet.request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true })).result.ledger as Json);
    }
    const transactions = ledgers.flatMap((ledger) => ledger.transactions as Json[]);
    issuer = transactions.find((tx) => tx.tx_json.TransactionType === 'AccountSet')!.tx_json.Account;
    holders = [...new Set(transactions.filter((tx) => tx.tx_json.TransactionType === 'TrustSet').map((tx) => String(tx.tx_json.Account)))];
  }, 100_000);

  afterAll(async () => {
    if (client?.isConnected()) await client.disconnect();
    if (devnet?.isConnected()) await devnet.disconnect();
    await node?.stop();
  });

  it('connects and reports the ledgers the node holds (server_info)', async () => {
    expect(client.isConnected()).toBe(true);
    const { result } = await client.request({ command: 'server_info' });
    expect(parseRanges(result.info.complete_ledgers)[0]?.first).toBe(1);
    expect(result.info.validated_ledger?.seq).toBeGreaterThanOrEqual(last);
    expect(holders).toHaveLength(3);
  });

  it('requests ledgers with their transactions expanded and gets what the devnet serves', async () => {
    const withTransactions = ledgers.filter((ledger) => ledger.transactions.length > 0);
    expect(withTransactions.length).toBeGreaterThan(3);
    for (const expected of withTransactions) {
      const ledgerIndex = expected.ledger_index as number;
      const { result } = await client.request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true });
      expect(result.validated).toBe(true);
      expect(result.ledger, `ledger ${ledgerIndex}`).toEqual(expected);
    }
  });

  it('reads account_info, account_lines and the balances of funded accounts as the devnet does', async () => {
    for (const account of [GENESIS.xrpl.address, issuer, ...holders]) {
      const request = { command: 'account_info', account, ledger_index: last } as const;
      expect((await client.request(request)).result, `account_info ${account}`).toEqual((await devnet.request(request)).result);
      const lines = { command: 'account_lines', account, ledger_index: last } as const;
      const nodeLines = (await client.request(lines)).result;
      expect(nodeLines, `account_lines ${account}`).toEqual((await devnet.request(lines)).result);
      if (account !== GENESIS.xrpl.address) expect(nodeLines.lines.length).toBeGreaterThan(0);
      expect(await client.getBalances(account, { ledger_index: last })).toEqual(await devnet.getBalances(account, { ledger_index: last }));
    }
  });

  it('pages account_tx to the end with markers and gets every transaction the devnet made for the account', async () => {
    for (const account of [issuer, ...holders]) {
      // A ledger lists its transactions in tree order; the account's history runs in ledger and then transaction order.
      const expected = ledgers
        .flatMap((ledger) => [...(ledger.transactions as Json[])].sort((a, b) => a.meta.TransactionIndex - b.meta.TransactionIndex))
        .filter((tx) => affectedAccounts(tx.tx_json, tx.meta).has(account))
        .map((tx) => tx.hash as string);
      const request: AccountTxRequest = { command: 'account_tx', account, ledger_index_min: 1, ledger_index_max: last, limit: 3 };
      let page: AccountTxResponse = await client.request(request);
      const hashes = page.result.transactions.map((entry) => entry.hash!);
      let pageCount = 1;
      while (page.result.marker !== undefined) {
        page = await client.requestNextPage(request, page);
        hashes.push(...page.result.transactions.map((entry) => entry.hash!));
        pageCount++;
        expect(pageCount, 'account_tx pages').toBeLessThan(500);
      }
      expect(pageCount).toBeGreaterThan(1);
      // Newest first: the reverse of ledger order.
      expect(hashes, `account_tx ${account}`).toEqual([...expected].reverse());
    }
  });

  it('reads transactions with tx as the devnet serves them', async () => {
    const transactions = ledgers.flatMap((ledger) => ledger.transactions as Json[]);
    const chosen = transactions.filter((_, position) => position % Math.max(1, Math.floor(transactions.length / 12)) === 0);
    for (const tx of chosen) {
      const request = { command: 'tx', transaction: tx.hash } as const;
      const answer = (await client.request(request)).result;
      expect(answer, `tx ${tx.hash}`).toEqual((await devnet.request(request)).result);
      expect(answer.validated).toBe(true);
    }
  });

  it('submitAndWait: a payment from a funded devnet wallet, autofilled and submitted through the node, validates', async () => {
    const genesis = Wallet.fromSeed(GENESIS.xrpl.secret);
    const receiver = Wallet.generate();
    const outcome = await client.submitAndWait(
      { TransactionType: 'Payment', Account: genesis.classicAddress, Destination: receiver.classicAddress, Amount: xrpToDrops('250') },
      { wallet: genesis },
    );
    expect(outcome.result.validated).toBe(true);
    expect(outcome.result.meta).toMatchObject({ TransactionResult: 'tesSUCCESS', delivered_amount: xrpToDrops('250') });
    const onDevnet = await devnet.request({ command: 'tx', transaction: outcome.result.hash });
    expect(onDevnet.result.ledger_index).toBe(outcome.result.ledger_index);
    expect(await client.getXrpBalance(receiver.classicAddress, { ledger_index: outcome.result.ledger_index })).toBe(250);
  }, 60_000);

  it('follows the ledger stream across a restart of the facade, resuming from its last ledger without a gap', async () => {
    const seen: number[] = [];
    const onLedger = (message: LedgerStream) => seen.push(message.ledger_index);
    client.on('ledgerClosed', onLedger);
    try {
      await client.request({ command: 'subscribe', streams: ['ledger'] });
      await waitUntil(() => seen.length >= 3, 20_000, 'three ledgerClosed messages');
      const facadePid = node.facadePid();
      process.kill(facadePid, 'SIGKILL');
      await waitUntil(() => !client.isConnected(), 10_000, 'the client to see the connection drop');
      const lastSeen = seen.at(-1)!;
      await waitUntil(async () => node.facadePid() !== facadePid && (await portAccepts(Number(new URL(node.wsUrl).port))), 30_000, 'the supervisor to restart the facade');
      if (!client.isConnected()) await client.connect();
      // The resume extension (from_ledger: the last ledger the client saw): every ledger after it from the store, then the live ones.
      const resume: SubscribeRequest = { command: 'subscribe', streams: ['ledger'], from_ledger: lastSeen };
      await client.request(resume);
      const devnetTip = await devnet.getLedgerIndex();
      expect(devnetTip, 'ledgers closed while the facade was down').toBeGreaterThan(lastSeen);
      await waitUntil(() => (seen.at(-1) ?? 0) >= devnetTip + 2, 30_000, `ledgerClosed messages up to ${devnetTip + 2}`);
      const first = seen[0]!;
      expect(seen).toEqual(Array.from({ length: seen.length }, (_, offset) => first + offset));
    } finally {
      client.off('ledgerClosed', onLedger);
    }
  }, 90_000);
});

describe('the @swtc/lib Remote against ledger-node -dev -chain jingtum -ws', () => {
  let node: RippledNode;
  /** The Jingtum client under test, connected to the node. */
  let remote: any;
  /** The same client on the devnet, for the reference answers. */
  let devnetRemote: any;
  /** What connecting answered (the subscribe response to the ledger, server and transactions streams), or why it failed. */
  let connecting: { result?: Json; error?: unknown };
  const receiver = JingtumWallet.generate() as { address: string; secret: string };
  let payment: { hash: string; ledgerIndex: number };

  /** A Remote on one server only (without `server` it would fail over to a public Jingtum node). */
  function remoteOf(url: string): any {
    return new JingtumRemote({ server: url, timeout: 20_000 });
  }

  beforeAll(async () => {
    node = await startRippledNode(['-chain', 'jingtum', '-close_ms', '300']);
    devnetRemote = remoteOf(node.devnetUrl);
    await devnetRemote.connectPromise();
    // A payment signed by the client library itself, submitted to the devnet.
    const submitted = await devnetRemote
      .buildPaymentTx({ account: GENESIS.jingtum.address, to: receiver.address, amount: devnetRemote.makeAmount(5000) })
      .submitPromise(GENESIS.jingtum.secret, 'ledger-node');
    expect(submitted.engine_result).toBe('tesSUCCESS');
    const validated = await waitUntil(
      async () => {
        const tx = await devnetRemote.requestTx({ hash: submitted.tx_json.hash }).submitPromise();
        return tx.validated === true ? tx : undefined;
      },
      30_000,
      'the payment validated on the devnet',
    );
    payment = { hash: validated.hash, ledgerIndex: validated.ledger_index };
    remote = remoteOf(node.wsUrl);
    // A refused subscribe rejects connectPromise but leaves the socket open: the reads below still run.
    connecting = await remote.connectPromise().then(
      (result: Json) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // The node has stored the payment's ledger, and the account state downloaded at its first ledger.
    await waitUntil(() => remote.requestTx({ hash: payment.hash }).submitPromise().then(() => true), 60_000, 'the payment on the node');
    await waitUntil(
      () => remote.requestAccountInfo({ account: receiver.address, ledger: payment.ledgerIndex }).submitPromise().then(() => true),
      60_000,
      'account state on the node',
    );
  }, 120_000);

  afterAll(async () => {
    remote?.disconnect();
    devnetRemote?.disconnect();
    await node?.stop();
  });

  it('connects: subscribing to the ledger, server and transactions streams answers the ledger the node has validated', async () => {
    expect(connecting.error, 'connectPromise (subscribe to ledger, server and transactions) rejected').toBeUndefined();
    const connected = connecting.result!;
    expect(connected).toMatchObject({ ledger_hash: expect.stringMatching(/^[0-9A-F]{64}$/), ledger_index: expect.any(Number), fee_base: expect.any(Number) });
    const closed = await remote.requestLedgerClosed().submitPromise();
    expect(closed.ledger_index).toBeGreaterThanOrEqual(connected.ledger_index);
  });

  it('is online once connected: the server stream\'s answer carries a server_status', () => {
    // @swtc/lib counts a Remote as connected only when a server_status it knows comes back.
    expect(connecting.result?.server_status).toBeDefined();
    expect(remote.isConnected()).toBe(true);
  });

  it('emits ledger_closed for each ledger the node stores', async () => {
    expect(connecting.error, 'the ledger stream was not subscribed').toBeUndefined();
    const closed: number[] = [];
    const listener = (message: Json) => closed.push(message.ledger_index);
    // A pending payment makes the devnet close a ledger within -close_ms rather than its idle interval.
    const pay = () =>
      devnetRemote.buildPaymentTx({ account: GENESIS.jingtum.address, to: receiver.address, amount: devnetRemote.makeAmount(1) }).submitPromise(GENESIS.jingtum.secret);
    remote.on('ledger_closed', listener);
    try {
      await pay();
      await waitUntil(() => closed.length >= 1, 20_000, 'a ledger_closed event');
      await pay();
      await waitUntil(() => closed.length >= 2, 20_000, 'two ledger_closed events');
      expect(closed[1]).toBe(closed[0]! + 1);
    } finally {
      remote.removeListener('ledger_closed', listener);
    }
  });

  it('reads a ledger with its transactions (requestLedger) as the devnet serves it', async () => {
    const options = { ledger_index: payment.ledgerIndex, transactions: true, expand: true };
    const ledger = await remote.requestLedger(options).submitPromise();
    expect(withoutIntended(ledger, ['DeliverMax'])).toEqual(await devnetRemote.requestLedger(options).submitPromise());
    expect(ledger.transactions.map((tx: Json) => tx.hash)).toContain(payment.hash);
    // The summary form the library makes of a ledger header.
    const summary = await remote.requestLedger({ ledger_index: payment.ledgerIndex }).submitPromise();
    expect(summary).toEqual(await devnetRemote.requestLedger({ ledger_index: payment.ledgerIndex }).submitPromise());
  });

  it('reads an account (requestAccountInfo, requestAccountRelations) as the devnet serves it', async () => {
    for (const account of [GENESIS.jingtum.address, receiver.address]) {
      const options = { account, ledger: payment.ledgerIndex };
      const info = await remote.requestAccountInfo(options).submitPromise();
      expect(info).toEqual(await devnetRemote.requestAccountInfo(options).submitPromise());
      expect(info.account_data.Account).toBe(account);
      const relations = { ...options, type: 'trust' };
      expect(await remote.requestAccountRelations(relations).submitPromise()).toEqual(await devnetRemote.requestAccountRelations(relations).submitPromise());
    }
    const receiverInfo = await remote.requestAccountInfo({ account: receiver.address, ledger: payment.ledgerIndex }).submitPromise();
    expect(receiverInfo.account_data.Balance).toBe('5000000000');
  });

  it('reads a transaction (requestTx) and the account history (requestAccountTx) as the devnet serves them', async () => {
    const tx = await remote.requestTx({ hash: payment.hash }).submitPromise();
    expect(withoutIntended(tx, ['DeliverMax'])).toEqual(await devnetRemote.requestTx({ hash: payment.hash }).submitPromise());
    expect(tx).toMatchObject({ Account: GENESIS.jingtum.address, Destination: receiver.address, validated: true });
    const history = { account: receiver.address, ledger_max: payment.ledgerIndex, limit: 10 };
    const nodeHistory = await remote.requestAccountTx(history).submitPromise();
    expect(nodeHistory).toEqual(await devnetRemote.requestAccountTx(history).submitPromise());
    // The library's own reading of the payment: received 5000 SWT with its memo.
    expect(nodeHistory.transactions).toEqual([
      expect.objectContaining({ hash: payment.hash, type: 'received', amount: expect.objectContaining({ value: '5000', currency: 'SWT' }), memos: [{ MemoData: 'ledger-node' }] }),
    ]);
  });

  it('submits a payment signed by the library through the node (buildPaymentTx … submitPromise)', async () => {
    const submitted = await remote
      .buildPaymentTx({ account: receiver.address, to: GENESIS.jingtum.address, amount: remote.makeAmount(10) })
      .submitPromise(receiver.secret);
    expect(submitted.engine_result).toBe('tesSUCCESS');
    const tx = await waitUntil(
      async () => {
        const answer = await remote.requestTx({ hash: submitted.tx_json.hash }).submitPromise().catch(() => undefined);
        return answer?.validated === true ? answer : undefined;
      },
      30_000,
      'the payment validated and stored by the node',
    );
    expect(tx.meta.TransactionResult).toBe('tesSUCCESS');
  }, 60_000);
});
