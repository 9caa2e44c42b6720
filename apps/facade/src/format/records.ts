import { SubmissionState, type LedgerRecord, type TransactionRecord } from '@ledger-node/contracts';
import { closeTimeHuman, decodeLedgerHeader, decodeTransactionBlob, type ChainProfile, type SubmissionStateName } from '@ledger-node/chain';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/**
 * Transaction fields as the chain recorded them (every field of every type), decoded with the profile.
 * SPEC §2.5 lists Flags and Sequence as integers: a transaction serialized without one shows 0, its
 * default value.
 */
export function transactionFields(record: TransactionRecord, profile: ChainProfile): Record<string, unknown> {
  const fields = decodeTransactionBlob(record.txBlob, profile);
  fields.Flags ??= 0;
  fields.Sequence ??= 0;
  return fields;
}

export function metadataFields(record: TransactionRecord, profile: ChainProfile): Record<string, unknown> {
  return profile.codec.decode(record.metaBlob);
}

/** SPEC §2.5: the transaction's fields plus where it sits (rippled's `tx` answer without the metadata). */
export function transactionObject(record: TransactionRecord, profile: ChainProfile) {
  return {
    ...transactionFields(record, profile),
    date: record.closeTimeRippleEpoch,
    hash: hex(record.hash),
    inLedger: record.ledgerIndex,
    ledger_hash: hex(record.ledgerHash),
    ledger_index: record.ledgerIndex,
    validated: true,
  };
}

/**
 * SPEC §2.6: the metadata (AffectedNodes of every kind, TransactionIndex, TransactionResult…) and the
 * hash. Like rippled, a successful Payment's receipt also says what arrived: `delivered_amount` is
 * the recorded DeliveredAmount (partial payments) or else the Amount.
 */
export function receiptObject(record: TransactionRecord, profile: ChainProfile) {
  const meta = metadataFields(record, profile);
  const receipt: Record<string, unknown> = { ...meta, hash: hex(record.hash) };
  if (meta.TransactionResult === 'tesSUCCESS') {
    const tx = transactionFields(record, profile);
    if (tx.TransactionType === 'Payment') receipt.delivered_amount = meta.DeliveredAmount ?? tx.Amount;
  }
  return receipt;
}

/**
 * SPEC §2.4. Inside `ledger`, `ledger_index`/`seqNum` are decimal strings and `totalCoins`
 * equals `total_coins`, as rippled's older `ledger` answer printed them; outside, an integer.
 * `transactions` holds hashes, or with `full` each transaction's fields plus `hash` and `metaData`
 * (rippled's expanded form).
 */
export function blockObject(record: LedgerRecord, full: boolean, profile: ChainProfile) {
  const header = decodeLedgerHeader(record.headerBlob);
  const ledgerHash = hex(record.ledgerHash);
  const transactions = full
    ? record.transactions.map((tx) => ({ ...transactionFields(tx, profile), hash: hex(tx.hash), metaData: metadataFields(tx, profile) }))
    : record.transactionHashes.map(hex);
  return {
    ledger: {
      accepted: true,
      account_hash: header.accountHash,
      close_time: header.closeTime,
      close_time_human: closeTimeHuman(header.closeTime),
      close_time_resolution: header.closeTimeResolution,
      closed: true,
      hash: ledgerHash,
      ledger_hash: ledgerHash,
      ledger_index: String(header.ledgerIndex),
      parent_hash: header.parentHash,
      seqNum: String(header.ledgerIndex),
      totalCoins: header.totalCoins.toString(),
      total_coins: header.totalCoins.toString(),
      transaction_hash: header.transactionHash,
      transactions,
    },
    ledger_hash: ledgerHash,
    ledger_index: header.ledgerIndex,
    validated: true,
  };
}

/** A tracked submission's state as the REST API and the submit-and-wait errors name it. */
const submissionStateNames: Partial<Record<SubmissionState, SubmissionStateName>> = {
  [SubmissionState.PENDING]: 'pending',
  [SubmissionState.HELD]: 'held',
  [SubmissionState.VALIDATED]: 'validated',
  [SubmissionState.EXPIRED]: 'expired',
  [SubmissionState.REJECTED]: 'rejected',
  [SubmissionState.FAILED]: 'failed',
};

/** The name of a submission state from the submission service (`failed` for one it does not report). */
export function submissionStateName(state: SubmissionState): SubmissionStateName {
  return submissionStateNames[state] ?? 'failed';
}
