import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { notationOf, rippledNotation } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { transactionEntry, tx } from './tx';
import { HISTORY_LEDGERS, request, TestChain, type FixtureLedger } from './test-context';

const fixtures = HISTORY_LEDGERS.map((file) => readFixture<FixtureLedger>(file));
const chain = new TestChain({ profile: getProfile('xrpl'), ledgers: fixtures });
const ledger = fixtures[1].ledger;
/**
 * The recorded transaction as today's rippled prints it: the 2015 recording's amounts are already
 * in STAmount::getText's notation; its UInt64 fields had 16 upper-case digits then.
 */
const recorded: Record<string, any> = rippledNotation(ledger.transactions[0], notationOf(getProfile('xrpl')));
const payment: Record<string, any> = fixtures.flatMap((fixture) => fixture.ledger.transactions).find((candidate: any) => candidate.TransactionType === 'Payment' && candidate.metaData.TransactionResult === 'tesSUCCESS');

describe('tx', () => {
  it('answers a stored transaction in API v1: its fields, hash, date, ledger and metadata', async () => {
    const { hash, metaData, ...fields } = recorded;
    expect(await tx(request({ transaction: hash.toLowerCase() }), chain.context)).toEqual({
      ...fields,
      hash,
      date: ledger.close_time,
      inLedger: 11119600,
      ledger_index: 11119600,
      meta: metaData,
      validated: true,
    });
  });

  it('answers in API v2 with tx_json, the ledger hash and close_time_iso; a Payment shows DeliverMax and delivered_amount', async () => {
    const answer = await tx(request({ transaction: payment.hash }, 2), chain.context);
    expect(answer).toMatchObject({ hash: payment.hash, validated: true, close_time_iso: expect.stringMatching(/Z$/) });
    const txJson = answer.tx_json as Record<string, unknown>;
    expect(txJson.DeliverMax).toEqual(payment.Amount);
    expect(txJson.Amount).toBeUndefined();
    expect((answer.meta as Record<string, unknown>).delivered_amount).toEqual(payment.metaData.DeliveredAmount ?? payment.Amount);
    expect(answer.ctid).toBeUndefined();
  });

  it('answers the blobs in binary form', async () => {
    const answer = await tx(request({ transaction: recorded.hash, binary: true }), chain.context);
    expect(answer).toMatchObject({ hash: recorded.hash, tx: expect.stringMatching(/^[0-9A-F]+$/), meta: expect.stringMatching(/^[0-9A-F]+$/), ledger_index: 11119600 });
  });

  /** The CTID of `recorded` on a network. */
  const ctidOn = (networkId: number) =>
    `C${(11119600).toString(16).toUpperCase().padStart(7, '0')}${recorded.metaData.TransactionIndex.toString(16).toUpperCase().padStart(4, '0')}${networkId.toString(16).toUpperCase().padStart(4, '0')}`;

  it('finds a transaction by its CTID, of any network when the node states none', async () => {
    expect((await tx(request({ ctid: ctidOn(0) }), chain.context)).hash).toBe(recorded.hash);
    expect((await tx(request({ ctid: ctidOn(5) }), chain.context)).hash).toBe(recorded.hash);
  });

  describe('on a node with -network_id', () => {
    const onNetwork = new TestChain({ profile: getProfile('xrpl'), ledgers: fixtures, networkId: 21 });

    it('answers each form with the CTID of its network', async () => {
      for (const [apiVersion, binary] of [[1, false], [1, true], [2, false], [2, true]] as const) {
        expect((await tx(request({ transaction: recorded.hash, binary }, apiVersion), onNetwork.context)).ctid).toBe(ctidOn(21));
      }
    });

    it('finds a transaction by a CTID of its network, and refuses another network\'s with wrongNetwork', async () => {
      expect((await tx(request({ ctid: ctidOn(21).toLowerCase() }), onNetwork.context)).hash).toBe(recorded.hash);
      await expect(tx(request({ ctid: ctidOn(0) }), onNetwork.context)).rejects.toMatchObject({
        token: 'wrongNetwork',
        code: 4,
        message: 'Wrong network. You should submit this request to a node running on NetworkID: 0',
      });
    });
  });

  it('answers txnNotFound, with searched_all when a ledger range is given', async () => {
    const missing = 'AB'.repeat(32);
    await expect(tx(request({ transaction: missing }), chain.context)).rejects.toMatchObject({ token: 'txnNotFound', code: 29, extra: {} });
    await expect(tx(request({ transaction: missing, min_ledger: 11119599, max_ledger: 11119604 }), chain.context)).rejects.toMatchObject({
      token: 'txnNotFound',
      extra: { searched_all: true },
    });
    await expect(tx(request({ transaction: missing, min_ledger: 11119000, max_ledger: 11119604 }), chain.context)).rejects.toMatchObject({
      extra: { searched_all: false },
    });
  });

  it.each([
    [{}, 'invalidParams'],
    [{ transaction: 'abc' }, 'invalidParams'],
    [{ transaction: 'AB'.repeat(32), ctid: 'C000000100000000' }, 'invalidParams'],
    [{ ctid: 'nope' }, 'invalidParams'],
    [{ transaction: 'AB'.repeat(32), min_ledger: 10, max_ledger: 5 }, 'invalidLgrRange'],
    [{ transaction: 'AB'.repeat(32), min_ledger: 1, max_ledger: 5000 }, 'excessiveLgrRange'],
    [{ transaction: 'AB'.repeat(32), proof: 'yes' }, 'invalidParams'],
  ])('refuses %j with %s', async (params, token) => {
    await expect(tx(request(params), chain.context)).rejects.toMatchObject({ token });
  });
});

