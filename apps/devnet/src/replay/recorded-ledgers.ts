/**
 * Reads recorded ledgers: JSON files holding the `result` of rippled's `ledger` method with
 * `transactions` and `expand` (optionally `accounts`), as in the repository's fixtures/. Each
 * transaction is re-encoded with the profile's codec, so what the replay serves in binary hashes to
 * what was recorded. API v1 (flat fields + `metaData`) and v2 (`tx_json` + `meta`, `DeliverMax`)
 * shapes are read alike.
 *
 * A file may also hold one recorded transaction (the `result` of `tx`, v1 or v2, or an `account_tx` entry) that came without
 * its ledger. Each such transaction is served in a carrier ledger of its own, built here above the
 * recorded ledgers: its header is the devnet's (parent, transaction tree and hash computed, the
 * account state hash and coins carried over), its one transaction and metadata are the recording's
 * bytes, so a node reads back exactly what the network recorded.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  hashLedgerHeader,
  ledgerHeaderFromJson,
  transactionTreeRoot,
  ZERO_HASH,
  stateEntryFromLedgerJson,
  transactionFieldsFromJson,
  transactionFromLedgerJson,
  transactionJsonOf,
  type ChainProfile,
  type LedgerHeader,
} from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';
import type { ClosedLedger, ClosedTransaction, JsonObject, StateEntry } from '../engine/types';

export interface RecordedLedger extends ClosedLedger {
  /** File it was read from (a carrier ledger: the transaction's file). */
  file: string;
  /** A carrier ledger: built by the devnet around one recorded transaction. */
  carrier?: boolean;
  /** Ascending by index; undefined when the recording has no `accountState`. */
  state?: StateEntry[];
}

/** A file that could not be served, or a recorded value that does not recompute. */
export interface RecordingProblem {
  file: string;
  reason: string;
}

