import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, startProcess, stopAll, STORE_KINDS, storeServer, tempDir, type RunningProcess } from '@ledger-node/test-utils';
import { connectUpstream, rpcClient, waitUntil } from '@ledger-node/test-utils';
import { getProfile } from '@ledger-node/chain';
import { notationOf, rippledNotation } from '@ledger-node/rippled-api';

const notation = notationOf(getProfile('xrpl'));

/** A node on an embedded devnet under load, on each ledger-store backend: what it serves must equal what the devnet serves. */
describe.each(STORE_KINDS)('on %s', (kind) => {
  const stores = storeServer(kind);
  let node: RunningProcess;
  let call: ReturnType<typeof rpcClient>;
  let upstream: Awaited<ReturnType<typeof connectUpstream>>;
  let removeDir: () => void;

  beforeAll(async () => {
    const { dir, remove } = tempDir();
    removeDir = remove;
    const rpcPort = await freePort();
    const store = await stores.fresh();
    node = startProcess(
      [
        cliEntry(), '-dev', '-close_ms', '250', '-load', '20', '-load_accounts', '4',
        '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-data_dir', dir, '-thread_count', '4', ...store.flags,
      ],
      { env: store.env },
    );
    const devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/))[1]!;
    await node.waitFor(/facade\s+ready/);
    // The ledger-store says which database it opened.
    await node.waitFor(kind === 'postgres' ? /"database":"the PostgreSQL database at / : /"database":"the database at /);
    call = rpcClient(rpcPort);
    upstream = await connectUpstream(devnetUrl);
    // Enough ledgers with load transactions in them.
    // Sync anchors at the devnet's validated tip and backfills down to its genesis.
    await waitUntil(
      async () => ((await call('jt_blockNumber')).result as number) >= 12 && (await call('jt_getBlockByNumber', ['1', false])).result !== null,
      90_000,
      'twelve ledgers stored, down to the genesis',
    );
  }, 120_000);

  afterAll(async () => {
    upstream?.close();
    await stopAll();
    removeDir?.();
    await stores.stop();
  });

  describe('a node synced from a devnet under load', () => {
    it('stores every ledger from the genesis with the header the devnet serves, and answers jt_* like the devnet', async () => {
      const tip = (await call('jt_blockNumber')).result as number;
      let transactions = 0;
      for (let index = 1; index <= tip; index++) {
        const ours = (await call('jt_getBlockByNumber', [String(index), true])).result;
        const theirs = (await upstream.request('ledger', { ledger_index: index, transactions: true, expand: true })).result;
        expect(ours, `ledger ${index}`).not.toBeNull();
        for (const field of ['account_hash', 'close_time', 'close_time_resolution', 'ledger_hash', 'parent_hash', 'total_coins', 'transaction_hash']) {
          expect(ours.ledger[field], `ledger ${index} ${field}`).toEqual(theirs.ledger[field]);
        }
        expect(ours.ledger_index).toBe(index);
        const served = new Map<string, Record<string, any>>(theirs.ledger.transactions.map((tx: Record<string, any>) => [tx.hash, tx]));
        expect(ours.ledger.transactions.length).toBe(served.size);
        for (const tx of ours.ledger.transactions) {
          const { metaData, hash, ...fields } = tx;
          const reference = served.get(hash)!;
          expect(reference, `tx ${hash}`).toBeDefined();
          const { metaData: referenceMeta, hash: _h, ...referenceFields } = reference;
          // SPEC §2.5: Flags is an integer, 0 where the transaction does not serialize it. The jt_* shape
          // keeps the codec's notation; the devnet answers in rippled's (UInt64 as short hex…).
          expect(rippledNotation(fields, notation)).toEqual({ Flags: 0, ...referenceFields });
          // delivered_amount is a JSON-only field rippled adds; everything recorded in the ledger matches.
          const { delivered_amount: _d, ...recordedMeta } = referenceMeta;
          expect(rippledNotation(metaData, notation)).toEqual(recordedMeta);
          const byHash = (await call('jt_getTransactionByHash', [hash])).result;
          const txAnswer = (await upstream.request('tx', { transaction: hash })).result;
          for (const field of ['Account', 'Destination', 'Amount', 'Fee', 'Flags', 'Sequence', 'SigningPubKey', 'TransactionType', 'TxnSignature', 'date', 'hash', 'inLedger', 'ledger_index', 'validated']) {
            expect(byHash[field], `${hash} ${field}`).toEqual(field === 'Flags' ? (txAnswer.Flags ?? 0) : txAnswer[field]);
          }
          const receipt = (await call('jt_getTransactionReceipt', [hash])).result;
          expect(receipt.TransactionResult).toBe(txAnswer.meta.TransactionResult);
          expect(rippledNotation({ AffectedNodes: receipt.AffectedNodes, delivered_amount: receipt.delivered_amount }, notation)).toEqual({
            AffectedNodes: txAnswer.meta.AffectedNodes,
            delivered_amount: txAnswer.meta.delivered_amount,
          });
          transactions++;
        }
      }
      expect(transactions).toBeGreaterThan(10);
    }, 120_000);

    it('jt_syncing is false while level with the devnet', async () => {
      await waitUntil(async () => (await call('jt_syncing')).result === false, 30_000, 'jt_syncing false');
    });
  });
});
