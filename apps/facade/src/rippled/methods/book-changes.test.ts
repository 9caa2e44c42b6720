import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { bookChanges as computeBookChanges, type JsonObject } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { bookChanges } from './book-changes';
import { request, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const crossingLedger = readFixture<FixtureLedger>('xrpl/corpus/ledgers/mainnet-11119608.json');
const quietLedger = readFixture<FixtureLedger>('xrpl/ledgers/mainnet/11119600.json');

describe('book_changes (node)', () => {
  const chain = new TestChain({ profile: xrpl, ledgers: [quietLedger, crossingLedger] });

  it("answers from the stored blobs what the recorded ledger's metadata says", async () => {
    const { ledger } = crossingLedger;
    const expected = computeBookChanges(
      { ledgerIndex: 11119608, ledgerHash: ledger.hash, closeTime: ledger.close_time, validated: true },
      (ledger.transactions as JsonObject[]).map((tx) => ({ hash: tx.hash as string, txJson: tx, metaJson: tx.metaData as JsonObject })),
    );
    const answer = await bookChanges(request({ ledger_index: 11119608 }), chain.context);
    expect(answer).toEqual(expected);
    expect((answer.changes as JsonObject[]).length).toBe(7);
  });

  it('reads the newest stored ledger by default, and refuses a ledger it does not hold', async () => {
    expect(await bookChanges(request({}), chain.context)).toMatchObject({ ledger_index: 11119608, validated: true });
    await expect(bookChanges(request({ ledger_index: 5 }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
  });
});
