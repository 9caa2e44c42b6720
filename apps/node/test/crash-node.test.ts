/**
 * Crash safety of the whole node, as figures: a node (the supervisor and its services) follows a
 * loaded devnet while payments are sent through it, and at random moments (from a printed seed)
 * sync, ledger-store, submission, keystore or the whole supervisor group is killed with SIGKILL,
 * most often while a payment is being signed or is pending: 8 times in `npm test` (each target at
 * least once), 60 under
 * `npm run soak`. Afterwards the node must hold one range from genesis with every hash the
 * devnet's, every payment it answered with a hash must be validated and have its receipt, and
 * balances must equal the devnet's at sampled ledgers. Printed: `figures crash-node: …`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, Wallet, xrpToDrops } from 'xrpl';
import { decodeLedgerHeader } from '@ledger-node/chain';
import { LedgerStoreServiceService } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import {
  alive,
  childPids,
  cliEntry,
  devnetValidatorsFile,
  freePort,
  generateLocalAccount,
  printFigures,
  quantile,
  runSeed,
  seededRandom,
  soaking,
  startProcess,
  stopAll,
  storedHeaders,
  tempDir,
  waitUntil,
  type RunningProcess,
} from '@ledger-node/test-utils';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const KILLS = soaking() ? 60 : 8;
const TARGETS = ['sync', 'ledger-store', 'submission', 'keystore', 'supervisor'] as const;
const passphrase = 'crash test passphrase';
const genesisSecret = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
const genesisAddress = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid a supervisor last reported `service` ready with. */
const readyPid = (node: RunningProcess, service: string) => childPids(node, ['ready']).get(service);

