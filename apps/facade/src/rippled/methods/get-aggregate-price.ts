/**
 * rippled `get_aggregate_price` (GetAggregatePrice.cpp): statistics of the prices that price
 * oracles state for `base_asset` in `quote_asset` at a stored ledger. Each oracle's price comes
 * from its object or, when the object no longer holds the pair, from the Oracle nodes of the
 * metadata of up to three earlier transactions that changed it (read from the store). `trim`
 * (1 to 25 %) adds statistics without the highest and lowest prices; `time_threshold` keeps the
 * prices updated within that many seconds of the latest. The mean and median print as STAmount,
 * the standard deviation as rippled's Number (19 digits).
 */
import { currencyToBytes, keylet } from '@ledger-node/chain';
import { affectedNodes, isJsonObject, missingField, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { addExact, AMOUNT_DIGITS, divideExact, exactText, multiplyExact, roundExact, squareRootExact, subtractExact, type ExactDecimal } from './decimal';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

/** rippled: at most 200 oracles a request, trimming at most 25 %, history three transactions deep. */
const MAX_ORACLES = 200;
const MAX_TRIM = 25;
const MAX_HISTORY = 3;
/** Significant digits of rippled's Number (its large mantissa range, which RPC uses). */
const NUMBER_DIGITS = 19;

/** rippled validUInt: an integer not below zero, or a string of a UInt32. */
function readUInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= 0xffffffff ? value : undefined;
  if (typeof value === 'string' && /^\d+$/.test(value) && Number(value) <= 0xffffffff) return Number(value);
  return undefined;
}

/** rippled currencyFromJson: a currency code (three characters or 40 hex) as the request spells it. */
function readCurrency(params: JsonObject, field: string): string {
  const value = params[field];
  if (typeof value !== 'string' || value === '') throw new RpcError('invalidParams');
  if (value !== 'XRP' && !/^0{40}$/.test(value)) {
    try {
      currencyToBytes(value);
    } catch {
      // rippled to_currency refuses the same spellings: invalidParams.
      throw new RpcError('invalidParams');
    }
  }
  return value;
}

interface Price {
  readonly time: number;
  readonly price: ExactDecimal;
}

const byPrice = (a: Price, b: Price) => {
  const [left, right] = [a.price, b.price];
  const exponent = Math.min(left.exponent, right.exponent);
  const difference = left.value * 10n ** BigInt(left.exponent - exponent) - right.value * 10n ** BigInt(right.exponent - exponent);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
};

/** Mean, standard deviation and size of prices, as rippled's getStats computes them. */
function statistics(prices: readonly Price[]): JsonObject {
  const amount = (value: ExactDecimal) => roundExact(value, AMOUNT_DIGITS);
  const sum = prices.reduce((total, { price }) => amount(addExact(total, price)), { value: 0n, exponent: 0 } as ExactDecimal);
  const mean = divideExact(sum, { value: BigInt(prices.length), exponent: 0 }, AMOUNT_DIGITS);
  let deviation: ExactDecimal = { value: 0n, exponent: 0 };
  if (prices.length > 1) {
    const number = (value: ExactDecimal) => roundExact(value, NUMBER_DIGITS);
    const squares = prices.reduce((total, { price }) => {
      const difference = amount(subtractExact(price, mean));
      return number(addExact(total, number(multiplyExact(difference, difference))));
    }, { value: 0n, exponent: 0 } as ExactDecimal);
    deviation = squareRootExact(divideExact(squares, { value: BigInt(prices.length - 1), exponent: 0 }, NUMBER_DIGITS), NUMBER_DIGITS);
  }
  return { mean: exactText(mean), size: prices.length, standard_deviation: exactText(deviation) };
}