describe('transaction_entry', () => {
  it('answers the transaction of the ledger named, in each API version', async () => {
    const v1 = await transactionEntry(request({ tx_hash: recorded.hash, ledger_index: 11119600 }), chain.context);
    const { metaData, ...fields } = recorded;
    expect(v1).toEqual({ ledger_hash: ledger.hash, ledger_index: 11119600, validated: true, metadata: metaData, tx_json: fields });
    const v2 = await transactionEntry(request({ tx_hash: recorded.hash, ledger_hash: ledger.hash }, 2), chain.context);
    expect(v2).toMatchObject({ hash: recorded.hash, ledger_index: 11119600, validated: true, close_time_iso: expect.any(String) });
    expect((v2.tx_json as Record<string, unknown>).hash).toBeUndefined();
    // Version 2 names the metadata `meta`; neither adds delivered_amount to the stored metadata (rippled TransactionEntry).
    expect(v2.meta).toEqual(v1.metadata);
    expect(v2).not.toHaveProperty('metadata');
    expect(v1.metadata).not.toHaveProperty('delivered_amount');
  });

  it("refuses as rippled's TransactionEntry does: bare tokens beside the ledger's fields", async () => {
    const otherLedger = { ledger_hash: fixtures[2].ledger.hash, ledger_index: 11119601, validated: true };
    await expect(transactionEntry(request({ tx_hash: recorded.hash, ledger_index: 11119601 }), chain.context)).rejects.toMatchObject({ token: 'transactionNotFound', extra: otherLedger });
    await expect(transactionEntry(request({ ledger_index: 11119601 }), chain.context)).rejects.toMatchObject({ token: 'fieldNotFoundTransaction', extra: otherLedger });
    await expect(transactionEntry(request({ tx_hash: 'XYZ', ledger_index: 11119601 }), chain.context)).rejects.toMatchObject({ token: 'malformedRequest', extra: otherLedger });
    await expect(transactionEntry(request({ tx_hash: recorded.hash, ledger_index: 'current' }), chain.context)).rejects.toMatchObject({ token: 'notYetImplemented' });
  });
});
