/**
 * The mainnet-shaped history (LEDGER_NODE_DEVNET_HISTORY=LEDGERSxTXS:mainnet[:SEED]) built in
 * process on the devnet's engine: it holds the mix it claims, in the shares it states, and the same
 * seed builds the same transactions.
 */
import { getProfile } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { beforeAll, describe, expect, it } from 'vitest';
import { historyPlan } from '../config';
import { createDevnetChain } from '../engine';
import type { ClosedLedger, ClosedTransaction, JsonObject } from '../engine/types';
import { LiveLedgerSource } from '../ws/live-source';
import { historyShape, type HistoryShape } from './history-shape';
import { MainnetHistory } from './mainnet-history';
import { ledgerSizes } from './mainnet-shape';
import { Draws, seededRandom } from './seeded-random';

const LEDGERS = 30;
const MEAN = 40;
/** Genesis, then the set-up ledgers: funding; DefaultRipple, bridges and trust lines; opening balances. */
const FIRST_HISTORY_LEDGER = 5;

const logger = createLogger('devnet-test', 'silent');

/** Builds a mainnet-shaped history on a fresh chain; answers its ledgers after the set-up. */
async function build(ledgers: number, mean: number, seed: number): Promise<ClosedLedger[]> {
  const source = new LiveLedgerSource(createDevnetChain(getProfile('xrpl')), { closeMs: 60_000, logger });
  try {
    await new MainnetHistory(source, { ledgers, meanTransactionsPerLedger: mean, accountCount: 20, seed, logger }).build();
    return Array.from({ length: ledgers }, (_, offset) => source.ledger(FIRST_HISTORY_LEDGER + offset)!);
  } finally {
    source.stop();
  }
}

const transactionsOf = (ledgers: readonly ClosedLedger[]) => ledgers.flatMap((ledger) => ledger.transactions);
const resultOf = (tx: ClosedTransaction) => String(tx.metaJson.TransactionResult);
const succeeded = (tx: ClosedTransaction) => resultOf(tx) === 'tesSUCCESS';

/** The ledger entries a transaction's metadata lists, as `<node kind> <entry type>` (e.g. `CreatedNode RippleState`). */
function affected(tx: ClosedTransaction): string[] {
  return (tx.metaJson.AffectedNodes as JsonObject[]).map((node) => {
    const [kind, entry] = Object.entries(node)[0]! as [string, JsonObject];
    return `${kind} ${String(entry.LedgerEntryType)}`;
  });
}

const isIssued = (amount: unknown): amount is { currency: string; issuer: string } => typeof amount === 'object' && amount !== null;

function share(transactions: readonly ClosedTransaction[], matches: (tx: ClosedTransaction) => boolean): number {
  return transactions.filter(matches).length / transactions.length;
}

