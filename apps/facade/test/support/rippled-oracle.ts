/**
 * The conformance oracle: answers rippled gave for real ledgers (recorded in public test data, kept
 * in fixtures/ with their origins) against what the node answers for the same request once it holds
 * the same ledgers. Not the devnet: the reference is what rippled printed.
 *
 * A recording is equal when every field is equal after JSON parsing, key order aside. Recordings
 * made by an older rippled differ from today's rippled in a few ways that are rippled's own changes
 * between versions, not the node's; those are listed below one by one, each with the version change
 * it comes from, and only a recording that predates the change may differ that way. Every other
 * difference counts.
 */
import { getProfile } from '@ledger-node/chain';
import { ABSENT, differences, type Difference } from './rippled-compare';
import type { Json } from './rippled-node';

const xrpl = getProfile('xrpl');

export interface Answers {
  readonly recorded: Json;
  readonly served: Json;
}

export interface VersionDifference {
  /** JSON paths it applies to. */
  readonly path: RegExp;
  /** Whether this difference is that change (`answers` for the fields beside it). */
  readonly applies: (difference: Difference, answers: Answers) => boolean;
  /** The change in rippled that makes a recording of its era print this otherwise. */
  readonly reason: string;
}

/** The value at a JSON path of `differences` (`$.a.b[0]["c d"]`) in `root`. */
export function valueAt(root: unknown, path: string): unknown {
  let value: any = root;
  for (const [, name, index, quoted] of path.slice(1).matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    if (value === undefined || value === null) return undefined;
    value = value[name ?? (index !== undefined ? Number(index) : JSON.parse(quoted!))];
  }
  return value;
}

/** The path of the object that holds the field at `path`. */
const parentPath = (path: string) => path.replace(/(\.[A-Za-z_$][\w$]*|\[[^\]]*\])$/, '');
const lastKey = (path: string) => /\.(\w+)$/.exec(path)?.[1] ?? '';
const uint64 = (key: string) => xrpl.definitions.field.fromString(key)?.type.name === 'UInt64';
const onlyRecorded = (difference: Difference) => difference.candidate === ABSENT;
const onlyServed = (difference: Difference) => difference.reference === ABSENT;
/** "2015-Jan-14 18:27:40" of a close_time_human, whatever the era's suffix. */
const toTheSecond = (text: unknown) => (typeof text === 'string' ? /^\d{4}-\w{3}-\d{2} \d{2}:\d{2}:\d{2}/.exec(text)?.[0] : undefined);
/** Equal after JSON parsing, key order aside. */
const sameJson = (a: unknown, b: unknown) => differences(a, b, {}).length === 0;

/** rippled DeliveredAmount.cpp: before this ledger a payment's delivery was not recorded. */
const DELIVERED_AMOUNT_SINCE_LEDGER = 4594095;
/** 2015-03-01 in seconds since the Ripple epoch: `tx` answers recorded before it came from a rippled without `delivered_amount`. */
const DELIVERED_AMOUNT_ANSWERS_SINCE = 478483200;

/** What today's rippled prints differently from the rippled that made an old recording. */
export const RIPPLED_VERSION_DIFFERENCES: readonly VersionDifference[] = [
  {
    path: /^\$\.ledger\.(accepted|hash|seqNum|totalCoins)$/,
    applies: onlyRecorded,
    reason: 'the rippled of 2013–2019 printed `accepted`, `hash`, `seqNum` and `totalCoins` in a ledger header; today LedgerToJson.cpp fillJson does not',
  },
  {
    path: /^\$\.ledger\.close_time_human$/,
    applies: ({ reference, candidate }) => toTheSecond(reference) !== undefined && toTheSecond(reference) === toTheSecond(candidate),
    reason: 'close_time_human was printed to the second, then with " UTC", then with nanoseconds; today it ends ".000000000 UTC" (the same instant)',
  },
  {
    path: /^\$(\.ledger)?\.close_time_iso$|\.ctid$/,
    applies: onlyServed,
    reason: 'close_time_iso (rippled 2.0) and ctid (XLS-37, rippled 1.12) did not exist when the recording was made',
  },
  {
    path: /\.\w+$/,
    applies: ({ path, reference, candidate }) =>
      uint64(lastKey(path)) &&
      typeof reference === 'string' &&
      typeof candidate === 'string' &&
      /^[0-9A-F]{16}$/.test(reference) &&
      /^[0-9a-f]{1,16}$/.test(candidate) &&
      BigInt(`0x${reference}`) === BigInt(`0x${candidate}`),
    reason: 'older rippled printed a UInt64 as 16 upper-case hex digits; today STUInt64::getJson prints short lower-case hex (the same number)',
  },
  {
    path: /\.Paths\[\d+\]\[\d+\]\.type_hex$/,
    applies: ({ path, reference }, { served }) =>
      typeof reference === 'string' && BigInt(`0x${reference}`) === BigInt((valueAt(served, parentPath(path)) as Json | undefined)?.type ?? -1),
    reason: 'older rippled printed each path step\'s `type_hex` beside its `type`; today STPathSet::getJson prints `type` only',
  },
  {
    path: /\.DeliverMax$/,
    applies: (difference, { recorded }) => onlyServed(difference) && sameJson(difference.candidate, (valueAt(recorded, parentPath(difference.path)) as Json).Amount),
    reason: 'since rippled 2.0 a Payment shows `DeliverMax` beside `Amount` in API v1 too (the same amount)',
  },
  {
    path: /^\$\.ledger\.transactions\[\d+\]\.metaData\.delivered_amount$/,
    applies: (difference, { recorded }) => {
      if (!onlyServed(difference)) return false;
      const meta = valueAt(recorded, parentPath(difference.path)) as Json;
      const tx = valueAt(recorded, parentPath(parentPath(difference.path))) as Json;
      const delivered = meta.DeliveredAmount ?? (Number(recorded.ledger_index) >= DELIVERED_AMOUNT_SINCE_LEDGER ? tx.Amount : 'unavailable');
      return meta.TransactionResult === 'tesSUCCESS' && sameJson(difference.candidate, delivered);
    },
    reason: 'older rippled printed a ledger\'s expanded metadata as stored; today LedgerToJson adds `delivered_amount` to each successful Payment (RPC::insertDeliveredAmount)',
  },
  {
    path: /^\$\.meta\.delivered_amount$/,
    applies: (difference, { recorded }) =>
      onlyServed(difference) && (recorded.TransactionType === 'CheckCash' || (typeof recorded.date === 'number' && recorded.date < DELIVERED_AMOUNT_ANSWERS_SINCE)),
    reason: 'the rippled of 2014 printed no `delivered_amount` in `tx` answers; for CheckCash it came with the fix1623 amendment (2018), retired since and so always on',
  },
  {
    path: /^\$\.meta\.(nftoken_id|nftoken_ids|offer_id)$/,
    applies: onlyServed,
    reason: 'rippled 1.11 began to add `nftoken_id`, `nftoken_ids` and `offer_id` to NFToken transactions\' metadata; the recording is older',
  },
  {
    path: /^\$\.warnings$/,
    applies: (difference) => onlyRecorded(difference) && JSON.stringify(difference.reference).includes('reporting server'),
    reason: 'rippled in reporting mode (1.7–1.12) warned in every answer that it was a reporting server',
  },
];

