/** The store's transaction records as the shared renderers' inputs (libs/rippled-api). */
import { decodeTransactionBlob, type ChainProfile } from '@ledger-node/chain';
import type { TransactionRecord } from '@ledger-node/contracts';
import { deliveredAmountOf, inRippledNotation, mptIssuanceIdOf, notationOf, type JsonObject, type LedgerPlace, type TransactionInput } from '@ledger-node/rippled-api';
import { hex } from './ledgers';

export function placeOfRecord(record: TransactionRecord): LedgerPlace {
  return { ledgerIndex: record.ledgerIndex, ledgerHash: hex(record.ledgerHash), closeTime: record.closeTimeRippleEpoch };
}

/**
 * A stored transaction as a renderer's input, in rippled's notation. Its JSON is decoded only when
 * a renderer reads it (binary answers never do), with rippled's `delivered_amount` and
 * `mpt_issuance_id` added to the metadata.
 */
export function transactionInput(record: TransactionRecord, profile: ChainProfile): TransactionInput {
  const txBlob = hex(record.txBlob);
  const metaBlob = hex(record.metaBlob);
  let txJson: JsonObject | undefined;
  const decodedTx = () => (txJson ??= decodeTransactionBlob(record.txBlob, profile));
  const decoded: TransactionInput = {
    hash: hex(record.hash),
    txBlob,
    metaBlob,
    index: record.txIndex,
    get txJson() {
      return decodedTx();
    },
    get metaJson() {
      const meta: JsonObject = profile.codec.decode(record.metaBlob);
      const delivered = deliveredAmountOf(decodedTx(), meta, placeOfRecord(record));
      if (delivered !== undefined) meta.delivered_amount = delivered;
      const issuanceId = mptIssuanceIdOf(decodedTx(), meta, profile);
      if (issuanceId !== undefined) meta.mpt_issuance_id = issuanceId;
      return meta;
    },
  };
  return inRippledNotation(decoded, notationOf(profile));
}
