/**
 * Transaction proofs served by a whole node (`ledger-node -dev`: its embedded devnet plays a real
 * network, publishing a signed validator list with manifests and signing validations), through the
 * three APIs: jt_getTransactionProof, GET /v1/transactions/{hash}/proof, and the rippled API's `tx`
 * with `"proof": true`. Each proof verifies offline with the devnet's publisher key, by verifyProof
 * and by `ledger-node verify-proof`; a ledger backfilled below the anchor is proven through the
 * headers up to the nearest ledger with evidence, or, farther down, through the headers up to the
 * next 256th ledger and the skip list of the newest ledger whose state tree sync holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { verifyProof, type TransactionProof } from '@ledger-node/proof';
import { cliEntry, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';
import { postRippled, type Json } from './support/rippled-node';
import { verifyProofCommand } from './support/verify-proof';

/**
 * Ledgers of one transaction each, shaped after mainnet's, the devnet builds before it listens: the
 * node anchors above them and backfills them. Over 512, so that the oldest are proven through the
 * skip list of every 256th ledger, the next through the last-256 list, the newest through headers.
 */
const PREBUILT_LEDGERS = 600;
const PREBUILT = `${PREBUILT_LEDGERS}x1:mainnet:1`;
/** Proofs asked for at once when every transaction of the history is proven. */
const PROOFS_AT_ONCE = 8;
const profile = getProfile('xrpl');

