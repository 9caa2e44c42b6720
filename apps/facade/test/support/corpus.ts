/**
 * The corpus of real recordings in fixtures/ (INDEX.md says where each came from): recorded ledgers
 * grouped into hash-chained runs, recorded transactions, and what a node must answer for each of
 * them, put in one canonical form so that answers compare field by field.
 */
import { transactionFromLedgerJson, transactionJsonOf, type ChainProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';

export type Json = Record<string, any>;

export interface RecordedLedgerFile {
  /** Path relative to fixtures/. */
  file: string;
  ledgerIndex: number;
  ledgerHash: string;
  parentHash: string;
  document: Json;
}

export interface RecordedTransaction {
  /** Path relative to fixtures/ (and the ledger's index when it came inside a ledger). */
  origin: string;
  hash: string;
  /** Serialized fields as recorded (API v1 flat, or v2 tx_json). */
  fields: Json;
  meta: Json;
}

/** The recorded ledgers in these files (paths relative to fixtures/). */
export function recordedLedgers(files: string[]): RecordedLedgerFile[] {
  return files.map((file) => {
    const document = readFixture<Json>(file);
    const ledger = document.ledger ?? document.result?.ledger;
    return {
      file,
      ledgerIndex: Number(ledger.ledger_index ?? document.ledger_index),
      ledgerHash: String(document.ledger_hash ?? ledger.ledger_hash ?? ledger.hash).toUpperCase(),
      parentHash: String(ledger.parent_hash).toUpperCase(),
      document,
    };
  });
}

/** Ledgers grouped into runs that chain by parent hash (each run is what one node can sync from one anchor). */
export function chainedRuns(ledgers: RecordedLedgerFile[]): RecordedLedgerFile[][] {
  const byIndex = [...new Map(ledgers.map((ledger) => [ledger.ledgerIndex, ledger])).values()].sort((a, b) => a.ledgerIndex - b.ledgerIndex);
  const runs: RecordedLedgerFile[][] = [];
  for (const ledger of byIndex) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    if (run && previous && previous.ledgerIndex + 1 === ledger.ledgerIndex && ledger.parentHash === previous.ledgerHash) run.push(ledger);
    else runs.push([ledger]);
  }
  return runs;
}

/** The transactions a recorded ledger holds. */
export function transactionsOf(ledger: RecordedLedgerFile, profile: ChainProfile): RecordedTransaction[] {
  const inner = ledger.document.ledger ?? ledger.document.result.ledger;
  return (inner.transactions ?? []).map((tx: Json) => recordedTransaction(tx, `${ledger.file}#${ledger.ledgerIndex}`, profile));
}

/** A `tx` result, an `account_tx` entry or an expanded ledger transaction, v1 or v2. */
export function recordedTransaction(tx: Json, origin: string, profile: ChainProfile): RecordedTransaction {
  const fields = transactionJsonOf(tx);
  const meta = tx.meta ?? tx.metaData;
  if (typeof meta !== 'object') throw new Error(`${origin}: the recording holds no JSON metadata`);
  // A ledger recorded without transaction hashes: the hash its transaction tree proves.
  const hash = tx.hash ?? fields.hash ?? transactionFromLedgerJson(tx, profile).hash;
  return { origin, hash: String(hash).toUpperCase(), fields, meta };
}

/** Recorded transactions that came without their ledger (served by the devnet in carrier ledgers). */
export function transactionFiles(files: string[], profile: ChainProfile): { file: string; tx: RecordedTransaction }[] {
  return files.map((file) => {
    const document = readFixture<Json>(file);
    return { file, tx: recordedTransaction(document.result ?? document, file, profile) };
  });
}

const BASE10_UINT64_FIELDS = new Set(['MaximumAmount', 'OutstandingAmount', 'MPTAmount', 'LockedAmount']);

/** A decimal in its shortest plain form ("1.50" and "15e-1" are both "1.5"). */
function canonicalDecimal(text: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = Number(exponentText) - fraction.length;
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  if (exponent >= 0) return sign + digits + '0'.repeat(exponent);
  const point = digits.length + exponent;
  return sign + (point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`);
}

/**
 * One form for recorded and served JSON alike: keys that are not serialized fields dropped (a field's
 * name starts with a capital, as the codec reads it: `hash`, `validated`, `delivered_amount`, a
 * client's `parsed_memo_type` are not), `DeliverMax` as `Amount`, path steps without rippled's
 * `type`/`type_hex` decoration, hex in upper case, UInt64 in 16 digits, issued values and Numbers as
 * plain decimals. Values themselves are never changed.
 */
export function canonical(value: unknown, profile: ChainProfile, key?: string): unknown {
  if (Array.isArray(value)) {
    if (key === 'Paths') return value.map((pathSteps: Json[]) => pathSteps.map(({ type: _type, type_hex: _typeHex, ...step }) => step));
    return value.map((member) => canonical(member, profile));
  }
  if (typeof value === 'object' && value !== null) {
    const object = value as Json;
    // An STObject (a transaction, its metadata, a member of an array); otherwise the value of one field (an amount, an issue).
    const fieldsObject = key === undefined || profile.definitions.field.fromString(key)?.type.name === 'STObject';
    const out: Json = {};
    for (const [name, member] of Object.entries(object)) {
      if (fieldsObject && !/^[A-Z]/.test(name)) continue;
      if (name === 'DeliverMax') {
        if (object.Amount === undefined) out.Amount = canonical(member, profile, 'Amount');
        continue;
      }
      out[name] = canonical(member, profile, name);
    }
    if (typeof out.value === 'string' && typeof out.currency === 'string') out.value = canonicalDecimal(out.value);
    return out;
  }
  if (typeof value !== 'string' || key === undefined) return value;
  const typeName = profile.definitions.field.fromString(key)?.type.name;
  if (typeName === 'UInt64' && !BASE10_UINT64_FIELDS.has(key) && /^[0-9A-Fa-f]{1,16}$/.test(value)) return value.toUpperCase().padStart(16, '0');
  if (typeName !== undefined && /^(Hash\d+|Blob|Vector256)$/.test(typeName)) return value.toUpperCase();
  // rippled before 3.0 printed a Number as its 16-digit mantissa and exponent (`1000000000000000e-4`);
  // today's rippled, like ripple-binary-codec and the node, prints `1e11`: the same number.
  if (typeName === 'Number') return canonicalDecimal(value);
  return value;
}

/** The serialized fields a node must show for a recorded transaction (SPEC §2.5: Flags and Sequence are integers, 0 when absent). */
export function expectedFields(tx: RecordedTransaction, profile: ChainProfile): Json {
  const fields = canonical(tx.fields, profile) as Json;
  return { Flags: 0, Sequence: 0, ...fields };
}

export function expectedMeta(tx: RecordedTransaction, profile: ChainProfile): Json {
  return canonical(tx.meta, profile) as Json;
}

/** An API v1 ledger recording in rippled's API v2 shape: each transaction as `tx_json` + `meta` + `hash`, Payments with `DeliverMax`. */
export function asApiV2(document: Json): Json {
  const ledger = document.ledger;
  const transactions = ledger.transactions.map(({ metaData, hash, ...fields }: Json) => {
    const { Amount, ...rest } = fields;
    const txJson = fields.TransactionType === 'Payment' ? { ...rest, DeliverMax: Amount } : fields;
    return { hash, meta: metaData, tx_json: txJson, validated: true };
  });
  return { ...document, ledger: { ...ledger, transactions } };
}