export const getAggregatePrice: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const { codec } = profile;
  if (params.oracles === undefined) throw missingField('oracles');
  const oracles = params.oracles;
  if (!Array.isArray(oracles) || oracles.length === 0 || oracles.length > MAX_ORACLES) throw new RpcError('oracleMalformed');
  if (params.base_asset === undefined) throw missingField('base_asset');
  if (params.quote_asset === undefined) throw missingField('quote_asset');
  const trim = params.trim === undefined ? 0 : readUInt(params.trim);
  if (trim === undefined || (params.trim !== undefined && (trim === 0 || trim > MAX_TRIM))) throw new RpcError('invalidParams');
  const threshold = params.time_threshold === undefined ? 0 : readUInt(params.time_threshold);
  if (threshold === undefined) throw new RpcError('invalidParams');
  const baseAsset = readCurrency(params, 'base_asset');
  const quoteAsset = readCurrency(params, 'quote_asset');

  /** The pair's price in one PriceDataSeries holder (an Oracle object or its fields in metadata), if it states one. */
  const priceIn = (node: Record<string, any> | undefined): Price | undefined => {
    const series = Array.isArray(node?.PriceDataSeries) ? (node!.PriceDataSeries as Array<{ PriceData: Record<string, any> }>) : [];
    const data = series.map(({ PriceData }) => PriceData).find((entry) => entry?.BaseAsset === baseAsset && entry?.QuoteAsset === quoteAsset && entry?.AssetPrice !== undefined);
    if (!data) return undefined;
    // AssetPrice is a UInt64 (printed in hex), Scale its negative power of ten: an STAmount of 16 digits.
    const price = roundExact({ value: BigInt(`0x${data.AssetPrice}`), exponent: -Number(data.Scale ?? 0) }, AMOUNT_DIGITS);
    return { time: Number(node!.LastUpdateTime), price };
  };

  let fields: JsonObject = {};
  let state: StateView | undefined;
  const prices: Price[] = [];
  for (const oracle of oracles as unknown[]) {
    if (!isJsonObject(oracle) || oracle.oracle_document_id === undefined || oracle.account === undefined) throw new RpcError('oracleMalformed', undefined, fields);
    const documentId = readUInt(oracle.oracle_document_id);
    const account = typeof oracle.account === 'string' && codec.isValidAddress(oracle.account) ? codec.decodeAccountId(oracle.account) : undefined;
    if (!account || account.every((byte) => byte === 0) || documentId === undefined) throw new RpcError('invalidParams', undefined, fields);
    if (!state) {
      const resolved = await resolveLedger(params, context);
      fields = ledgerFields(resolved.place);
      state = new StateView(context, resolved.header.ledgerIndex);
    }
    const entry = await state.readOne(keylet.oracle(account, documentId));
    if (!entry || entry.json.LedgerEntryType !== 'Oracle') continue;
    // rippled iteratePriceData: the object, then the Oracle node of each earlier transaction's metadata.
    let holder: Record<string, any> | undefined = state.rendered(entry);
    let link: Record<string, any> = holder;
    for (let history = 0; holder; ) {
      const price = priceIn(holder);
      if (price) {
        prices.push(price);
        break;
      }
      if (++history > MAX_HISTORY || typeof link.PreviousTxnID !== 'string') break;
      const previous = await context.queries.transaction(Buffer.from(link.PreviousTxnID, 'hex'));
      if (!previous) break;
      const meta = codec.decode(previous.metaBlob) as Record<string, any>;
      const affected = affectedNodes(meta).find(({ node }) => node.LedgerEntryType === 'Oracle');
      if (!affected) break;
      const { kind } = affected;
      const node = affected.node as Record<string, any>;
      const created = kind === 'CreatedNode';
      // The transaction before the object's last one created it: the object already held that state.
      if (created && history === 1) break;
      link = node;
      holder = created ? node.NewFields : node.FinalFields;
      if (created) {
        const last = priceIn(holder);
        if (last) prices.push(last);
        break;
      }
    }
  }
  if (prices.length === 0) throw new RpcError('objectNotFound', undefined, fields);

  const latest = Math.max(...prices.map((price) => price.time));
  let kept = prices;
  if (threshold > 0) {
    const oldest = Math.min(...prices.map((price) => price.time));
    const bound = latest > threshold ? latest - threshold : oldest;
    if (bound > oldest) kept = prices.filter((price) => price.time >= bound);
  }
  const sorted = [...kept].sort(byPrice);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 0
      ? divideExact(roundExact(addExact(sorted[middle - 1]!.price, sorted[middle]!.price), AMOUNT_DIGITS), { value: 2n, exponent: 0 }, AMOUNT_DIGITS)
      : sorted[middle]!.price;
  const result: JsonObject = { ...fields, time: latest, entire_set: statistics(sorted), median: exactText(median) };
  if (trim > 0) {
    const trimCount = Math.floor((sorted.length * trim) / 100);
    result.trimmed_set = statistics(sorted.slice(trimCount, sorted.length - trimCount));
  }
  return result;
};
