import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { errorFields } from '@ledger-node/rippled-api';
import { fixturesDir, readFixture } from '@ledger-node/test-utils';
import { getAggregatePrice } from './get-aggregate-price';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const ledger = { ledger_hash: fixture.ledger.ledger_hash, ledger_index: 38129, validated: true };
/** A recorded OracleSet: the oracle it updated, its XRP/USD price 0.62410000 (0x253302a0, scale 9). */
const oracleSet = JSON.parse(readFileSync(path.join(fixturesDir(), 'xrpl/corpus/transactions/OracleSet-1EDC129E.json'), 'utf8'));
const oracleNode = (oracleSet.meta.AffectedNodes as Array<Record<string, any>>).map((affected) => affected.ModifiedNode).find((node) => node?.LedgerEntryType === 'Oracle');
const recordedOracle = { LedgerEntryType: 'Oracle', ...oracleNode.FinalFields, PreviousTxnID: oracleSet.hash, PreviousTxnLgrSeq: oracleSet.ledger_index, index: oracleNode.LedgerIndex };
const owner: string = oracleNode.FinalFields.Owner;

/** Ten oracles as rippled's GetAggregatePrice_test prepares them: XRP/USD at 74.0 … 74.9, and XRP/EUR. */
const accounts = Array.from({ length: 10 }, (_, position) => xrpl.codec.encodeAccountId(new Uint8Array(20).fill(position + 1)));
function tenOracles(times: (position: number) => number = () => 946694900): Array<Record<string, any>> {
  return accounts.map((account, position) => ({
    LedgerEntryType: 'Oracle',
    Flags: 0,
    Owner: account,
    OwnerNode: '0',
    Provider: '70726F7669646572',
    AssetClass: '63757272656E6379',
    LastUpdateTime: times(position),
    PriceDataSeries: [
      { PriceData: { BaseAsset: 'XRP', QuoteAsset: 'USD', AssetPrice: (740 + position).toString(16), Scale: 1 } },
      { PriceData: { BaseAsset: 'XRP', QuoteAsset: 'EUR', AssetPrice: (740).toString(16), Scale: 1 } },
    ],
    PreviousTxnID: '00'.repeat(32),
    PreviousTxnLgrSeq: 1,
    index: keylet.oracle(xrpl.codec.decodeAccountId(account), 7 + position),
  }));
}
const named = accounts.map((account, position) => ({ account, oracle_document_id: 7 + position }));
const chainWith = (entries: Array<Record<string, any>>, transactions: Array<Record<string, any>> = []) =>
  new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...fixture.ledger, transactions: [...fixture.ledger.transactions, ...transactions], accountState: [...fixture.ledger.accountState, ...entries] } }] });
const ten = chainWith(tenOracles());

