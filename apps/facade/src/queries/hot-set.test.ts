/**
 * The hot set renders the newest ledgers' transaction answers as each is stored; Queries.kept
 * serves them without rendering and moves one asked for into the answer cache. Over a ledger-store
 * holding mainnet ledger 11119603 (49 transactions) and copies of it at the next indexes.
 */
import { describe, expect, it, vi } from 'vitest';
import { encodeLedgerHeader, getProfile } from '@ledger-node/chain';
import type { LedgerRecord, LedgerSelector, TransactionRecord } from '@ledger-node/contracts';
import { fixtureLedger } from '@ledger-node/proof/testing';
import { createLogger, metricsRegistry } from '@ledger-node/telemetry';
import type { Clients } from '../clients';
import { receiptObject, transactionObject } from '../format/records';
import { answerKey } from '../jsonrpc/methods/transactions';
import type { TipCache } from '../tip';
import { AnswerCache } from './answer-cache';
import { HOT_SET_METRICS, HotSet } from './hot-set';
import { Queries } from './queries';
import { RenderedJson } from './rendered-json';

const xrpl = getProfile('xrpl');
const logger = createLogger('hot-set-test', 'silent');
const fixture = fixtureLedger('xrpl/ledgers/mainnet/11119603.json');
const first = fixture.header.ledgerIndex;

/** Ledger `ledgerIndex`: 11119603's transactions, their hashes changed in the last byte for each later index. */
function ledgerAt(ledgerIndex: number): LedgerRecord {
  const transactions: TransactionRecord[] = fixture.transactions.map((entry, txIndex) => {
    const hash = Buffer.from(entry.hash, 'hex');
    hash[31] = (hash[31]! + ledgerIndex - first) & 0xff;
    return { hash, txBlob: Buffer.from(entry.txBlob, 'hex'), metaBlob: Buffer.from(entry.metaBlob, 'hex'), ledgerIndex, txIndex, ledgerHash: Buffer.alloc(32, ledgerIndex & 0xff), closeTimeRippleEpoch: fixture.header.closeTime };
  });
  return { ledgerIndex, ledgerHash: Buffer.alloc(32, ledgerIndex & 0xff), headerBlob: encodeLedgerHeader({ ...fixture.header, ledgerIndex }), transactionCount: transactions.length, transactionHashes: [], transactions };
}

function hotSetOver(hotBytes = 8 << 20, failing = new Set<number>()) {
  const ledgerStore = {
    getLedger: vi.fn(async ({ ledger }: { ledger: LedgerSelector }) => {
      const ledgerIndex = ledger.selector?.$case === 'index' ? ledger.selector.index : -1;
      if (failing.has(ledgerIndex)) throw new Error('the store is not answering');
      return { ledger: ledgerAt(ledgerIndex) };
    }),
    getTransactions: vi.fn(async () => ({ transactions: [] })),
  };
  const answers = new AnswerCache(64 << 20);
  const hot = new AnswerCache(hotBytes, HOT_SET_METRICS);
  const queries = new Queries({ ledgerStore } as unknown as Clients, {} as TipCache, answers, hot);
  return { hotSet: new HotSet(queries, hot, xrpl, logger), queries, answers, hot, ledgerStore };
}

const json = (value: unknown) => RenderedJson.of(value).json;
const txOf = (ledgerIndex: number, position = 0) => ledgerAt(ledgerIndex).transactions[position]!;

describe('the hot set', () => {
  it("renders a stored ledger's jt_getTransactionByHash and receipt answers, which kept serves as rendered without a read, moving one asked for into the answer cache", async () => {
    const { hotSet, queries, answers, ledgerStore } = hotSetOver();
    await hotSet.ledgerStored(first + 1);
    const render = vi.fn(async () => 'rendered on demand');
    for (const position of [0, 48]) {
      const record = txOf(first + 1, position);
      expect((await queries.kept(answerKey('tx', record.hash), render))!.json).toBe(json(transactionObject(record, xrpl)));
      expect((await queries.kept(answerKey('receipt', record.hash), render))!.json).toBe(json(receiptObject(record, xrpl)));
    }
    expect(render).not.toHaveBeenCalled();
    expect(ledgerStore.getTransactions).not.toHaveBeenCalled();
    expect(answers.usage.entries).toBe(4);
    const hits = (await metricsRegistry.getSingleMetricAsString(HOT_SET_METRICS.lookups)).match(/result="hit"} (\d+)/)?.[1];
    expect(Number(hits)).toBeGreaterThanOrEqual(4);
  });

  it('renders the newest ledger stored while it rendered another, skipping those in between', async () => {
    const { hotSet, queries, ledgerStore } = hotSetOver();
    const rendered = Promise.all([first + 1, first + 2, first + 3].map((ledgerIndex) => hotSet.ledgerStored(ledgerIndex)));
    await rendered;
    expect(ledgerStore.getLedger.mock.calls.map(([{ ledger }]) => (ledger.selector?.$case === 'index' ? ledger.selector.index : undefined))).toEqual([first + 1, first + 3]);
    const render = vi.fn(async () => 'rendered on demand');
    await queries.kept(answerKey('tx', txOf(first + 2).hash), render);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('goes on with the next ledger when a read fails, and keeps the newest within its bound', async () => {
    const { hotSet, hot } = hotSetOver(200_000, new Set([first + 1]));
    await hotSet.ledgerStored(first + 1);
    expect(hot.usage.entries).toBe(0);
    await hotSet.ledgerStored(first + 2);
    await hotSet.ledgerStored(first + 3);
    expect(hot.usage.bytes).toBeLessThanOrEqual(200_000);
    expect(hot.get(answerKey('tx', txOf(first + 3, 48).hash))).toBe(json(transactionObject(txOf(first + 3, 48), xrpl)));
    expect(hot.get(answerKey('tx', txOf(first + 2, 0).hash))).toBeUndefined();
  });
});
