import { describe, expect, it } from 'vitest';
import { getProfile, ledgerHeaderFromJson } from '@ledger-node/chain';
import { closeTimeIso, notationOf, rippledNotation } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { ledger, ledgerClosed, ledgerCurrent } from './ledger';
import { HISTORY_LEDGERS, request, TestChain, type FixtureLedger } from './test-context';

const fixtures = HISTORY_LEDGERS.map((file) => readFixture<FixtureLedger>(file));
const chain = new TestChain({ profile: getProfile('xrpl'), ledgers: fixtures });
const first = fixtures[0].ledger;
const newest = fixtures.at(-1)!.ledger;

describe('ledger', () => {
  it('answers the newest stored ledger by default, validated, with its header as rippled prints it', async () => {
    const answer = await ledger(request({}), chain.context);
    expect(answer).toMatchObject({ ledger_hash: newest.hash, ledger_index: 11119604, validated: true });
    const header = answer.ledger as Record<string, unknown>;
    expect(header).toMatchObject({
      account_hash: newest.account_hash,
      close_time: newest.close_time,
      ledger_hash: newest.hash,
      ledger_index: '11119604',
      parent_hash: newest.parent_hash,
      total_coins: newest.total_coins,
      transaction_hash: newest.transaction_hash,
      closed: true,
    });
    expect(header.transactions).toBeUndefined();
  });

  it('names the ledger by index, numeric string or hash; v2 prints ledger_index as a number and close_time_iso', async () => {
    const byIndex = await ledger(request({ ledger_index: 11119599 }, 2), chain.context);
    const byText = await ledger(request({ ledger_index: '11119599' }, 2), chain.context);
    const byHash = await ledger(request({ ledger_hash: first.hash.toLowerCase() }, 2), chain.context);
    expect(byText).toEqual(byIndex);
    expect(byHash).toEqual(byIndex);
    expect(byIndex.ledger).toMatchObject({ ledger_index: 11119599, close_time_iso: closeTimeIso(first.close_time) });
  });

  it('lists transaction hashes, or the transactions themselves as recorded (API v1 expanded), in transaction-tree order', async () => {
    const hashes = await ledger(request({ ledger_index: 11119599, transactions: true }), chain.context);
    const treeOrder = first.transactions.map((tx: any) => tx.hash as string).sort();
    expect((hashes.ledger as { transactions: string[] }).transactions).toEqual(treeOrder);
    const expanded = await ledger(request({ ledger_index: 11119599, transactions: true, expand: true }), chain.context);
    const listed = (expanded.ledger as { transactions: Array<Record<string, any>> }).transactions;
    expect(listed.map((tx) => tx.hash)).toEqual(treeOrder);
    // As today's rippled prints the recording: its UInt64 fields in short lower-case hex.
    const byHash = new Map(first.transactions.map((tx: any) => [tx.hash, rippledNotation(tx, notationOf(getProfile('xrpl')))]));
    for (const tx of (expanded.ledger as { transactions: Array<Record<string, any>> }).transactions) {
      const recorded = byHash.get(tx.hash) as Record<string, any>;
      const { DeliverMax: deliverMax, ...withoutAlias } = tx;
      // rippled 2.x prints a v1 Payment's Amount also as DeliverMax; the recording predates it.
      if (tx.TransactionType === 'Payment') expect(deliverMax).toEqual(tx.Amount);
      const { delivered_amount: delivered, ...meta } = withoutAlias.metaData;
      const { delivered_amount: recordedDelivered, ...recordedMeta } = recorded.metaData;
      expect({ ...withoutAlias, metaData: meta }).toEqual({ ...recorded, metaData: recordedMeta });
      if (recordedDelivered !== undefined) expect(delivered).toEqual(recordedDelivered);
    }
  });

  it('gives the header and transactions in binary form', async () => {
    const answer = await ledger(request({ ledger_index: 11119599, transactions: true, expand: true, binary: true }, 2), chain.context);
    const header = answer.ledger as { ledger_data: string; closed: boolean; transactions: Array<Record<string, string>> };
    expect(header.closed).toBe(true);
    expect(header.ledger_data).toHaveLength(118 * 2);
    expect(header.transactions[0]).toEqual({ tx_blob: expect.stringMatching(/^[0-9A-F]+$/), hash: expect.stringMatching(/^[0-9A-F]{64}$/), meta_blob: expect.stringMatching(/^[0-9A-F]+$/) });
    expect(ledgerHeaderFromJson(first).ledgerIndex).toBe(11119599);
  });

  it('answers lgrNotFound for a ledger not stored and refuses the state dumps and the queue', async () => {
    await expect(ledger(request({ ledger_index: 5 }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound', code: 21 });
    await expect(ledger(request({ ledger_hash: 'AB'.repeat(32) }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
    await expect(ledger(request({ ledger_index: 'latest' }), chain.context)).rejects.toMatchObject({ token: 'invalidParams', message: 'ledgerIndexMalformed' });
    for (const option of ['full', 'accounts', 'queue', 'owner_funds']) {
      await expect(ledger(request({ [option]: true }), chain.context)).rejects.toMatchObject({ token: 'notSupported' });
    }
  });

  it('answers current and closed with the newest validated ledger', async () => {
    const current = await ledger(request({ ledger_index: 'current' }), chain.context);
    expect(current).toMatchObject({ ledger_index: 11119604, validated: true });
  });
});

describe('ledger_closed and ledger_current', () => {
  it('ledger_closed names the newest stored ledger; ledger_current the one after it', async () => {
    expect(await ledgerClosed(request({}), chain.context)).toEqual({ ledger_hash: newest.hash, ledger_index: 11119604 });
    expect(await ledgerCurrent(request({}), chain.context)).toEqual({ ledger_current_index: 11119605 });
  });

  it('answers noCurrent and lgrNotFound while nothing is stored', async () => {
    const empty = new TestChain({ profile: getProfile('xrpl'), ledgers: [] });
    await expect(ledgerCurrent(request({}), empty.context)).rejects.toMatchObject({ token: 'noCurrent' });
    await expect(ledgerClosed(request({}), empty.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
  });
});
