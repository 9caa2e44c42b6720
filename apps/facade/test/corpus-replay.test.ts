/**
 * Every real recording in fixtures/ replayed through the whole node: devnet -replay → sync →
 * ledger-store → facade, on the XRP Ledger and on Jingtum. Each hash-chained run of recorded ledgers
 * is synced by one node from its newest ledger down to its oldest; recorded transactions that came
 * without their ledger ride, one per carrier ledger, above one recorded run of their chain. Every
 * ledger must be stored with the hash the upstream gave it and every transaction read back, through
 * JSON-RPC and REST, equal field by field to what the chain's server recorded.
 *
 * On the XRP Ledger the recordings are rippled's own answers (`ledger` with expanded transactions,
 * `tx` in API v1 and v2), so they are also the conformance oracle: the node's rippled-compatible API
 * must give the same answer to the same request (support/rippled-oracle.ts), and the file prints the
 * figure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile, type ChainProfile } from '@ledger-node/chain';
import { cliEntry, connectUpstream, devnetValidatorsFile, fixtureFiles, freePort, readFixture, rpcClient, startProcess, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';
import {
  asApiV2,
  canonical,
  chainedRuns,
  expectedFields,
  expectedMeta,
  recordedLedgers,
  transactionFiles,
  transactionsOf,
  type Json,
  type RecordedLedgerFile,
  type RecordedTransaction,
} from './support/corpus';
import { describeDifferences } from './support/rippled-compare';
import { postRippled } from './support/rippled-node';
import { judge, NOT_AS_GIVEN, RIPPLED_VERSION_DIFFERENCES, Tally, type Verdict } from './support/rippled-oracle';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

interface Replay {
  name: string;
  profile: ChainProfile;
  /** Ledger files to serve, by file name. */
  files: Map<string, Json>;
  /** Recorded ledgers of the run, oldest first (carriers come above the last). */
  ledgers: { file: string; ledgerIndex: number; ledgerHash?: string; transactions: RecordedTransaction[] }[];
  carried: RecordedTransaction[];
  /** Whether the files are rippled's own answers, the conformance oracle (the XRP Ledger's recordings as found). */
  oracle: boolean;
  /** The files the carried transactions were recorded in (paths relative to fixtures/). */
  carriedFiles: string[];
}

function replayOf(name: string, profile: ChainProfile, run: RecordedLedgerFile[], documentOf = (ledger: RecordedLedgerFile) => ledger.document): Replay {
  return {
    name,
    profile,
    files: new Map(run.map((ledger) => [`${ledger.ledgerIndex}.json`, documentOf(ledger)])),
    ledgers: run.map((ledger) => ({ file: ledger.file, ledgerIndex: ledger.ledgerIndex, ledgerHash: ledger.ledgerHash, transactions: transactionsOf(ledger, profile) })),
    carried: [],
    oracle: profile === xrpl,
    carriedFiles: [],
  };
}

/**
 * One replay per hash-chained run of a chain's recorded ledgers; the transactions recorded on their
 * own (unless a recorded ledger holds them already) ride in carrier ledgers above the run that
 * starts at `carrierRun`.
 */
function chainReplays(chain: string, profile: ChainProfile, ledgerFiles: string[], transactionFileNames: string[], carrierRun: number): Replay[] {
  const runs = chainedRuns(recordedLedgers(ledgerFiles));
  const inRecordedLedgers = new Set(runs.flat().flatMap((ledger) => transactionsOf(ledger, profile).map((tx) => tx.hash)));
  const carried = transactionFiles(transactionFileNames, profile).filter(({ tx }) => !inRecordedLedgers.has(tx.hash));
  return runs.map((run) => {
    const replay = replayOf(`${chain} ${run[0]!.ledgerIndex}${run.length > 1 ? `..${run.at(-1)!.ledgerIndex}` : ''}`, profile, run);
    if (run[0]!.ledgerIndex === carrierRun) {
      for (const { file, tx } of carried) replay.files.set(`tx-${path.basename(file)}`, { result: { ...tx.fields, hash: tx.hash, meta: tx.meta } });
      replay.carried = carried.map(({ tx }) => tx);
      replay.carriedFiles = carried.map(({ file }) => file);
    }
    return replay;
  });
}

