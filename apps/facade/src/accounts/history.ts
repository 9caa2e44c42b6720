import type { TransactionRecord } from '@ledger-node/contracts';
import { rippleTimeToIso, type ChainProfile } from '@ledger-node/chain';
import { transactionFields } from '../format/records';

type Amount = string | { currency: string; issuer: string; value: string };

/** The amount a transaction moves, by type: a payment's Amount, a trust line's limit, an offer's TakerGets. */
function amountOf(tx: Record<string, any>): Amount | undefined {
  return tx.Amount ?? tx.LimitAmount ?? tx.TakerGets;
}

/**
 * SPEC §2.7: one entry of an account's history. Native amounts are integer drops; issued amounts
 * are the decimal value with their currency and issuer.
 */
export function historyEntry(record: TransactionRecord, profile: ChainProfile) {
  const tx = transactionFields(record, profile) as Record<string, any>;
  const amount = amountOf(tx);
  const issued = typeof amount === 'object' ? { currency: amount.currency, issuer: amount.issuer } : {};
  return {
    amount: amount === undefined ? '0' : typeof amount === 'string' ? amount : amount.value,
    ...issued,
    date: rippleTimeToIso(record.closeTimeRippleEpoch),
    from_address: String(tx.Account),
    hash: record.hash.toString('hex').toUpperCase(),
    to_address: String(tx.Destination ?? (typeof tx.LimitAmount === 'object' ? tx.LimitAmount.issuer : '')),
    type: String(tx.TransactionType),
  };
}