describe('mainnet-shaped history', () => {
  let ledgers: ClosedLedger[];
  let transactions: ClosedTransaction[];
  let shape: HistoryShape;

  beforeAll(async () => {
    ledgers = await build(LEDGERS, MEAN, 1);
    transactions = transactionsOf(ledgers);
    shape = historyShape(ledgers);
  });

  it('holds exactly LEDGERS × TXS transactions, every one applied (tes or tec) and signed', () => {
    expect(shape.transactions).toBe(LEDGERS * MEAN);
    for (const tx of transactions) {
      expect(resultOf(tx)).toMatch(/^te[sc]/);
      expect(typeof tx.txJson.TxnSignature).toBe('string');
    }
  });

  it('carries Payment, TrustSet and AccountSet in their stated shares', () => {
    const typeShare = (type: string) => (shape.types[type] ?? 0) / shape.transactions;
    expect(Object.keys(shape.types).sort()).toEqual(['AccountSet', 'Payment', 'TrustSet']);
    expect(typeShare('Payment')).toBeGreaterThanOrEqual(0.7);
    expect(typeShare('Payment')).toBeLessThanOrEqual(0.86);
    expect(typeShare('TrustSet')).toBeGreaterThanOrEqual(0.09);
    expect(typeShare('TrustSet')).toBeLessThanOrEqual(0.18);
    expect(typeShare('AccountSet')).toBeGreaterThanOrEqual(0.04);
    expect(typeShare('AccountSet')).toBeLessThanOrEqual(0.11);
  });

  it('pays natively, in issued currencies through a gateway, through two gateways, and to create accounts', () => {
    const payments = transactions.filter((tx) => tx.txJson.TransactionType === 'Payment' && succeeded(tx));
    const native = (tx: ClosedTransaction) => typeof tx.txJson.Amount === 'string';
    const throughOneGateway = (tx: ClosedTransaction) => affected(tx).filter((node) => node === 'ModifiedNode RippleState').length === 2;
    const bridged = (tx: ClosedTransaction) => {
      const { Amount: amount, SendMax: sendMax } = tx.txJson;
      return isIssued(amount) && isIssued(sendMax) && sendMax.issuer !== amount.issuer && affected(tx).filter((node) => node === 'ModifiedNode RippleState').length === 3;
    };
    const creating = (tx: ClosedTransaction) => affected(tx).includes('CreatedNode AccountRoot');

    expect(share(transactions, (tx) => payments.includes(tx) && native(tx) && !creating(tx))).toBeGreaterThanOrEqual(0.28);
    expect(share(transactions, (tx) => payments.includes(tx) && throughOneGateway(tx))).toBeGreaterThanOrEqual(0.15);
    expect(share(transactions, (tx) => payments.includes(tx) && bridged(tx))).toBeGreaterThanOrEqual(0.025);
    expect(share(transactions, (tx) => payments.includes(tx) && creating(tx))).toBeGreaterThanOrEqual(0.015);
  });

  it('issues several currencies from several gateways', () => {
    const issues = new Set(transactions.map((tx) => tx.txJson.Amount).filter(isIssued).map((amount) => `${amount.currency}/${amount.issuer}`));
    const gateways = new Set([...issues].map((issue) => issue.split('/')[1]));
    const currencies = new Set([...issues].map((issue) => issue.split('/')[0]));
    expect(gateways.size).toBeGreaterThanOrEqual(4);
    expect(currencies.size).toBeGreaterThanOrEqual(5);
  });

  it('creates, changes and removes trust lines', () => {
    const trustSets = transactions.filter((tx) => tx.txJson.TransactionType === 'TrustSet' && succeeded(tx));
    const count = (node: string) => trustSets.filter((tx) => affected(tx).includes(node)).length;
    expect(count('CreatedNode RippleState') / transactions.length).toBeGreaterThanOrEqual(0.03);
    expect(count('ModifiedNode RippleState') / transactions.length).toBeGreaterThanOrEqual(0.03);
    expect(count('DeletedNode RippleState')).toBeGreaterThanOrEqual(1);
  });

  it('changes Domain, EmailHash, MessageKey, flags and transfer rates with AccountSet', () => {
    const accountSets = transactions.filter((tx) => tx.txJson.TransactionType === 'AccountSet' && succeeded(tx));
    for (const field of ['Domain', 'EmailHash', 'MessageKey', 'SetFlag', 'ClearFlag', 'TransferRate']) {
      expect(accountSets.some((tx) => tx.txJson[field] !== undefined), field).toBe(true);
    }
  });

  it('fails 4 to 12 % of its transactions with tec codes of several kinds, as real ledgers do', () => {
    const tecs = Object.entries(shape.results).filter(([result]) => result.startsWith('tec'));
    const tecShare = tecs.reduce((sum, [, count]) => sum + count, 0) / shape.transactions;
    expect(tecShare).toBeGreaterThanOrEqual(0.04);
    expect(tecShare).toBeLessThanOrEqual(0.12);
    expect(tecs.map(([result]) => result)).toEqual(expect.arrayContaining(['tecUNFUNDED_PAYMENT', 'tecPATH_PARTIAL', 'tecPATH_DRY', 'tecNO_DST_INSUF_XRP']));
  });

  it('varies the ledger sizes around the mean: some nearly empty, some several times the mean', () => {
    const sizes = ledgers.map((ledger) => ledger.transactions.length);
    const deviation = Math.sqrt(sizes.reduce((sum, size) => sum + (size - MEAN) ** 2, 0) / sizes.length);
    expect(shape.ledgerSizes.mean).toBe(MEAN);
    expect(deviation / MEAN).toBeGreaterThanOrEqual(0.5);
    expect(shape.ledgerSizes.max).toBeGreaterThanOrEqual(2 * MEAN);
    expect(shape.ledgerSizes.min).toBeLessThanOrEqual(10);
  });

  it('spreads the metadata sizes (largest at least 5 times the smallest) and carries Memos of varied sizes on about a third', () => {
    expect(shape.metaBytes.max / shape.metaBytes.min).toBeGreaterThanOrEqual(5);
    expect(shape.withMemos / shape.transactions).toBeGreaterThanOrEqual(0.2);
    expect(shape.withMemos / shape.transactions).toBeLessThanOrEqual(0.4);
    const memoBytes = transactions.filter((tx) => Array.isArray(tx.txJson.Memos)).map((tx) => String((tx.txJson.Memos as { Memo: JsonObject }[])[0]!.Memo.MemoData).length / 2);
    expect(Math.min(...memoBytes)).toBeLessThanOrEqual(10);
    expect(Math.max(...memoBytes)).toBeGreaterThanOrEqual(500);
  });
});

describe('mainnet-shaped history from a seed', () => {
  it('builds the same transactions, with the same results, for the same seed, and others for another', async () => {
    const outline = (ledgers: ClosedLedger[]) => ledgers.map((ledger) => ledger.transactions.map((tx) => `${tx.hash} ${resultOf(tx)}`));
    const first = outline(await build(6, 15, 7));
    expect(outline(await build(6, 15, 7))).toEqual(first);
    expect(outline(await build(6, 15, 8))).not.toEqual(first);
  });
});

describe('ledgerSizes', () => {
  it('sums to ledgers × mean exactly, and the same seed draws the same sizes', () => {
    const sizes = ledgerSizes(400, 50, new Draws(seededRandom(3)));
    expect(sizes).toHaveLength(400);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(20_000);
    expect(ledgerSizes(400, 50, new Draws(seededRandom(3)))).toEqual(sizes);
    expect(Math.min(...sizes)).toBeLessThanOrEqual(3);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(150);
  });
});

describe('historyPlan (LEDGER_NODE_DEVNET_HISTORY) for a mainnet-shaped history', () => {
  it('reads LEDGERSxTXS:mainnet with the default seed, and LEDGERSxTXS:mainnet:SEED', () => {
    expect(historyPlan('400x50:mainnet')).toEqual({ ledgers: 400, transactionsPerLedger: 50, mainnet: { seed: 1 } });
    expect(historyPlan('400x50:mainnet:42')).toEqual({ ledgers: 400, transactionsPerLedger: 50, mainnet: { seed: 42 } });
    expect(historyPlan('400x50')).toEqual({ ledgers: 400, transactionsPerLedger: 50 });
  });

  it('refuses another shape or a bad seed, naming the variable', () => {
    for (const value of ['400x50:', '400x50:uniform', '400x50:mainnet:', '400x50:mainnet:x', '400x50:mainnet:1:2']) {
      expect(() => historyPlan(value), value).toThrow(/LEDGER_NODE_DEVNET_HISTORY must be LEDGERSxTRANSACTIONS/);
    }
  });
});
