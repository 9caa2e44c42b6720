/**
 * The check that runs before any transaction is signed: only the transaction types and fields on
 * the allow-list, only for the signing account, and never a fee above the cap. Like a validator's
 * slashing protection, it refuses with a coded error rather than signing something dangerous.
 */
import { InvalidParams } from '@ledger-node/errors';

/** Fields every allowed transaction may carry (rippled: the common fields of every transaction). */
const COMMON_FIELDS = ['TransactionType', 'Account', 'Fee', 'Sequence', 'LastLedgerSequence', 'Flags', 'SourceTag', 'Memos', 'NetworkID', 'SigningPubKey'] as const;

/** The transaction types the keystore signs, and the fields each may carry besides the common ones. */
export const TRANSACTION_ALLOW_LIST: Readonly<Record<string, readonly string[]>> = {
  Payment: ['Destination', 'Amount', 'DestinationTag', 'SendMax', 'DeliverMin', 'InvoiceID'],
  TrustSet: ['LimitAmount', 'QualityIn', 'QualityOut'],
  AccountSet: ['SetFlag', 'ClearFlag', 'Domain', 'EmailHash', 'TransferRate'],
};

/** Highest fee signed: one native unit (1 XRP / 1 SWT). The reference fee is 10 drops. */
export const FEE_CAP_DROPS = 1_000_000n;

/**
 * rippled asfDisableMaster: after it only a regular key or signer list can sign, and the keystore
 * holds neither, so signing it would lock the account for good.
 */
const ASF_DISABLE_MASTER = 4;

export type TransactionRefusalCode =
  | 'TX_NOT_AN_OBJECT'
  | 'TX_TYPE_NOT_ALLOWED'
  | 'TX_FIELD_NOT_ALLOWED'
  | 'TX_FIELD_MISSING'
  | 'TX_ACCOUNT_MISMATCH'
  | 'TX_SIGNING_KEY_MISMATCH'
  | 'TX_FEE_INVALID'
  | 'TX_FEE_ABOVE_CAP'
  | 'TX_DISABLES_MASTER_KEY';

/** A transaction the keystore will not sign; `details.data.code` says why. */
export class TransactionRefused extends InvalidParams {
  readonly code: TransactionRefusalCode;

  constructor(code: TransactionRefusalCode, message: string, field?: string) {
    super(`transaction refused: ${message}`, field, { code });
    this.code = code;
  }
}

/**
 * Checks the fields against the allow-list and the signing account; returns the fields to encode,
 * with Account and SigningPubKey set from the key. Without the public key (before the key is
 * unlocked) it checks everything but SigningPubKey, so a refused transaction never costs a decryption.
 */
export function guardTransaction(fields: unknown, signer: { address: string; publicKey?: string }): Record<string, unknown> {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new TransactionRefused('TX_NOT_AN_OBJECT', 'tx_json must be a JSON object');
  }
  const tx = fields as Record<string, unknown>;
  const type = tx.TransactionType;
  if (typeof type !== 'string' || !Object.hasOwn(TRANSACTION_ALLOW_LIST, type)) {
    throw new TransactionRefused(
      'TX_TYPE_NOT_ALLOWED',
      `TransactionType ${JSON.stringify(type)} is not one of ${Object.keys(TRANSACTION_ALLOW_LIST).join(', ')}`,
      'TransactionType',
    );
  }
  const allowed = new Set<string>([...COMMON_FIELDS, ...TRANSACTION_ALLOW_LIST[type]!]);
  for (const field of Object.keys(tx)) {
    if (!allowed.has(field)) throw new TransactionRefused('TX_FIELD_NOT_ALLOWED', `field ${field} is not allowed in a ${type}`, field);
  }
  for (const field of ['Fee', 'Sequence'] as const) {
    if (tx[field] === undefined) throw new TransactionRefused('TX_FIELD_MISSING', `field ${field} is required`, field);
  }
  if (tx.Account !== undefined && tx.Account !== signer.address) {
    throw new TransactionRefused('TX_ACCOUNT_MISMATCH', `Account ${String(tx.Account)} is not the signing account ${signer.address}`, 'Account');
  }
  if (tx.SigningPubKey !== undefined && signer.publicKey !== undefined && String(tx.SigningPubKey).toUpperCase() !== signer.publicKey.toUpperCase()) {
    throw new TransactionRefused('TX_SIGNING_KEY_MISMATCH', "SigningPubKey is not the signing account's public key", 'SigningPubKey');
  }
  // rippled: Fee is a native amount in drops, written as a decimal string in JSON.
  if (typeof tx.Fee !== 'string' || !/^\d{1,19}$/.test(tx.Fee)) {
    throw new TransactionRefused('TX_FEE_INVALID', 'Fee must be a decimal string of drops', 'Fee');
  }
  if (BigInt(tx.Fee) > FEE_CAP_DROPS) {
    throw new TransactionRefused('TX_FEE_ABOVE_CAP', `Fee ${tx.Fee} drops is above the cap of ${FEE_CAP_DROPS} drops`, 'Fee');
  }
  if (type === 'AccountSet' && Number(tx.SetFlag) === ASF_DISABLE_MASTER) {
    throw new TransactionRefused('TX_DISABLES_MASTER_KEY', 'SetFlag asfDisableMaster would lock the account: the keystore holds only its master key', 'SetFlag');
  }
  return signer.publicKey === undefined ? { ...tx, Account: signer.address } : { ...tx, Account: signer.address, SigningPubKey: signer.publicKey };
}
