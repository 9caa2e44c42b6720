import { describe, expect, it, vi } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { RenderedJson } from '../../queries/rendered-json';
import { accountInfo } from './account-info';
import { keptWhen, namesLedger, namesTransaction } from './final-answers';
import { rippledMethods } from './index';
import { HISTORY_LEDGERS, request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';
import { tx } from './tx';

const xrpl = getProfile('xrpl');
const history = HISTORY_LEDGERS.map((file) => readFixture<FixtureLedger>(file));
const state = readFixture<FixtureLedger>(STATE_LEDGER);
const root = (state.ledger.accountState as Array<Record<string, any>>).find((entry) => entry.LedgerEntryType === 'AccountRoot')!;
const hash: string = history[1]!.ledger.transactions[0].hash;

/** What a handler answered, as the client reads it. */
const plain = (answer: unknown) => (answer instanceof RenderedJson ? JSON.parse(answer.json) : answer);

describe('answers that never change', () => {
  it('are those about a ledger named by index or hash, or a transaction named by hash or CTID without a proof', () => {
    expect([{ ledger_index: 5 }, { ledger_index: '5' }, { ledger_hash: 'AB' }].map(namesLedger)).toEqual([true, true, true]);
    expect([{}, { ledger_index: 'validated' }, { ledger_index: 'current' }, { ledger_index: 'closed' }].map(namesLedger)).toEqual([false, false, false, false]);
    expect([{ transaction: hash }, { ctid: 'C000000100000000' }, { transaction: hash, proof: false }].map(namesTransaction)).toEqual([true, true, true]);
    expect([{ transaction: hash, proof: true }, {}].map(namesTransaction)).toEqual([false, false]);
  });

  it('are rendered once per command, API version and request, then answered from the answer cache without asking the store', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: history });
    const reads = vi.spyOn(chain.context.queries, 'transaction');
    const first = await rippledMethods.tx!(request({ transaction: hash }, 2), chain.context);
    const again = await rippledMethods.tx!(request({ transaction: hash }, 2), chain.context);
    expect(first).toBeInstanceOf(RenderedJson);
    expect((again as RenderedJson).json).toBe((first as RenderedJson).json);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(plain(first)).toEqual(await tx(request({ transaction: hash }, 2), chain.context));
    // Another API version or form is another answer.
    const v1 = plain(await rippledMethods.tx!(request({ transaction: hash }, 1), chain.context));
    const binary = plain(await rippledMethods.tx!(request({ transaction: hash, binary: true }, 2), chain.context));
    expect(v1.hash).toBe(hash);
    expect(v1.tx_json).toBeUndefined();
    expect(binary.tx_blob).toMatch(/^[0-9A-F]+$/);
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('keep no error: a request refused, or a transaction not stored, is answered afresh each time', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: history });
    await rippledMethods.tx!(request({ transaction: hash }), chain.context);
    await expect(rippledMethods.tx!(request({ transaction: hash, binary: 'yes' }), chain.context)).rejects.toMatchObject({ token: 'invalidParams' });
    const reads = vi.spyOn(chain.context.queries, 'transaction');
    const missing = 'AB'.repeat(32);
    for (let time = 0; time < 2; time++) await expect(rippledMethods.tx!(request({ transaction: missing }), chain.context)).rejects.toMatchObject({ token: 'txnNotFound' });
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('are not kept for a ledger named by a tag, which moves', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [state] });
    const kept = vi.fn(async () => ({ x: 1 }));
    const handler = keptWhen('counted', kept, namesLedger);
    await handler(request({ account: root.Account }), chain.context);
    await handler(request({ account: root.Account }), chain.context);
    await handler(request({ account: root.Account, ledger_index: 38129 }), chain.context);
    await handler(request({ account: root.Account, ledger_index: 38129 }), chain.context);
    expect(kept).toHaveBeenCalledTimes(3);
    expect(plain(await rippledMethods.account_info!(request({ account: root.Account, ledger_index: 38129 }), chain.context))).toEqual(
      await accountInfo(request({ account: root.Account, ledger_index: 38129 }), chain.context),
    );
  });
});
