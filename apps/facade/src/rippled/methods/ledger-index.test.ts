import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { closeTimeIso } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { ledgerIndex } from './ledger-index';
import { HISTORY_LEDGERS, request, TestChain, type FixtureLedger } from './test-context';

const fixtures = HISTORY_LEDGERS.map((file) => readFixture<FixtureLedger>(file));
const chain = new TestChain({ profile: getProfile('xrpl'), ledgers: fixtures });
const ledgers = fixtures.map((fixture) => ({ index: Number(fixture.ledger.ledger_index), hash: fixture.ledger.ledger_hash as string, closeTime: fixture.ledger.close_time as number }));
const answerFor = (ledger: (typeof ledgers)[number]) => ({ ledger_index: ledger.index, ledger_hash: ledger.hash, closed: closeTimeIso(ledger.closeTime), validated: true });

describe("ledger_index (Clio's)", () => {
  it('answers the newest ledger closed at or before the date (ledgers may share a close time)', async () => {
    expect(ledgers.length).toBeGreaterThan(2);
    const newestAt = (closeTime: number) => ledgers.filter((ledger) => ledger.closeTime <= closeTime).at(-1)!;
    for (const ledger of ledgers) {
      for (const closeTime of [ledger.closeTime, ledger.closeTime + 1]) {
        expect(await ledgerIndex(request({ date: closeTimeIso(closeTime) }), chain.context)).toEqual(answerFor(newestAt(closeTime)));
      }
    }
  });

  it('answers the newest stored ledger for a later date or none, and lgrNotFound before the first', async () => {
    const newest = ledgers.at(-1)!;
    expect(await ledgerIndex(request({ date: '2099-01-01T00:00:00Z' }), chain.context)).toEqual(answerFor(newest));
    expect(await ledgerIndex(request({}), chain.context)).toEqual(answerFor(newest));
    await expect(ledgerIndex(request({ date: closeTimeIso(ledgers[0]!.closeTime - 1) }), chain.context)).rejects.toMatchObject({ token: 'lgrNotFound' });
  });

  it.each(['2024-08-28', '2024-08-28T22:59:00.123Z', '2024-08-28T22:59:00+01:00', '2024-02-30T00:00:00Z', 1724885940])('refuses the date %s', async (date) => {
    await expect(ledgerIndex(request({ date }), chain.context)).rejects.toMatchObject({ token: 'invalidParams' });
  });
});