const jingtumCorpus = fixtureFiles('jingtum/corpus');
const isLedgerFile = (file: string) => path.basename(file).startsWith('ledger-');
const replays: Replay[] = [
  ...chainReplays('mainnet', xrpl, ['xrpl/ledgers/mainnet', 'xrpl/corpus/ledgers'].flatMap(fixtureFiles), fixtureFiles('xrpl/corpus/transactions'), 11119599),
  ...chainReplays('SWTC', jingtum, jingtumCorpus.filter(isLedgerFile), jingtumCorpus.filter((file) => !isLedgerFile(file)), 1642398),
];
// The same recorded ledger in rippled's API v2 shape (tx_json + meta, DeliverMax) replays exactly like the v1 recording.
const v1Ledger = recordedLedgers(['xrpl/ledgers/mainnet/7501326.json'])[0]!;
replays.push({ ...replayOf('mainnet 7501326 recorded in the API v2 shape', xrpl, [v1Ledger], (ledger) => asApiV2(ledger.document)), oracle: false });

/** Transactions of one replay checked at once (each asks the node four questions). */
const TRANSACTIONS_AT_ONCE = 8;

/** Runs `check` on every item, at most `atOnce` at a time. */
async function inTurns<T>(items: readonly T[], atOnce: number, check: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await check(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}

/** rippled's answers recorded in the corpus against the node's, counted for the figure. */
const oracle = new Tally();

/**
 * The replays run side by side (each its own devnet and node, ports and folders), this many at a
 * time: each is mostly waiting for its processes, and more at once would only queue for the cores.
 */
const REPLAYS_AT_ONCE = 3;
let replaysRunning = 0;
const replayTurns: (() => void)[] = [];
async function replayTurn(): Promise<() => void> {
  if (replaysRunning >= REPLAYS_AT_ONCE) await new Promise<void>((resolve) => replayTurns.push(resolve));
  else replaysRunning++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = replayTurns.shift();
    if (next) next();
    else replaysRunning--;
  };
}

describe('the corpus', () => {
  it('holds every recorded ledger run and transaction of both chains, each transaction once', () => {
    expect(replays.filter((replay) => replay.profile === xrpl).length).toBeGreaterThanOrEqual(4);
    expect(replays.filter((replay) => replay.profile === jingtum).length).toBeGreaterThanOrEqual(2);
    const hashes = replays.flatMap((replay) => [...replay.ledgers.flatMap((ledger) => ledger.transactions), ...replay.carried]).map((tx) => tx.hash);
    // The v2 replay repeats ledger 7501326's transactions.
    expect(new Set(hashes).size).toBe(hashes.length - v1Ledger.document.ledger.transactions.length);
  });
});

