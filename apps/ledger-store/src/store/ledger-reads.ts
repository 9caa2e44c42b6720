/** Reads of stored ledgers and transactions: by index, hash or tag; one, several, or by position. */
import { LedgerTag, TxDetail, type LedgerEvidence, type LedgerRecord, type LedgerSelector, type TransactionRecord } from '@ledger-node/contracts';
import { Internal, InvalidParams, NotFound } from '@ledger-node/errors';
import type { LedgerBackend } from '../backend/backend';
import { closeTimeOf, type StoredHeader, type StoredTransaction } from '../backend/records';
import type { Holdings } from './holdings';

/** GetTransactions answers at most this many hashes per call (ledgerstore.proto). */
export const MAX_TRANSACTIONS_PER_CALL = 1000;
/** GetLedgerRange answers at most this many ledgers per call (ledgerstore.proto). */
export const MAX_LEDGERS_PER_RANGE = 256;
/** A GetLedgerRange answer stops before the ledger that would take its records past this (ledgerstore.proto). */
export const MAX_RANGE_ANSWER_BYTES = 16 << 20;

/** A stored ledger range's records, and which of them have evidence of their own (GetLedgerRange). */
export interface LedgersRead {
  ledgers: LedgerRecord[];
  truncated: boolean;
  evidenced: number[];
}

export class LedgerReads {
  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
  ) {}

  /** The stored ledger a selector names; undefined when none is stored there, or only one nothing proved yet (unproven.ts). */
  async resolve(selector: LedgerSelector | undefined, field = 'ledger'): Promise<StoredHeader | undefined> {
    const header = await this.resolveStored(selector, field);
    return header && !this.holdings.unproven(header.ledgerIndex) ? header : undefined;
  }

  private async resolveStored(selector: LedgerSelector | undefined, field: string): Promise<StoredHeader | undefined> {
    const choice = selector?.selector;
    if (!choice) throw new InvalidParams(`${field} must name a ledger by index, hash or tag`, field);
    switch (choice.$case) {
      case 'index':
        return this.backend.header(choice.index);
      case 'hash': {
        if (choice.hash.length !== 32) throw new InvalidParams(`${field}.hash must be 32 bytes, got ${choice.hash.length}`, `${field}.hash`);
        const ledgerIndex = await this.backend.ledgerIndexOfHash(choice.hash);
        return ledgerIndex === undefined ? undefined : this.backend.header(ledgerIndex);
      }
      case 'tag': {
        const ledgerIndex = this.indexOfTag(choice.tag, `${field}.tag`);
        return ledgerIndex === undefined ? undefined : this.backend.header(ledgerIndex);
      }
    }
  }

  /**
   * The store holds validated ledgers only, so every tag but EARLIEST is the highest stored ledger
   * (common.proto LedgerTag: there is no open ledger to be CURRENT or PENDING).
   */
  private indexOfTag(tag: LedgerTag, field: string): number | undefined {
    switch (tag) {
      case LedgerTag.EARLIEST:
        return this.holdings.lowest();
      case LedgerTag.VALIDATED:
      case LedgerTag.CLOSED:
      case LedgerTag.CURRENT:
      case LedgerTag.LATEST:
      case LedgerTag.PENDING:
        return this.holdings.highest();
      default:
        throw new InvalidParams(`${field} must be one of VALIDATED, CLOSED, CURRENT, EARLIEST, LATEST, PENDING`, field);
    }
  }

  async ledgerRecord(header: StoredHeader, detail: TxDetail): Promise<LedgerRecord> {
    const record: LedgerRecord = {
      ledgerIndex: header.ledgerIndex,
      ledgerHash: header.ledgerHash,
      headerBlob: header.header,
      transactionCount: header.transactionCount,
      transactionHashes: [],
      transactions: [],
    };
    if (detail !== TxDetail.HASHES && detail !== TxDetail.FULL) return record;
    const hashes = await this.backend.ledgerTransactionHashes(header.ledgerIndex);
    if (detail === TxDetail.HASHES) return { ...record, transactionHashes: hashes };
    const transactions = await this.backend.transactions(hashes);
    return { ...record, transactions: transactions.map((tx) => transactionRecord(requireStored(tx, header.ledgerIndex), header)) };
  }

  async getLedger(selector: LedgerSelector | undefined, detail: TxDetail): Promise<LedgerRecord | undefined> {
    const header = await this.resolve(selector);
    return header && this.ledgerRecord(header, detail);
  }

  /**
   * The stored ledgers from `first` on, consecutive, up to `last` (at most MAX_LEDGERS_PER_RANGE):
   * the answer ends before a ledger not stored (or not yet proven), or, truncated, before the one
   * whose records would take it past `maxBytes` (always after the first).
   */
  async getLedgerRange(first: number, last: number, detail: TxDetail, maxBytes = MAX_RANGE_ANSWER_BYTES): Promise<LedgersRead> {
    if (!Number.isInteger(first) || first < 1) throw new InvalidParams(`first must be a ledger index (1 or more), got ${first}`, 'first');
    if (!Number.isInteger(last) || last < first || last - first >= MAX_LEDGERS_PER_RANGE) {
      throw new InvalidParams(`last must be from first to first + ${MAX_LEDGERS_PER_RANGE - 1} (${first}-${first + MAX_LEDGERS_PER_RANGE - 1}), got ${last}`, 'last');
    }
    const ledgers: LedgerRecord[] = [];
    let bytes = 0;
    let truncated = false;
    for (const header of await this.backend.headersBetween(first, last)) {
      if (header.ledgerIndex !== first + ledgers.length || this.holdings.unproven(header.ledgerIndex)) break;
      const record = await this.ledgerRecord(header, detail);
      bytes += recordBytes(record);
      if (ledgers.length > 0 && bytes > maxBytes) {
        truncated = true;
        break;
      }
      ledgers.push(record);
    }
    const evidenced = ledgers.length === 0 ? [] : await this.backend.evidencedBetween(first, first + ledgers.length - 1);
    return { ledgers, truncated, evidenced };
  }

  /** The evidence stored with the ledger a selector names (undefined: it was proven another way); NotFound when no ledger is stored there. */
  async getLedgerEvidence(selector: LedgerSelector | undefined): Promise<{ header: StoredHeader; evidence: LedgerEvidence | undefined }> {
    const header = await this.resolve(selector);
    if (!header) throw new NotFound('the ledger named is not stored', { ledger: describeSelector(selector) });
    return { header, evidence: await this.backend.ledgerEvidence(header.ledgerIndex) };
  }

  async getTransaction(hash: Buffer): Promise<TransactionRecord | undefined> {
    if (hash.length !== 32) throw new InvalidParams(`hash must be 32 bytes, got ${hash.length}`, 'hash');
    return (await this.getTransactions([hash]))[0];
  }

  /**
   * The stored transactions among `hashes`, in the order asked (a hash not stored has no entry):
   * one multi-get for the transactions and one for the headers of their ledgers.
   */
  async getTransactions(hashes: Buffer[]): Promise<TransactionRecord[]> {
    if (hashes.length > MAX_TRANSACTIONS_PER_CALL) throw new InvalidParams(`hashes holds more than ${MAX_TRANSACTIONS_PER_CALL} hashes`, 'hashes');
    hashes.forEach((hash, position) => {
      if (hash.length !== 32) throw new InvalidParams(`hashes[${position}] must be 32 bytes, got ${hash.length}`, `hashes[${position}]`);
    });
    const stored = (await this.backend.transactions(hashes)).filter((tx): tx is StoredTransaction => tx !== undefined && !this.holdings.unproven(tx.ledgerIndex));
    const headers = await this.backend.headers([...new Set(stored.map((tx) => tx.ledgerIndex))]);
    const headerByIndex = new Map(headers.map((header) => [header.ledgerIndex, header]));
    return stored.flatMap((tx) => {
      const header = headerByIndex.get(tx.ledgerIndex);
      return header ? [transactionRecord(tx, header)] : [];
    });
  }

  async getTransactionByIndex(selector: LedgerSelector | undefined, txIndex: number): Promise<TransactionRecord | undefined> {
    const header = await this.resolve(selector);
    if (!header) return undefined;
    const hash = await this.backend.transactionHashAt(header.ledgerIndex, txIndex);
    if (!hash) return undefined;
    const [tx] = await this.backend.transactions([hash]);
    return transactionRecord(requireStored(tx, header.ledgerIndex), header);
  }
}