describe('transaction proofs served by a node following a devnet that plays a real network', () => {
  const { dir, remove } = tempDir('proofs-');
  let node: RunningProcess;
  let call: ReturnType<typeof rpcClient>;
  let restUrl: string;
  let rippledUrl: string;
  let publisher: string;
  let anchor: number;

  beforeAll(async () => {
    const [rpcPort, apiPort, wsPort] = [await freePort(), await freePort(), await freePort()];
    node = startProcess(
      [
        cliEntry(), '-dev', '-close_ms', '250', '-idle_close_ms', '250', '-load', '20', '-load_accounts', '4',
        '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort), '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort),
        '-data_dir', dir, '-thread_count', '2',
      ],
      { env: { LEDGER_NODE_DEVNET_HISTORY: PREBUILT } },
    );
    // The devnet builds its history first: seconds on an idle machine, minutes beside the other tests.
    publisher = (await node.waitFor(/validator list publisher (ED[0-9A-F]{64}) at /, 180_000, { quietMs: 60_000 }))[1]!;
    anchor = Number((await node.waitFor(/anchored at validated ledger (\d+)/, 60_000))[1]);
    await node.waitFor(/facade\s+ready/, 60_000);
    call = rpcClient(rpcPort);
    restUrl = `http://127.0.0.1:${apiPort}/v1`;
    rippledUrl = `http://127.0.0.1:${wsPort}/`;
    await waitUntil(
      async () => ((await call('jt_blockNumber')).result as number) >= anchor + 4 && (await call('jt_getBlockByNumber', ['2', false])).result !== null,
      60_000,
      'four ledgers followed above the anchor, and the backfill down to ledger 2',
      100,
    );
  }, 300_000);

  afterAll(async () => {
    await stopAll();
    remove();
  });

  const transactionsOf = async (ledgerIndex: number) => ((await call('jt_getBlockByNumber', [String(ledgerIndex), false])).result.ledger.transactions as string[]);
  const restProof = async (hash: string) => {
    const response = await fetch(`${restUrl}/transactions/${hash}/proof`);
    return { status: response.status, body: (await response.json()) as Json };
  };
  const verified = (proof: unknown) => verifyProof(proof, { publisherKeys: [publisher], profile });
  const runVerifyProof = (proof: unknown, name: string) => verifyProofCommand(proof, publisher, dir, name);

  it('proves every transaction of a ledger followed live, the same XPOP through the three APIs, verified with the publisher key by verifyProof and verify-proof', async () => {
    const tip = (await call('jt_blockNumber')).result as number;
    let ledgerIndex = anchor + 1;
    while ((await transactionsOf(ledgerIndex)).length === 0) {
      ledgerIndex++;
      expect(ledgerIndex, 'a ledger with transactions above the anchor').toBeLessThanOrEqual(tip);
    }
    const hashes = await transactionsOf(ledgerIndex);
    for (const hash of hashes) {
      const proof = (await call('jt_getTransactionProof', [hash])).result as TransactionProof;
      expect(proof.ledger.index).toBe(ledgerIndex);
      expect(proof.ledger_proof).toBeUndefined();
      const verdict = verified(proof);
      expect(verdict.steps.filter((step) => !step.ok)).toEqual([]);
      expect(verdict.ok).toBe(true);
      expect(await restProof(hash)).toEqual({ status: 200, body: proof });
      const answer = await postRippled(rippledUrl, 'tx', { transaction: hash, proof: true });
      expect(answer.body!.result).toMatchObject({ status: 'success', hash, ledger_index: ledgerIndex, validated: true, proof });
    }
    const command = await runVerifyProof((await call('jt_getTransactionProof', [hashes[0]])).result, 'live');
    expect(command.stdout).toContain('transaction');
    expect(command.status).toBe(0);
  });

  it('proves a transaction of a backfilled ledger through the header chain up to the nearest ledger with evidence', async () => {
    let ledgerIndex = anchor - 1;
    while ((await transactionsOf(ledgerIndex)).length === 0) {
      ledgerIndex--;
      expect(ledgerIndex, 'a backfilled ledger with a transaction').toBeGreaterThan(1);
    }
    const [hash] = await transactionsOf(ledgerIndex);
    const proof = (await call('jt_getTransactionProof', [hash])).result as TransactionProof;
    expect(proof.ledger.index).toBe(ledgerIndex);
    expect(proof.ledger_proof?.kind).toBe('header_chain');
    const headers = (proof.ledger_proof as { headers: { index: number }[] }).headers;
    expect(headers.map((header) => header.index)).toEqual(Array.from({ length: anchor - ledgerIndex }, (_, offset) => ledgerIndex + offset + 1));
    expect(verified(proof).ok).toBe(true);
    expect((await runVerifyProof(proof, 'backfilled')).status).toBe(0);
    expect((await restProof(hash!)).body).toEqual(proof);
    // The validations are the anchor's: without the chain the proof does not hold.
    expect(verified({ ...proof, ledger_proof: undefined }).ok).toBe(false);
  });

  it("proves every transaction of the devnet's mainnet-shaped history, the oldest through the skip lists of a recent ledger, each verified offline", async () => {
    const transactions: { ledgerIndex: number; hash: string }[] = [];
    for (let ledgerIndex = 2; ledgerIndex < anchor; ledgerIndex++) for (const hash of await transactionsOf(ledgerIndex)) transactions.push({ ledgerIndex, hash });
    expect(transactions.length).toBeGreaterThanOrEqual(PREBUILT_LEDGERS);
    const byKind = new Map<string, TransactionProof>();
    const skipLists = new Set<string>();
    for (let from = 0; from < transactions.length; from += PROOFS_AT_ONCE) {
      await Promise.all(
        transactions.slice(from, from + PROOFS_AT_ONCE).map(async ({ ledgerIndex, hash }) => {
          const { result, error } = await call('jt_getTransactionProof', [hash]);
          expect(error, `transaction ${hash} of ledger ${ledgerIndex}: ${JSON.stringify(error)}`).toBeUndefined();
          const proof = result as TransactionProof;
          expect(proof.ledger.index).toBe(ledgerIndex);
          expect(verified(proof).steps.filter((step) => !step.ok), `transaction ${hash} of ledger ${ledgerIndex}`).toEqual([]);
          const link = proof.ledger_proof;
          byKind.set(link?.kind ?? 'own', proof);
          if (link?.kind === 'skip_list') skipLists.add(link.state.key);
        }),
      );
    }
    // Headers to the nearest evidence, and skip lists: the oldest ledgers' 256th ledger is more than
    // 256 below any tip, so the list of every 256th ledger (the last-256 list serves those whose
    // 256th ledger is near the tip, as the tip allows).
    expect([...byKind.keys()].sort()).toEqual(['header_chain', 'skip_list']);
    expect(skipLists).toContain(keylet.ledgerHashesOf(256));
    expect((await runVerifyProof(byKind.get('skip_list'), 'skip-list')).status).toBe(0);
  }, 240_000);

  it('answers null, 404 and txnNotFound for a transaction not stored, and a clear error for a malformed hash', async () => {
    const unknown = 'AB'.repeat(32);
    expect(await call('jt_getTransactionProof', [unknown])).toMatchObject({ result: null });
    expect(await restProof(unknown)).toEqual({ status: 404, body: { error: { code: 'not_found', message: `transaction ${unknown} is not stored` } } });
    expect((await postRippled(rippledUrl, 'tx', { transaction: unknown, proof: true })).body!.result).toMatchObject({ error: 'txnNotFound' });

    expect((await call('jt_getTransactionProof', ['0x1234'])).error).toEqual({
      code: -32602,
      message: 'invalid parameter 1 (transactionHash): expected a 32-byte hash as 64 hex digits',
      data: expect.anything(),
    });
    expect((await restProof('1234')).status).toBe(400);
    expect((await postRippled(rippledUrl, 'tx', { transaction: '1234', proof: true })).body!.result).toMatchObject({ error: 'invalidParams' });
    expect((await postRippled(rippledUrl, 'tx', { transaction: unknown, proof: 1 })).body!.result).toMatchObject({ error: 'invalidParams', error_message: "Invalid field 'proof', not boolean." });
  });
});
