import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { bookChanges, type BookChangesTransaction } from './book-changes';
import type { JsonObject } from './protocol';

/** A recorded mainnet ledger (rippled `ledger` with expanded transactions) as book_changes reads it. */
function recordedLedger(ledgerIndex: number): JsonObject {
  const { ledger } = readFixture<{ ledger: JsonObject & { transactions: JsonObject[] } }>(`xrpl/corpus/ledgers/mainnet-${ledgerIndex}.json`);
  const transactions = ledger.transactions.map((tx): BookChangesTransaction => ({ hash: tx.hash as string, txJson: tx, metaJson: tx.metaData as JsonObject }));
  return bookChanges({ ledgerIndex, ledgerHash: ledger.hash as string, closeTime: ledger.close_time as number, validated: true }, transactions);
}

function bookOf(answer: JsonObject, a: string, b: string): JsonObject | undefined {
  return (answer.changes as JsonObject[]).find((change) => change.currency_a === a && change.currency_b === b);
}

const CNY_KI = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y/CNY';
const CNY_AZ = 'razqQKzJRdB4UxFPWf5NEpEG3WMkmwgcXA/CNY';
const CNY_NU = 'rnuF96W4SZoCJmbHYBFoJZpR8eCaxNvekK/CNY';
const EUR_WJ = 'rMwjYedjc7qqtKYVLiAccJSmCwih4LnE2q/EUR';
const JPY_AZ = 'rMAz5ZnK73nyNUL4foAvaxdreczCkG3vA6/JPY';

/** |value − expected| within 16 significant digits of expected (rippled's amounts hold 16). */
function expectClose(text: unknown, numerator: number, denominator = 1): void {
  const expected = numerator / denominator;
  expect(Math.abs(Number(text) - expected) / expected).toBeLessThan(2e-15);
}

describe('book_changes', () => {
  it("answers rippled's envelope for the ledger", () => {
    const answer = recordedLedger(11119608);
    expect(answer).toMatchObject({
      type: 'bookChanges',
      validated: true,
      ledger_index: 11119608,
      ledger_hash: '2852DF1C68865CCE4E48DEA8E808BDADC608A67A2823895D18A37982260D838B',
      ledger_time: 474575270,
    });
    // rippled's std::map: books in byte order of their `A|B` key; the native side always A.
    const keys = (answer.changes as JsonObject[]).map((change) => `${change.currency_a === 'XRP_drops' ? 'XRP' : change.currency_a}|${change.currency_b}`);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toHaveLength(7);
  });

  it('tallies a single trade of an issued pair (hand computed from the metadata of ledger 11119608)', () => {
    // One offer, TakerPays 46.1883792 CNY(rKiCet) and TakerGets 6.275595 EUR, consumed in full: rate 46.1883792 / 6.275595 = 7.36.
    expect(bookOf(recordedLedger(11119608), CNY_KI, EUR_WJ)).toEqual({
      currency_a: CNY_KI,
      currency_b: EUR_WJ,
      volume_a: '46.1883792',
      volume_b: '6.275595',
      high: '7.36',
      low: '7.36',
      open: '7.36',
      close: '7.36',
    });
    // Two gateways' CNY traded one for one: side A is the issue that sorts first.
    expect(bookOf(recordedLedger(11119608), CNY_KI, CNY_AZ)).toMatchObject({ volume_a: '46.1883792', volume_b: '46.1883792', open: '1', close: '1' });
  });

  it('puts the native side first and counts it in drops (hand computed from ledger 11119608)', () => {
    // One offer gave 507564607 drops for 46.1883792 CNY(razqQ): rate 507564607 / 46.1883792 drops per unit.
    const book = bookOf(recordedLedger(11119608), 'XRP_drops', CNY_AZ)!;
    expect([book.volume_a, book.volume_b]).toEqual(['507564607', '46.1883792']);
    for (const rate of [book.high, book.low, book.open, book.close]) expectClose(rate, 507564607, 46.1883792);
  });

  it('tracks open, close, high and low over trades in transaction-tree order (hand computed from ledger 11119607)', () => {
    // Three trades in the XRP/CNY(rnuF) book, by transaction hash: rates 13012361.74…, 14112931.68…, 10989010.99….
    const book = bookOf(recordedLedger(11119607), 'XRP_drops', CNY_NU)!;
    expect([book.volume_a, book.volume_b]).toEqual(['430106944', '39.139731869707']);
    expectClose(book.open, 13012361.74365647);
    expectClose(book.high, 14112931.67929774);
    expectClose(book.low, 1_000_000_000_000, 91_000);
    expect(book.close).toBe(book.low);
    // And an issued pair: CNY(rKiCet) for JPY, two trades.
    const pair = bookOf(recordedLedger(11119607), CNY_KI, JPY_AZ)!;
    expect([pair.volume_a, pair.volume_b]).toEqual(['38.98563837737016', '770.467161608106']);
    expectClose(pair.close, 506, 10_000);
  });

  const offerNode = (kind: 'ModifiedNode' | 'DeletedNode', sequence: number, previous: [string, string], final: [string, string]): JsonObject => ({
    [kind]: {
      LedgerEntryType: 'Offer',
      LedgerIndex: 'AB'.repeat(32),
      FinalFields: { Sequence: sequence, TakerGets: final[0], TakerPays: { currency: 'USD', issuer: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', value: final[1] } },
      PreviousFields: { TakerGets: previous[0], TakerPays: { currency: 'USD', issuer: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', value: previous[1] } },
    },
  });
  const ledger = { ledgerIndex: 5, ledgerHash: 'CD'.repeat(32), closeTime: 1000, validated: true };

  it('skips the offer an OfferCancel or OfferCreate names in OfferSequence, and created offers', () => {
    const cancel: BookChangesTransaction = {
      hash: '01'.repeat(32),
      txJson: { TransactionType: 'OfferCancel', OfferSequence: 7 },
      metaJson: { AffectedNodes: [offerNode('DeletedNode', 7, ['100', '1'], ['50', '0.5']), { CreatedNode: { LedgerEntryType: 'Offer', NewFields: {} } }] },
    };
    expect(bookChanges(ledger, [cancel]).changes).toEqual([]);
    const other = { ...cancel, txJson: { TransactionType: 'OfferCancel', OfferSequence: 8 } };
    expect(bookChanges(ledger, [other]).changes).toEqual([
      { currency_a: 'XRP_drops', currency_b: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y/USD', volume_a: '50', volume_b: '0.5', high: '100', low: '100', open: '100', close: '100' },
    ]);
  });

  it('orders trades by transaction hash, not by their index in the ledger', () => {
    const trade = (hash: string, index: number, drops: string): BookChangesTransaction => ({
      hash,
      txJson: { TransactionType: 'Payment' },
      metaJson: { TransactionIndex: index, AffectedNodes: [offerNode('ModifiedNode', 3, [drops, '2'], ['0', '1'])] },
    });
    const answer = bookChanges(ledger, [trade('FF'.repeat(32), 0, '300'), trade('00'.repeat(32), 1, '100')]);
    expect(answer.changes).toEqual([
      { currency_a: 'XRP_drops', currency_b: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y/USD', volume_a: '400', volume_b: '2', high: '300', low: '100', open: '100', close: '300' },
    ]);
  });
});