describe('crash safety of the whole node', () => {
  it(`after ${KILLS} kills of a service or the supervisor group, payments answered with a hash are validated, the chain is the devnet's and balances match`, async () => {
    const seed = runSeed('crash-node');
    const random = seededRandom(seed);
    const { dir, remove } = tempDir('crash-node-');
    cleanups.push(remove);

    const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-load', '5', '-load_accounts', '3', '-close_ms', '250']);
    const devnetUrl = (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/))[1]!;
    const { address: alice, passwordFile } = generateLocalAccount(dir, 'alice', passphrase);
    const rpcPort = await freePort();
    const nodeArgs = [
      cliEntry(), '-endpoint', devnetUrl, '-validators', devnetValidatorsFile(dir), '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
      '-data_dir', dir, '-password_file', passwordFile, '-thread_count', '2',
    ];
    const startNode = async () => {
      const started = startProcess(nodeArgs);
      for (const service of ['ledger-store', 'keystore', 'submission', 'sync', 'facade']) await started.waitFor(new RegExp(`${service}\\s+ready`), 60_000);
      return started;
    };
    let node: RunningProcess = await startNode();

    const call = async (method: string, params: unknown[]): Promise<Record<string, any>> => {
      const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
        signal: AbortSignal.timeout(30_000),
      });
      return (await response.json()) as Record<string, any>;
    };
    const blockNumber = async (): Promise<number | undefined> => {
      const answer = await call('jt_blockNumber', []).catch(() => undefined);
      return typeof answer?.result === 'number' ? answer.result : undefined;
    };

    const client = new Client(devnetUrl);
    await client.connect();
    cleanups.push(() => void client.disconnect());
    await client.submitAndWait({ TransactionType: 'Payment', Account: genesisAddress, Destination: alice, Amount: xrpToDrops(100_000) }, { wallet: Wallet.fromSeed(genesisSecret) });
    await waitUntil(async () => ((await call('jt_getBalance', [alice, 'validated'])).result ? true : undefined), 60_000, 'alice funded, as the node sees it', 250);

    const killed = Object.fromEntries(TARGETS.map((target) => [target, 0])) as Record<(typeof TARGETS)[number], number>;
    const answeredHashes: string[] = [];
    let sendErrors = 0;
    let failedRestarts = 0;
    const recoveriesMs: number[] = [];
    // Every target once, in a seeded order, then at random.
    const firstRound = [...TARGETS].sort(() => random() - 0.5);
    for (let kill = 0; kill < KILLS; kill++) {
      const target = firstRound[kill] ?? TARGETS[Math.floor(random() * TARGETS.length)]!;
      killed[target]++;
      const before = (await blockNumber()) ?? 0;
      // Most kills fall while a payment is signed or pending.
      const sending =
        random() < 0.75 ? call('jt_sendTransaction', [{ from: 'alice', to: genesisAddress, value: String(1_000 + kill), fee: '12' }]).catch(() => undefined) : undefined;
      await pause(Math.floor(random() * 600));
      const killedAtMs = Date.now();
      const killedPid = target === 'supervisor' ? node.pid : readyPid(node, target);
      if (target === 'supervisor') {
        const children = [...childPids(node).values()];
        process.kill(node.pid, 'SIGKILL');
        await node.exited;
        await waitUntil(() => (children.some(alive) ? undefined : true), 20_000, 'the children of the killed supervisor gone', 50);
      } else {
        if (killedPid === undefined) throw new Error(`no pid of ${target} in the supervisor's output`);
        process.kill(killedPid, 'SIGKILL');
      }
      const answer = await sending;
      const hash = answer?.result?.[0];
      if (typeof hash === 'string' && /^[0-9A-F]{64}$/.test(hash) && !/^0+$/.test(hash)) answeredHashes.push(hash);
      else if (sending) {
        sendErrors++;
        process.stdout.write(`crash-node: a payment sent while ${target} was killed: ${JSON.stringify(answer?.error ?? 'no answer')}\n`);
      }
      try {
        if (target === 'supervisor') node = await startNode();
        else await waitUntil(() => (readyPid(node, target) !== killedPid ? true : undefined), 60_000, `${target} ready again`, 50);
        // Recovered: a new ledger stored, and both paths of a payment answer again.
        await waitUntil(async () => (((await blockNumber()) ?? 0) > before ? true : undefined), 60_000, `a new ledger stored after killing ${target}`, 100);
        await waitUntil(async () => ((await call('jt_sign', [alice, '0x00'])).result ? true : undefined), 60_000, 'the keystore reached', 100);
        await waitUntil(async () => ((await call('jt_sendRawTransaction', ['0x00'])).error?.code !== -32008 ? true : undefined), 60_000, 'submission reached', 100);
        recoveriesMs.push(Date.now() - killedAtMs);
      } catch (error) {
        failedRestarts++;
        process.stdout.write(`crash-node: kill ${kill} (${target}) did not recover: ${(error as Error).message}\n${node.output().slice(-3000)}\n`);
        break;
      }
    }

    // After the kills, a payment sent while nothing is killed is answered with a hash (the ones
    // above may all have been cut by their kill on a loaded machine) and checked with the rest.
    const after = await call('jt_sendTransaction', [{ from: 'alice', to: genesisAddress, value: '999', fee: '12' }]);
    expect(after.result?.[0], JSON.stringify(after.error)).toMatch(/^[0-9A-F]{64}$/);
    answeredHashes.push(after.result[0]);

    // Level with the devnet, then check everything the node holds.
    const tip = await waitUntil(async () => {
      const [ours, theirs] = await Promise.all([blockNumber(), client.request({ command: 'ledger_closed' })]);
      return ours !== undefined && ours >= theirs.result.ledger_index - 1 ? ours : undefined;
    }, 60_000, 'the node level with the devnet', 250);
    const store = createGrpcClient(LedgerStoreServiceService, `unix:${dir}/run/ledger-store.sock`, { deadlineMs: 10_000, serviceLabel: 'ledger-store' });
    cleanups.push(() => store.close());
    const status = await waitUntil(async () => {
      const current = await store.getStatus({});
      return current.completeRanges.length === 1 && current.completeRanges[0]!.first === 1 ? current : undefined;
    }, 60_000, 'one complete range from genesis', 250);
    const gaps = status.completeRanges.length - 1;
    let brokenLinks = 0;
    let wrongHashes = 0;
    let previousHash: Buffer | undefined;
    for (const ledger of await storedHeaders(store, 1, tip)) {
      if (previousHash && decodeLedgerHeader(ledger.headerBlob).parentHash.toUpperCase() !== previousHash.toString('hex').toUpperCase()) brokenLinks++;
      previousHash = Buffer.from(ledger.ledgerHash);
      const served = await client.request({ command: 'ledger', ledger_index: ledger.ledgerIndex });
      if (served.result.ledger_hash !== previousHash.toString('hex').toUpperCase()) wrongHashes++;
    }

    let lostSubmissions = 0;
    for (const hash of answeredHashes) {
      const receipt = await waitUntil(async () => (await call('jt_getTransactionReceipt', [hash])).result ?? undefined, 60_000, `the receipt of ${hash}`, 250).catch(() => undefined);
      const onDevnet = await client.request({ command: 'tx', transaction: hash }).catch(() => undefined);
      if (!receipt || onDevnet?.result.validated !== true) lostSubmissions++;
    }

    // Payments that reached a ledger although the caller got an error (the answer died with a service): reported, not lost.
    const sent = await client.request({ command: 'account_tx', account: alice, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
    const validatedFromAlice = sent.result.transactions.filter((entry: Record<string, any>) => entry.validated && (entry.tx_json ?? entry.tx)?.Account === alice);
    const unansweredValidated = validatedFromAlice.length - answeredHashes.length;

    // Balances at ledgers spread over the state the node holds, against the devnet's.
    const stateRange = (await store.getStatus({})).stateRange!;
    let wrongBalances = 0;
    let balancesCompared = 0;
    for (let sample = 0; sample < 6; sample++) {
      const ledgerIndex = stateRange.first + Math.floor(random() * (stateRange.last - stateRange.first + 1));
      for (const account of [alice, genesisAddress]) {
        const ours = await call('jt_getBalance', [account, String(ledgerIndex)]);
        const theirs = await client.request({ command: 'account_info', account, ledger_index: ledgerIndex }).catch(() => undefined);
        const expected = theirs?.result.account_data.Balance;
        if ((ours.result?.balance ?? undefined) !== expected) wrongBalances++;
        balancesCompared++;
      }
    }

    printFigures('crash-node', {
      kills: `${KILLS} (${TARGETS.map((target) => `${target} ${killed[target]}`).join(', ')})`,
      ledgers: tip,
      payments_answered: answeredHashes.length,
      send_errors: sendErrors,
      validated_after_error: unansweredValidated,
      lost_submissions: lostSubmissions,
      gaps,
      broken_links: brokenLinks,
      wrong_hashes: wrongHashes,
      wrong_balances: `${wrongBalances}/${balancesCompared}`,
      failed_restarts: failedRestarts,
      recover_p50_ms: quantile(recoveriesMs, 0.5),
      recover_p99_ms: quantile(recoveriesMs, 0.99),
    });
    expect({ failedRestarts, lostSubmissions, gaps, brokenLinks, wrongHashes, wrongBalances }).toEqual({
      failedRestarts: 0,
      lostSubmissions: 0,
      gaps: 0,
      brokenLinks: 0,
      wrongHashes: 0,
      wrongBalances: 0,
    });
  }, 900_000);
});