/** About the bytes a ledger's record takes in an answer. */
function recordBytes(record: LedgerRecord): number {
  let bytes = record.headerBlob.length + record.ledgerHash.length + 32 * record.transactionHashes.length;
  for (const tx of record.transactions) bytes += tx.hash.length + tx.txBlob.length + tx.metaBlob.length + 64;
  return bytes;
}

/** A selector as a NotFound's data names it: the index, the hash in hex, or the tag. */
function describeSelector(selector: LedgerSelector | undefined): number | string | undefined {
  const choice = selector?.selector;
  if (choice?.$case === 'hash') return choice.hash.toString('hex').toUpperCase();
  return choice?.$case === 'index' ? choice.index : choice?.tag;
}

export function requireStored(tx: StoredTransaction | undefined, ledgerIndex: number): StoredTransaction {
  // A ledger's rows and its transactions are written in one batch: a missing one is corruption.
  if (!tx) throw new Internal(`ledger ${ledgerIndex} lists a transaction that is not stored`);
  return tx;
}

/** A stored transaction as the contract returns it, with its ledger's hash and close time. */
export function transactionRecord(tx: StoredTransaction, header: StoredHeader): TransactionRecord {
  return {
    hash: tx.hash,
    txBlob: tx.txBlob,
    metaBlob: tx.metaBlob,
    ledgerIndex: tx.ledgerIndex,
    txIndex: tx.txIndex,
    ledgerHash: header.ledgerHash,
    closeTimeRippleEpoch: closeTimeOf(header.header),
  };
}
