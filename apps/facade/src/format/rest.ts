import type { LedgerRecord, TransactionRecord } from '@ledger-node/contracts';
import { closeTimeHuman, decodeLedgerHeader, RIPPLE_EPOCH_OFFSET, rippleTimeToIso, type ChainProfile } from '@ledger-node/chain';
import { metadataFields, transactionFields } from './records';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/** A transaction as the REST API shows it (after the Data API v2): hash, ledger, ISO date, tx and meta. */
export function restTransaction(record: TransactionRecord, profile: ChainProfile) {
  return {
    hash: hex(record.hash),
    ledger_index: record.ledgerIndex,
    ledger_hash: hex(record.ledgerHash),
    date: rippleTimeToIso(record.closeTimeRippleEpoch),
    tx: transactionFields(record, profile),
    meta: metadataFields(record, profile),
  };
}

/** A ledger as the REST API shows it; `transactions` holds hashes, objects (expand) or is left out. */
export function restLedger(record: LedgerRecord, detail: 'none' | 'hashes' | 'full', profile: ChainProfile) {
  const header = decodeLedgerHeader(record.headerBlob);
  return {
    ledger_hash: hex(record.ledgerHash),
    ledger_index: header.ledgerIndex,
    parent_hash: header.parentHash,
    total_coins: header.totalCoins.toString(),
    close_time: header.closeTime + RIPPLE_EPOCH_OFFSET,
    close_time_human: closeTimeHuman(header.closeTime),
    close_time_iso: rippleTimeToIso(header.closeTime),
    close_time_resolution: header.closeTimeResolution,
    close_flags: header.closeFlags,
    parent_close_time: header.parentCloseTime + RIPPLE_EPOCH_OFFSET,
    accounts_hash: header.accountHash,
    transactions_hash: header.transactionHash,
    transaction_count: record.transactionCount,
    ...(detail === 'hashes' ? { transactions: record.transactionHashes.map(hex) } : {}),
    ...(detail === 'full' ? { transactions: record.transactions.map((tx) => restTransaction(tx, profile)) } : {}),
  };
}
