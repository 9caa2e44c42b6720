/**
 * One stored ledger as the streams send it: its record with full transactions, read once from the
 * store and shared by every subscriber. What each API renders of it (a ledgerClosed message, a
 * transaction message per API version, a block object) is rendered once and kept with the ledger.
 */
import { decodeLedgerHeader, type ChainProfile, type LedgerHeader } from '@ledger-node/chain';
import type { LedgerRecord, TransactionRecord } from '@ledger-node/contracts';
import { affectedAccounts, type FeeSchedule, type LedgerPlace, type TransactionInput } from '@ledger-node/rippled-api';
import { transactionInput } from '../rippled/methods/records';

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex').toUpperCase();

/** One transaction of a streamed ledger, decoded when first read. */
export class StreamTransaction {
  private affected: Set<string> | undefined;
  readonly input: TransactionInput;

  constructor(
    readonly record: TransactionRecord,
    private readonly profile: ChainProfile,
  ) {
    this.input = transactionInput(record, profile);
  }

  /** Whether the transaction affects any of `accounts`. */
  affectsAny(accounts: ReadonlySet<string>): boolean {
    if (accounts.size === 0) return false;
    this.affected ??= affectedAccounts(this.input.txJson, this.input.metaJson, this.profile);
    for (const account of this.affected) if (accounts.has(account)) return true;
    return false;
  }
}

export class StreamLedger {
  readonly header: LedgerHeader;
  readonly ledgerIndex: number;
  /** Uppercase hex. */
  readonly ledgerHash: string;
  readonly place: LedgerPlace;
  /** In ledger order (TransactionIndex). */
  readonly transactions: readonly StreamTransaction[];
  private readonly rendered = new Map<string, unknown>();

  /**
   * @param validatedLedgers rippled's `complete_ledgers` text of the store when the ledger was read
   *   (the ledger stream's `validated_ledgers`).
   * @param fees the fees in force at the ledger (its FeeSettings object; the profile's where the
   *   store does not hold its state), which the ledger stream states.
   */
  constructor(
    readonly record: LedgerRecord,
    profile: ChainProfile,
    readonly validatedLedgers: string,
    readonly fees: FeeSchedule,
  ) {
    this.header = decodeLedgerHeader(record.headerBlob);
    this.ledgerIndex = record.ledgerIndex;
    this.ledgerHash = hex(record.ledgerHash);
    this.place = { ledgerIndex: this.ledgerIndex, ledgerHash: this.ledgerHash, closeTime: this.header.closeTime };
    this.transactions = [...record.transactions].sort((a, b) => a.txIndex - b.txIndex).map((tx) => new StreamTransaction(tx, profile));
  }

  /** What `render` makes of this ledger under `key`, made once. */
  memo<T>(key: string, render: () => T): T {
    if (this.rendered.has(key)) return this.rendered.get(key) as T;
    const value = render();
    this.rendered.set(key, value);
    return value;
  }
}
