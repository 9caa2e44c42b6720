/**
 * Every real recording in fixtures/ replayed through the whole node: devnet -replay → sync →
 * ledger-store → facade. Each hash-chained run of recorded ledgers is synced by one node from its
 * newest ledger down to its oldest; recorded transactions that came without their ledger ride, one
 * per carrier ledger, above the recorded mainnet run. Every ledger must be stored with the hash the
 * upstream gave it and every transaction read back, through JSON-RPC and REST, equal field by field
 * to what rippled recorded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { cliEntry, connectUpstream, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil } from '@ledger-node/test-utils';
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

const xrpl = getProfile('xrpl');
const MAINNET_RUN_FIRST = 11119599;

interface Replay {
  name: string;
  /** Ledger files to serve, by file name. */
  files: Map<string, Json>;
  /** Recorded ledgers of the run, oldest first (carriers come above the last). */
  ledgers: { ledgerIndex: number; ledgerHash?: string; transactions: RecordedTransaction[] }[];
  carried: RecordedTransaction[];
}

function replayOf(name: string, run: RecordedLedgerFile[], documentOf = (ledger: RecordedLedgerFile) => ledger.document): Replay {
  return {
    name,
    files: new Map(run.map((ledger) => [`${ledger.ledgerIndex}.json`, documentOf(ledger)])),
    ledgers: run.map((ledger) => ({ ledgerIndex: ledger.ledgerIndex, ledgerHash: ledger.ledgerHash, transactions: transactionsOf(ledger) })),
    carried: [],
  };
}

const runs = chainedRuns(recordedLedgers(['xrpl/ledgers/mainnet', 'xrpl/corpus/ledgers']));
const carried = transactionFiles('xrpl/corpus/transactions');
const replays: Replay[] = runs.map((run) => {
  const replay = replayOf(`mainnet ${run[0]!.ledgerIndex}${run.length > 1 ? `..${run.at(-1)!.ledgerIndex}` : ''}`, run);
  if (run[0]!.ledgerIndex === MAINNET_RUN_FIRST) {
    for (const { file, tx } of carried) replay.files.set(`tx-${path.basename(file)}`, { result: { ...tx.fields, hash: tx.hash, meta: tx.meta } });
    replay.carried = carried.map(({ tx }) => tx);
  }
  return replay;
});
// The same recorded ledger in rippled's API v2 shape (tx_json + meta, DeliverMax) replays exactly like the v1 recording.
const v1Ledger = runs.flat().find((ledger) => ledger.ledgerIndex === 7501326)!;
replays.push(replayOf('mainnet 7501326 recorded in the API v2 shape', [v1Ledger], (ledger) => asApiV2(ledger.document)));

const everyTransaction = replays.flatMap((replay) => [...replay.ledgers.flatMap((ledger) => ledger.transactions), ...replay.carried]);

describe('the corpus', () => {
  it('holds every recorded ledger run and transaction, each transaction once', () => {
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const hashes = everyTransaction.map((tx) => tx.hash);
    // The v2 replay repeats ledger 7501326's transactions.
    expect(new Set(hashes).size).toBe(hashes.length - v1Ledger.document.ledger.transactions.length);
  });
});

for (const replay of replays) {
  describe(`a node synced from the replay of ${replay.name}`, () => {
    let call: ReturnType<typeof rpcClient>;
    let apiBase: string;
    let upstream: Awaited<ReturnType<typeof connectUpstream>>;
    let removeDir = () => {};
    const first = replay.ledgers[0]!.ledgerIndex;
    const last = replay.ledgers.at(-1)!.ledgerIndex + replay.carried.length;

    beforeAll(async () => {
      const { dir, remove } = tempDir();
      removeDir = remove;
      const replayDir = path.join(dir, 'replay');
      mkdirSync(replayDir);
      for (const [name, document] of replay.files) writeFileSync(path.join(replayDir, name), JSON.stringify(document));
      const [upstreamPort, rpcPort, apiPort] = [await freePort(), await freePort(), await freePort()];
      const devnet = startProcess([cliEntry(), 'devnet', '-port', String(upstreamPort), '-replay', replayDir, '-replay_rate', '100']);
      await devnet.waitFor(/devnet listening on/);
      upstream = await connectUpstream(`ws://127.0.0.1:${upstreamPort}`);
      const node = startProcess([
        cliEntry(),
        '-endpoint', `ws://127.0.0.1:${upstreamPort}`,
        '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
        '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
        '-data_dir', path.join(dir, 'node'),
        '-start_ledger', String(first),
        '-log_level', 'warn',
      ]);
      await node.waitFor(/facade\s+ready/, 60_000);
      call = rpcClient(rpcPort);
      apiBase = `http://127.0.0.1:${apiPort}/v1`;
      await waitUntil(
        async () => ((await (await fetch(`${apiBase}/status`)).json()) as Json).store.complete_ranges[0] === `${first}-${last}`,
        90_000,
        `ledgers ${first}-${last} stored`,
      );
    }, 150_000);

    afterAll(async () => {
      upstream?.close();
      await stopAll();
      removeDir();
    });

    it('stores every ledger with the hash the upstream gave it, the recorded one for recorded ledgers', async () => {
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

    it('serves every transaction as recorded: jt_getTransactionByHash, jt_getTransactionReceipt, the full block and REST', async () => {
      const transactions = [...replay.ledgers.flatMap((ledger) => ledger.transactions), ...replay.carried];
      for (const tx of transactions) {
        const fields = expectedFields(tx);
        const meta = expectedMeta(tx);
        const byHash = (await call('jt_getTransactionByHash', [tx.hash])).result;
        expect(byHash, tx.origin).not.toBeNull();
        expect(canonical(byHash, xrpl), `${tx.origin} ${tx.hash}`).toEqual(fields);
        expect(byHash).toMatchObject({ hash: tx.hash, validated: true });
        expect(Number.isInteger(byHash.Flags) && Number.isInteger(byHash.Sequence)).toBe(true);

        const receipt = (await call('jt_getTransactionReceipt', [tx.hash])).result;
        expect(canonical(receipt, xrpl), `${tx.origin} ${tx.hash} receipt`).toEqual(meta);
        expect(receipt.hash).toBe(tx.hash);
        const recordedDelivered = tx.meta.delivered_amount;
        if (receipt.delivered_amount !== undefined && recordedDelivered !== undefined && recordedDelivered !== 'unavailable') {
          expect(canonical(receipt.delivered_amount, xrpl, 'Amount')).toEqual(canonical(recordedDelivered, xrpl, 'Amount'));
        }

        const block = (await call('jt_getBlockByNumber', [String(byHash.ledger_index), true])).result;
        const inBlock = block.ledger.transactions.find((member: Json) => member.hash === tx.hash);
        expect(canonical(inBlock, xrpl)).toEqual(fields);
        expect(canonical(inBlock.metaData, xrpl)).toEqual(meta);

        const rest = (await (await fetch(`${apiBase}/transactions/${tx.hash}`)).json()) as Json;
        expect(canonical(rest.transaction.tx, xrpl)).toEqual(fields);
        expect(canonical(rest.transaction.meta, xrpl)).toEqual(meta);
      }
    });
  });
}