describe.concurrent('the replays', () => {
  for (const replay of replays) {
    describe(`a node synced from the replay of ${replay.name}`, () => {
      let call: ReturnType<typeof rpcClient>;
      let apiBase: string;
      let rippledUrl: string;
      let upstream: Awaited<ReturnType<typeof connectUpstream>>;
      let removeDir = () => {};
      let releaseTurn = () => {};
      const started: RunningProcess[] = [];
      const first = replay.ledgers[0]!.ledgerIndex;
      const last = replay.ledgers.at(-1)!.ledgerIndex + replay.carried.length;

      beforeAll(async () => {
        releaseTurn = await replayTurn();
        const { dir, remove } = tempDir();
        removeDir = remove;
        const replayDir = path.join(dir, 'replay');
        mkdirSync(replayDir);
        for (const [name, document] of replay.files) writeFileSync(path.join(replayDir, name), JSON.stringify(document));
        const [upstreamPort, rpcPort, apiPort, wsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
        const chain = ['-chain', replay.profile.id];
        const devnet = startProcess([cliEntry(), 'devnet', ...chain, '-port', String(upstreamPort), '-replay', replayDir, '-replay_rate', '100']);
        started.push(devnet);
        await devnet.waitFor(/devnet listening on/);
        upstream = await connectUpstream(`ws://127.0.0.1:${upstreamPort}`);
        const node = startProcess([
          cliEntry(),
          ...chain,
          '-endpoint', `ws://127.0.0.1:${upstreamPort}`,
          '-validators', devnetValidatorsFile(dir, replay.profile.id),
          '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
          '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
          ...(replay.oracle ? ['-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort)] : []),
          '-data_dir', path.join(dir, 'node'),
          '-start_ledger', String(first),
          // Reads only: no keystore or submission to start.
          '-read_only',
          '-log_level', 'warn',
        ]);
        started.push(node);
        await node.waitFor(/facade\s+ready/, 60_000);
        call = rpcClient(rpcPort);
        apiBase = `http://127.0.0.1:${apiPort}/v1`;
        rippledUrl = `http://127.0.0.1:${wsPort}/`;
        await waitUntil(
          async () => ((await (await fetch(`${apiBase}/status`)).json()) as Json).store.complete_ranges[0] === `${first}-${last}`,
          90_000,
          `ledgers ${first}-${last} stored`,
        );
      }, 300_000);

      afterAll(async () => {
        upstream?.close();
        // Only this replay's processes: the others run on.
        await Promise.all(started.map((process) => process.stop('SIGKILL', 1000)));
        removeDir();
        releaseTurn();
      });

      it('stores every ledger with the hash the upstream gave it, the recorded one for recorded ledgers', { timeout: 60_000 }, async ({ expect }) => {
        for (let ledgerIndex = first; ledgerIndex <= last; ledgerIndex++) {
          const served = (await upstream.request('ledger', { ledger_index: ledgerIndex })).result;
          const recorded = replay.ledgers.find((ledger) => ledger.ledgerIndex === ledgerIndex);
          if (recorded) expect(served.ledger_hash).toBe(recorded.ledgerHash);
          const { result } = await call('jt_getBlockByNumber', [String(ledgerIndex), false]);
          expect(result.ledger_hash, `ledger ${ledgerIndex}`).toBe(served.ledger_hash);
        }
        expect(await call('jt_syncing')).toMatchObject({ result: false });
        const status = (await (await fetch(`${apiBase}/status`)).json()) as Json;
        expect(status.sync).toMatchObject({ verification_failures: 0, index_failures: 0, stopped: null });
      });

      // Soft expectations: one run reports every transaction that differs, not only the first.
      it('serves every transaction as recorded: jt_getTransactionByHash, jt_getTransactionReceipt, the full block and REST', { timeout: 120_000 }, async ({ expect }) => {
        const transactions = [...replay.ledgers.flatMap((ledger) => ledger.transactions), ...replay.carried];
        // Each full block is asked for once, by the first of its transactions to need it.
        const blocks = new Map<number, Promise<Json>>();
        const fullBlock = (ledgerIndex: number) => {
          if (!blocks.has(ledgerIndex)) blocks.set(ledgerIndex, call('jt_getBlockByNumber', [String(ledgerIndex), true]).then((answer) => answer.result));
          return blocks.get(ledgerIndex)!;
        };
        await inTurns(transactions, TRANSACTIONS_AT_ONCE, async (tx) => {
          const profile = replay.profile;
          const fields = expectedFields(tx, profile);
          const meta = expectedMeta(tx, profile);
          const byHash = (await call('jt_getTransactionByHash', [tx.hash])).result;
          expect(byHash, tx.origin).not.toBeNull();
          expect.soft(canonical(byHash, profile), `${tx.origin} ${tx.hash}`).toEqual(fields);
          expect.soft(byHash).toMatchObject({ hash: tx.hash, validated: true });
          expect.soft(Number.isInteger(byHash.Flags) && Number.isInteger(byHash.Sequence)).toBe(true);

          const receipt = (await call('jt_getTransactionReceipt', [tx.hash])).result;
          expect.soft(canonical(receipt, profile), `${tx.origin} ${tx.hash} receipt`).toEqual(meta);
          expect.soft(receipt.hash).toBe(tx.hash);
          const recordedDelivered = tx.meta.delivered_amount;
          if (receipt.delivered_amount !== undefined && recordedDelivered !== undefined && recordedDelivered !== 'unavailable') {
            expect.soft(canonical(receipt.delivered_amount, profile, 'Amount')).toEqual(canonical(recordedDelivered, profile, 'Amount'));
          }

          const block = await fullBlock(byHash.ledger_index);
          const inBlock = block.ledger.transactions.find((member: Json) => member.hash === tx.hash);
          expect.soft(canonical(inBlock, profile), `${tx.origin} in its block`).toEqual(fields);
          expect.soft(canonical(inBlock.metaData, profile), `${tx.origin} metadata in its block`).toEqual(meta);

          const rest = (await (await fetch(`${apiBase}/transactions/${tx.hash}`)).json()) as Json;
          expect.soft(canonical(rest.transaction.tx, profile), `${tx.origin} REST`).toEqual(fields);
          expect.soft(canonical(rest.transaction.meta, profile), `${tx.origin} REST metadata`).toEqual(meta);
        });
      });

      // Token X of the recordings: sold (a buy offer accepted, NFTokenAcceptOffer-21C60F25), then burned by its buyer (NFTokenBurn-0804FB2E).
      const X = '000800006203F49C21D5D6E022CB16DE3538F248662FC73C29ABA6A90000000D';
      const burnOfX = replay.carried.find((tx) => tx.fields.TransactionType === 'NFTokenBurn' && tx.fields.NFTokenID === X);

      // Only the replay that carries the burn of X declares the test: the others have nothing to skip.
      if (replay.oracle && burnOfX) it("answers Clio's nft_info and nft_history from the NFT index sync built", { timeout: 60_000 }, async ({ expect }) => {
        // The successful NFToken transactions whose recording names X, as the ledgers carried them: newest first.
        const namingX = [...replay.ledgers.flatMap((ledger) => ledger.transactions), ...replay.carried].filter(
          (tx) => String(tx.fields.TransactionType).startsWith('NFToken') && tx.meta.TransactionResult === 'tesSUCCESS' && JSON.stringify([tx.fields, tx.meta]).includes(X),
        );
        expect(namingX.length).toBeGreaterThanOrEqual(2);
        const history = (await postRippled(rippledUrl, 'nft_history', { nft_id: X })).body!.result;
        expect(history).toMatchObject({ status: 'success', nft_id: X, validated: true, ledger_index_min: first, ledger_index_max: last });
        const listed = (history.transactions as Json[]).map((entry) => entry.tx.hash);
        expect(listed).toEqual(namingX.map((tx) => tx.hash).reverse());
        const burnLedger = (history.transactions as Json[])[0]!.tx.ledger_index;

        const info = (await postRippled(rippledUrl, 'nft_info', { nft_id: X })).body!.result;
        expect(info).toMatchObject({ status: 'success', nft_id: X, ledger_index: burnLedger, owner: burnOfX!.fields.Account, is_burned: true, nft_serial: 13, validated: true });
        const before = (await postRippled(rippledUrl, 'nft_info', { nft_id: X, ledger_index: burnLedger - 1 })).body!.result;
        expect(before).toMatchObject({ status: 'success', is_burned: false, owner: burnOfX!.fields.Account });
        const unknown = (await postRippled(rippledUrl, 'nft_info', { nft_id: '00'.repeat(32) })).body!.result;
        expect(unknown).toMatchObject({ status: 'error', error: 'objectNotFound', error_message: 'NFT not found' });
      });

      /** The node's `result`, with `status` only where the recording kept it (most dropped the response wrapper). */
      async function rippledAnswer(method: string, request: Json, recorded: Json): Promise<Json> {
        const { body } = await postRippled(rippledUrl, method, request);
        const { status, ...result } = body!.result;
        return recorded.status === undefined ? result : { ...result, status };
      }

      it.runIf(replay.oracle)('answers every recorded rippled request as rippled recorded it', { timeout: 120_000 }, async ({ expect }) => {
        const unexplained: string[] = [];
        const count = (kind: string, verdict: Verdict) => {
          oracle.add(kind, verdict);
          if (verdict.unexplained.length > 0) unexplained.push(describeDifferences(verdict.unexplained, [], 10));
        };
        for (const { file, ledgerIndex } of replay.ledgers) {
          if (NOT_AS_GIVEN.has(file)) continue;
          // The full-state recordings were asked with `accounts`, which rippled and the node serve to admins only.
          const { accountState: _state, ...recordedLedger } = replay.files.get(`${ledgerIndex}.json`)!.ledger;
          const recorded = { ...replay.files.get(`${ledgerIndex}.json`)!, ledger: recordedLedger };
          const request = { command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true, api_version: 1 };
          const verdict = judge(recorded, await rippledAnswer('ledger', request, recorded), request);
          count('ledgers', verdict);
          recordedLedger.transactions.forEach((_tx: Json, position: number) => {
            const at = `$.ledger.transactions[${position}]`;
            const within = (difference: { path: string }) => difference.path === at || difference.path.startsWith(`${at}.`) || difference.path.startsWith(`${at}[`);
            oracle.add('transactions', { unexplained: verdict.unexplained.filter(within), explained: verdict.explained.filter(within) });
          });
        }
        for (const file of replay.carriedFiles) {
          if (NOT_AS_GIVEN.has(file)) continue;
          const document = readFixture<Json>(file);
          const recorded = document.result ?? document;
          // A recorded `tx` answer: the transaction (flat in API v1, tx_json in v2), its metadata and
          // `validated`; not a transaction stream message (`type`), not an account_tx entry.
          const txAnswer = (recorded.TransactionType !== undefined || recorded.tx_json !== undefined) && recorded.meta !== undefined;
          if (!txAnswer || recorded.validated === undefined || recorded.type !== undefined) continue;
          const hash = String(recorded.hash);
          const request = { command: 'tx', transaction: hash, api_version: recorded.tx_json === undefined ? 1 : 2 };
          // Served from a carrier ledger: its position there is not the recorded one.
          count('tx answers', judge(recorded, await rippledAnswer('tx', request, recorded), request, true));
        }
        expect(unexplained, unexplained.join('\n\n')).toEqual([]);
      });
    });
  }
});

describe("the conformance oracle: rippled's recorded answers", () => {
  it('are all answered identically, rippled version changes aside, and the figure is printed', () => {
    const figure = oracle.figure();
    console.log(`rippled conformance: ${figure}`);
    console.log(`recordings that are not rippled's answer as given:\n${[...NOT_AS_GIVEN].map(([file, why]) => `  - ${file}: ${why}`).join('\n')}`);
    console.log(`version changes forgiven only where the recording predates them:\n${RIPPLED_VERSION_DIFFERENCES.map((entry) => `  - ${entry.reason}`).join('\n')}`);
    for (const kind of ['ledgers', 'transactions', 'tx answers']) {
      const { identical, total } = oracle.get(kind);
      expect(total, kind).toBeGreaterThan(0);
      expect(identical, `${kind}: ${figure}`).toBe(total);
    }
  });
});