export interface RecordedLedgers {
  ledgers: RecordedLedger[];
  /** Files skipped because they do not parse as a recorded ledger. */
  failures: RecordingProblem[];
  /** Served anyway, but a recorded hash does not recompute from the recorded content. */
  warnings: RecordingProblem[];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The ledger object inside a file: `{result: {ledger}}`, `{ledger}` or the ledger itself. */
function ledgerObjectOf(document: unknown): { ledger: JsonObject; outer: JsonObject } {
  if (!isObject(document)) throw new Error('the file does not hold a JSON object');
  const outer = isObject(document.result) ? document.result : document;
  if (isObject(outer.ledger)) return { ledger: outer.ledger, outer };
  if (outer.account_hash !== undefined) return { ledger: outer, outer };
  throw new Error('no `ledger` object (expected the result of rippled `ledger` with transactions and expand)');
}

function recordedTransaction(tx: unknown, position: number, profile: ChainProfile, warnings: string[]): ClosedTransaction {
  if (!isObject(tx)) throw new Error(`transaction #${position} is not expanded (the recording needs "expand": true)`);
  const { hash, txBlob, metaBlob } = transactionFromLedgerJson(tx, profile);
  const txJson = typeof tx.tx_blob === 'string' ? profile.codec.decode(txBlob) : transactionFieldsFromJson(transactionJsonOf(tx));
  const recordedMeta = tx.metaData ?? tx.meta ?? tx.meta_blob;
  const metaJson: JsonObject = isObject(recordedMeta) ? recordedMeta : profile.codec.decode(metaBlob);
  const txIndex = metaJson.TransactionIndex;
  if (typeof txIndex !== 'number') throw new Error(`transaction ${hash} has no TransactionIndex in its metadata`);
  const recordedHash = tx.hash ?? transactionJsonOf(tx).hash;
  if (typeof recordedHash === 'string' && recordedHash.toUpperCase() !== hash) {
    warnings.push(`transaction ${recordedHash} re-encodes to hash ${hash}`);
  }
  return { hash, txBlob, metaBlob, txJson, metaJson, index: txIndex };
}

/** A recorded `tx` result (v1 flat fields or v2 `tx_json`, with its metadata) or `account_tx` entry, or undefined for anything else. */
function transactionObjectOf(document: unknown): JsonObject | undefined {
  if (!isObject(document)) return undefined;
  const tx = isObject(document.result) ? document.result : document;
  const hasMeta = tx.meta !== undefined || tx.metaData !== undefined || tx.meta_blob !== undefined;
  const hasFields = typeof transactionJsonOf(tx).TransactionType === 'string' || typeof tx.tx_blob === 'string';
  return hasMeta && hasFields && tx.ledger === undefined ? tx : undefined;
}

/** Parses one recorded ledger file; throws with the reason when it cannot be served. */
export function readRecordedLedger(file: string, profile: ChainProfile): { ledger: RecordedLedger; warnings: string[] } {
  return recordedLedgerOf(JSON.parse(readFileSync(file, 'utf8')), file, profile);
}

function recordedLedgerOf(document: unknown, file: string, profile: ChainProfile): { ledger: RecordedLedger; warnings: string[] } {
  const { ledger: ledgerJson, outer } = ledgerObjectOf(document);
  const header = ledgerHeaderFromJson(ledgerJson);
  const recordedHash = ledgerJson.ledger_hash ?? ledgerJson.hash ?? outer.ledger_hash;
  if (typeof recordedHash !== 'string' || !/^[0-9A-Fa-f]{64}$/.test(recordedHash)) {
    throw new InvalidParams('the ledger has no ledger_hash', 'ledger_hash');
  }
  const hash = recordedHash.toUpperCase();
  const warnings: string[] = [];
  const recomputedHash = hashLedgerHeader(header);
  if (recomputedHash !== hash) warnings.push(`ledger_hash ${hash} does not recompute from the header (got ${recomputedHash})`);

  const recordedTransactions = ledgerJson.transactions ?? [];
  if (!Array.isArray(recordedTransactions)) throw new Error('`transactions` is not an array');
  const transactions = recordedTransactions
    .map((tx, position) => recordedTransaction(tx, position, profile, warnings))
    .sort((a, b) => a.index - b.index);

  let state: StateEntry[] | undefined;
  if (Array.isArray(ledgerJson.accountState)) {
    state = ledgerJson.accountState
      .map((entry): StateEntry => {
        if (!isObject(entry)) throw new Error('an accountState entry is not expanded');
        const { index, blob } = stateEntryFromLedgerJson(entry, profile);
        const { index: _index, ...json } = entry;
        return { index, blob, json };
      })
      .sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
  }
  return { ledger: { file, header, hash, transactions, state }, warnings };
}

/** Every `*.json` file of a folder, parsed; bad files are listed with their name and skipped. */
export function readRecordedLedgers(folder: string, profile: ChainProfile): RecordedLedgers {
  let names: string[];
  try {
    if (!statSync(folder).isDirectory()) throw new Error('not a directory');
    names = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    throw new InvalidParams(`-replay ${folder}: ${reasonOf(error)}`, 'replay');
  }
  const ledgers: RecordedLedger[] = [];
  const failures: RecordingProblem[] = [];
  const warnings: RecordingProblem[] = [];
  const byIndex = new Map<number, RecordedLedger>();
  const carried: { file: string; tx: ClosedTransaction }[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      const document: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const recordedTx = transactionObjectOf(document);
      if (recordedTx !== undefined) {
        const txWarnings: string[] = [];
        carried.push({ file, tx: recordedTransaction(recordedTx, 0, profile, txWarnings) });
        warnings.push(...txWarnings.map((reason) => ({ file: name, reason })));
        continue;
      }
      const read = recordedLedgerOf(document, file, profile);
      warnings.push(...read.warnings.map((reason) => ({ file: name, reason })));
      const ledgerIndex = read.ledger.header.ledgerIndex;
      const earlier = byIndex.get(ledgerIndex);
      if (earlier) {
        failures.push({ file: name, reason: `ledger ${ledgerIndex} is already served from ${path.basename(earlier.file)}` });
        continue;
      }
      byIndex.set(ledgerIndex, read.ledger);
      ledgers.push(read.ledger);
    } catch (error) {
      failures.push({ file: name, reason: reasonOf(error) });
    }
  }
  ledgers.sort((a, b) => a.header.ledgerIndex - b.header.ledgerIndex);
  ledgers.push(...carrierLedgers(ledgers.at(-1), carried, profile));
  return { ledgers, failures, warnings };
}

/** Where carrier ledgers start when no recorded ledger is below them. */
const FIRST_CARRIER_INDEX = 2;
/** Seconds between carrier ledgers' close times. */
const CARRIER_CLOSE_INTERVAL = 10;

/** One ledger per recorded transaction, chained above `below` (the newest recorded ledger) in file-name order. */
function carrierLedgers(below: RecordedLedger | undefined, carried: { file: string; tx: ClosedTransaction }[], profile: ChainProfile): RecordedLedger[] {
  const carriers: RecordedLedger[] = [];
  let parent: { header: LedgerHeader; hash: string } = below ?? {
    hash: ZERO_HASH,
    header: {
      ledgerIndex: FIRST_CARRIER_INDEX - 1,
      totalCoins: profile.genesis.balanceDrops,
      parentHash: ZERO_HASH,
      transactionHash: ZERO_HASH,
      accountHash: ZERO_HASH,
      parentCloseTime: 0,
      closeTime: 0,
      closeTimeResolution: CARRIER_CLOSE_INTERVAL,
      closeFlags: 0,
    },
  };
  for (const { file, tx } of carried) {
    const header: LedgerHeader = {
      ...parent.header,
      ledgerIndex: parent.header.ledgerIndex + 1,
      parentHash: parent.hash,
      transactionHash: transactionTreeRoot([tx]),
      parentCloseTime: parent.header.closeTime,
      closeTime: parent.header.closeTime + CARRIER_CLOSE_INTERVAL,
      closeTimeResolution: CARRIER_CLOSE_INTERVAL,
      closeFlags: 0,
    };
    const carrier: RecordedLedger = { file, carrier: true, header, hash: hashLedgerHeader(header), transactions: [tx] };
    carriers.push(carrier);
    parent = carrier;
  }
  return carriers;
}
