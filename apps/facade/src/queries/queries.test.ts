import { describe, expect, it, vi } from 'vitest';
import type { Clients } from '../clients';
import type { TipCache } from '../tip';
import { AnswerCache } from './answer-cache';
import { Queries } from './queries';

function queriesOver(ledgerStore: Record<string, unknown>) {
  return new Queries({ ledgerStore } as unknown as Clients, {} as TipCache, new AnswerCache(1_000_000));
}

const hash = (byte: number) => Buffer.alloc(32, byte);

describe('Queries', () => {
  it('gathers the transactions asked for in one turn, from any API, into one store call, each answered its own', async () => {
    const getTransactions = vi.fn(async ({ hashes }: { hashes: Buffer[] }) => ({
      transactions: hashes.filter((h) => h[0] !== 9).map((h) => ({ hash: h, ledgerIndex: h[0] })),
    }));
    const queries = queriesOver({ getTransactions });
    const answers = await Promise.all([1, 2, 9, 3].map((byte) => queries.transaction(hash(byte))));
    expect(getTransactions).toHaveBeenCalledTimes(1);
    expect(answers.map((record) => record?.ledgerIndex)).toEqual([1, 2, undefined, 3]);
  });

  it('keeps a rendered answer and serves it again without reading, but never keeps "not stored"', async () => {
    const queries = queriesOver({});
    const render = vi.fn(async () => ({ a: 1 }));
    expect((await queries.kept('k', render))?.json).toBe('{"a":1}');
    expect((await queries.kept('k', render))?.json).toBe('{"a":1}');
    expect(render).toHaveBeenCalledTimes(1);
    const missing = vi.fn(async () => undefined);
    expect(await queries.kept('gone', missing)).toBeUndefined();
    expect(await queries.kept('gone', missing)).toBeUndefined();
    expect(missing).toHaveBeenCalledTimes(2);
  });

  it('answers but does not keep an answer its keep test refuses', async () => {
    const queries = queriesOver({});
    const render = vi.fn(async () => ({ final: false }));
    const keep = (answer: { final: boolean }) => answer.final;
    expect((await queries.kept('k', render, keep))?.json).toBe('{"final":false}');
    expect((await queries.kept('k', render, keep))?.json).toBe('{"final":false}');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('reads a whole ledger once while it is recent, but a ledger not stored or a failed read again', async () => {
    let fail = true;
    const getLedger = vi.fn(async ({ ledger }: { ledger: { selector: { index: number } } }) => {
      if (ledger.selector.index === 3 && fail) {
        fail = false;
        throw new Error('store down');
      }
      return { ledger: ledger.selector.index === 9 ? undefined : { ledgerIndex: ledger.selector.index } };
    });
    const queries = queriesOver({ getLedger });
    expect((await Promise.all([queries.wholeLedger(5), queries.wholeLedger(5)])).map((ledger) => ledger?.ledgerIndex)).toEqual([5, 5]);
    await queries.wholeLedger(5);
    expect(getLedger).toHaveBeenCalledTimes(1);
    expect(await queries.wholeLedger(9)).toBeUndefined();
    expect(await queries.wholeLedger(9)).toBeUndefined();
    await expect(queries.wholeLedger(3)).rejects.toThrow('store down');
    expect((await queries.wholeLedger(3))?.ledgerIndex).toBe(3);
    expect(getLedger).toHaveBeenCalledTimes(5);
  });

  it("fails only the account read the store refused, with the store's error kind", async () => {
    const getAccountStates = vi.fn(async ({ requests }: { requests: { accountId: Buffer }[] }) => ({
      results: requests.map(({ accountId }) =>
        accountId[0] === 1
          ? { result: { $case: 'state', state: { trustLineBlobs: [], ledgerIndex: 5, ledgerHash: hash(5) } } }
          : { result: { $case: 'error', error: { kind: 'out_of_range', message: 'outside the state window', detailsJson: '{}' } } },
      ),
    }));
    const queries = queriesOver({ getAccountStates });
    const ledger = { selector: { $case: 'index' as const, index: 5 } };
    const [ok, refused] = await Promise.allSettled([queries.accountState(Buffer.alloc(20, 1), ledger), queries.accountState(Buffer.alloc(20, 2), ledger)]);
    expect(getAccountStates).toHaveBeenCalledTimes(1);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { ledgerIndex: 5 } });
    expect(refused).toMatchObject({ status: 'rejected', reason: { kind: 'out_of_range', message: 'outside the state window' } });
  });
});