/** The version change that explains `difference`, if one does. */
export function versionChange(difference: Difference, answers: Answers): VersionDifference | undefined {
  return RIPPLED_VERSION_DIFFERENCES.find((entry) => entry.path.test(difference.path) && entry.applies(difference, answers));
}

/**
 * Recordings in the corpus that are not rippled's answer as it gave it (each with why), so not the
 * oracle; the replay still serves and checks them.
 */
export const NOT_AS_GIVEN: ReadonlyMap<string, string> = new Map([
  [
    'xrpl/corpus/ledgers/mainnet-15202439.json',
    "assembled in xrpl.js' tests from a header and a transaction list: no transaction hashes, and a close_time_iso no rippled prints (\"2015-08-12T01:01.10Z\")",
  ],
  ['xrpl/corpus/ledgers/mainnet-4181996.json', "ripple-lib's test fixture gives its transaction a `ledger_index`, which no rippled `ledger` answer prints inside a transaction"],
  [
    'xrpl/corpus/transactions/Payment-1A06B8E8.json',
    "Bithomp/xrpl-api's fixture for its own delivered-amount fallback (commit 07bb357 \"update parseDeliveredAmount\"): rippled's `delivered_amount` taken out",
  ],
  ['xrpl/corpus/transactions/NFTokenCreateOffer-37DD2EC6.json', "the library that recorded it added its own `balanceChanges` to rippled's answer"],
  ['xrpl/corpus/ledgers/mainnet-45136164.json', "the explorer's test mock lists the transactions by TransactionIndex; rippled lists a ledger's transaction tree in key order"],
]);

/** The position of a transaction in a ledger: what differs when a recorded transaction rides in a carrier ledger. */
const CARRIER_POSITION = /^\$(\.tx_json)?\.(ledger_index|ledger_hash|date|inLedger|close_time_iso|ctid)$/;

export interface Verdict {
  /** Differences no version change explains. */
  readonly unexplained: readonly Difference[];
  /** Differences a listed rippled version change explains. */
  readonly explained: readonly Difference[];
}

/**
 * The node's answer against rippled's recorded one. `inCarrier`: the recorded transaction is served
 * from a carrier ledger, not its own, so its position fields cannot be the recorded ones.
 */
export function judge(recorded: Json, served: Json, request: Json, inCarrier = false): Verdict {
  const found = differences(recorded, served, request).filter((difference) => !(inCarrier && CARRIER_POSITION.test(difference.path)));
  const answers = { recorded, served };
  const explained = found.filter((difference) => versionChange(difference, answers) !== undefined);
  return { unexplained: found.filter((difference) => versionChange(difference, answers) === undefined), explained };
}

/** What the figure counts: how many of each kind were identical (explained version changes aside), and how many exactly. */
export class Tally {
  private readonly counts = new Map<string, { identical: number; exact: number; total: number }>();

  add(kind: string, verdict: Verdict): void {
    const count = this.counts.get(kind) ?? { identical: 0, exact: 0, total: 0 };
    count.total++;
    if (verdict.unexplained.length === 0) count.identical++;
    if (verdict.unexplained.length === 0 && verdict.explained.length === 0) count.exact++;
    this.counts.set(kind, count);
  }

  get(kind: string): { identical: number; exact: number; total: number } {
    return this.counts.get(kind) ?? { identical: 0, exact: 0, total: 0 };
  }

  /** One line: `ledgers identical 68/68 (exactly 12), …`. */
  figure(): string {
    return [...this.counts.entries()].map(([kind, { identical, exact, total }]) => `${kind} identical ${identical}/${total} (exactly ${exact})`).join(', ');
  }
}