describe('get_aggregate_price', () => {
  it("gives rippled's own figures for its test's ten oracles, trimmed by 20 %", async () => {
    expect(await getAggregatePrice(request({ base_asset: 'XRP', quote_asset: 'USD', oracles: named, trim: 20 }), ten.context)).toEqual({
      ...ledger,
      time: 946694900,
      entire_set: { mean: '74.45', size: 10, standard_deviation: '0.3027650354097491666' },
      median: '74.45',
      trimmed_set: { mean: '74.45', size: 6, standard_deviation: '0.1870828693386970693' },
    });
  });

  it('keeps the prices updated within time_threshold seconds of the latest (given as a string too)', async () => {
    // Oracles 0 and 1 updated 100 s before the rest: a 75 s threshold leaves eight, at 74.2 … 74.9.
    const chain = chainWith(tenOracles((position) => (position < 2 ? 946694800 : 946694900)));
    const answer = await getAggregatePrice(request({ base_asset: 'XRP', quote_asset: 'USD', oracles: named, time_threshold: '75' }), chain.context);
    expect(answer).toMatchObject({ time: 946694900, entire_set: { mean: '74.55', size: 8 }, median: '74.55' });
  });

  it('reads a recorded oracle, the one price with no deviation', async () => {
    const chain = chainWith([recordedOracle]);
    expect(await getAggregatePrice(request({ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: owner, oracle_document_id: 1 }] }), chain.context)).toEqual({
      ...ledger,
      time: 1727732389,
      entire_set: { mean: '0.6241', size: 1, standard_deviation: '0' },
      median: '0.6241',
    });
  });

  it("finds a pair the oracle no longer states in its last transaction's metadata", async () => {
    const laterTx = '11'.repeat(32);
    const withoutXrp = { ...recordedOracle, PriceDataSeries: recordedOracle.PriceDataSeries.filter((entry: any) => entry.PriceData.BaseAsset !== 'XRP'), LastUpdateTime: 1727733000, PreviousTxnID: oracleSet.hash };
    const recordedTx = { ...oracleSet, metaData: oracleSet.meta };
    const chain = chainWith([withoutXrp], [recordedTx]);
    const answer = await getAggregatePrice(request({ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: owner, oracle_document_id: 1 }] }), chain.context);
    expect(answer).toMatchObject({ time: 1727732389, entire_set: { mean: '0.6241', size: 1 } });
    // Not when the last transaction is not stored.
    const unknown = chainWith([{ ...withoutXrp, PreviousTxnID: laterTx }], [recordedTx]);
    const error = await getAggregatePrice(request({ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: owner, oracle_document_id: 1 }] }), unknown.context).catch((thrown: unknown) => thrown);
    expect(errorFields(error)).toEqual({ ...ledger, error: 'objectNotFound', error_code: 92, error_message: 'The requested object was not found.' });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ base_asset: 'XRP', quote_asset: 'USD' }, 'invalidParams', "Missing field 'oracles'."],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: [] }, 'oracleMalformed', 'Oracle request is malformed.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: {} }, 'oracleMalformed', 'Oracle request is malformed.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: Array.from({ length: 201 }, () => named[0]) }, 'oracleMalformed', 'Oracle request is malformed.'],
    [{ quote_asset: 'USD', oracles: named }, 'invalidParams', "Missing field 'base_asset'."],
    [{ base_asset: 'XRP', oracles: named }, 'invalidParams', "Missing field 'quote_asset'."],
    ...[0, 26, -1, 1.2, '', 'none', '1.2'].map((trim) => [{ base_asset: 'XRP', quote_asset: 'USD', oracles: named, trim }, 'invalidParams', 'Invalid parameters.'] as [Record<string, unknown>, string, string]),
    ...[-1, 1.2, '', 'none', '1.2'].map((time_threshold) => [{ base_asset: 'XRP', quote_asset: 'USD', oracles: named, time_threshold }, 'invalidParams', 'Invalid parameters.'] as [Record<string, unknown>, string, string]),
    [{ base_asset: '', quote_asset: 'USD', oracles: named }, 'invalidParams', 'Invalid parameters.'],
    [{ base_asset: 'XRP', quote_asset: 'US', oracles: named }, 'invalidParams', 'Invalid parameters.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: owner }] }, 'oracleMalformed', 'Oracle request is malformed.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: 'rNot', oracle_document_id: 1 }] }, 'invalidParams', 'Invalid parameters.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp', oracle_document_id: 1 }] }, 'invalidParams', 'Invalid parameters.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: owner, oracle_document_id: -1 }] }, 'invalidParams', 'Invalid parameters.'],
    [{ base_asset: 'XRP', quote_asset: 'USD', oracles: named, ledger_index: 9 }, 'lgrNotFound', 'ledgerNotFound'],
    [{ base_asset: 'YAN', quote_asset: 'USD', oracles: named }, 'objectNotFound', 'The requested object was not found.'],
  ])('refuses %j with %s', async (params, token, message) => {
    await expect(getAggregatePrice(request(params), ten.context)).rejects.toMatchObject({ token, message });
  });
});
