/**
 * rippled `tx` (by hash, or by CTID) and `transaction_entry` over the stored, validated
 * transactions. A transaction not stored is `txnNotFound`; with `min_ledger`/`max_ledger` it says
 * `searched_all` as Clio does: true when the store holds every ledger of that range, so the
 * transaction is surely not in it. With -network_id, each answer carries the transaction's CTID
 * and a CTID of another network is `wrongNetwork`; without it the node states no network and gives
 * no CTID. This node's extension: `"proof": true` adds `proof`, the transaction's XPOP (as
 * jt_getTransactionProof answers it); a ledger it cannot prove is `lgrNotFound`, saying why.
 */
import { TxDetail, type TransactionRecord } from '@ledger-node/contracts';
import { isLedgerNodeError } from '@ledger-node/errors';
import { BareRpcError, closeTimeIso, invalidField, isHash256, missingField, notationOf, readBoolean, rippledNotation, RpcError, txJsonV1, txJsonV2, txResult, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledContext, RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { placeOfRecord, transactionInput } from './records';
import { syncSkipLists, transactionProof } from '../../proofs/transaction-proof';

/** rippled and Clio: a `min_ledger`/`max_ledger` range spans at most this many ledgers. */
const MAX_SEARCH_RANGE = 1000;

function readLedgerBound(params: JsonObject, field: 'min_ledger' | 'max_ledger'): number | undefined {
  const value = params[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 0xffffffff) throw invalidField(field, 'unsigned integer');
  return value;
}

/** A CTID (XLS-37): 0xC, 28-bit ledger index, 16-bit TransactionIndex, 16-bit network id. */
function readCtid(value: unknown): { ledgerIndex: number; txIndex: number; networkId: number } {
  if (typeof value !== 'string' || !/^[Cc][0-9A-Fa-f]{15}$/.test(value)) throw new RpcError('invalidParams');
  const bits = BigInt(`0x${value}`);
  return { ledgerIndex: Number((bits >> 32n) & 0x0fffffffn), txIndex: Number((bits >> 16n) & 0xffffn), networkId: Number(bits & 0xffffn) };
}

export const tx: RippledMethod = async ({ params, apiVersion }, context) => {
  const binary = readBoolean(params, 'binary');
  const withProof = readBoolean(params, 'proof');
  const hash = params.transaction;
  const ctid = params.ctid;
  if (hash !== undefined && ctid !== undefined) throw new RpcError('invalidParams', 'Specify only one of transaction and ctid.');
  if (hash === undefined && ctid === undefined) throw missingField('transaction');
  const minLedger = readLedgerBound(params, 'min_ledger');
  const maxLedger = readLedgerBound(params, 'max_ledger');
  const rangeGiven = minLedger !== undefined && maxLedger !== undefined;
  if (rangeGiven) {
    if (minLedger > maxLedger) throw new RpcError('invalidLgrRange');
    if (maxLedger - minLedger > MAX_SEARCH_RANGE) throw new RpcError('excessiveLgrRange');
  }

  let record: TransactionRecord | undefined;
  if (ctid !== undefined) {
    const position = readCtid(ctid);
    // As Clio: checked when the node states a network.
    if (context.networkId !== undefined && position.networkId !== context.networkId) {
      throw new RpcError('wrongNetwork', `Wrong network. You should submit this request to a node running on NetworkID: ${position.networkId}`);
    }
    record = await context.queries.transactionAt({ selector: { $case: 'index', index: position.ledgerIndex } }, position.txIndex);
  } else {
    if (!isHash256(hash)) throw new RpcError('invalidParams', "Invalid field 'transaction'.");
    record = await context.queries.transaction(Buffer.from(hash, 'hex'));
  }
  if (!record) {
    if (!rangeGiven || ctid !== undefined) throw new RpcError('txnNotFound');
    const { completeRanges } = await context.queries.status();
    const searchedAll = completeRanges.some((range) => range.first <= minLedger && maxLedger <= range.last);
    throw new RpcError('txnNotFound', undefined, { searched_all: searchedAll });
  }
  const result = txResult(placeOfRecord(record), transactionInput(record, context.profile), { apiVersion, binary, networkId: context.networkId });
  return withProof ? { ...result, proof: await proofOf(record, context) } : result;
};

async function proofOf(record: TransactionRecord, { queries, profile, clients }: RippledContext): Promise<unknown> {
  try {
    const answer = await transactionProof(record.hash, queries, profile, syncSkipLists(clients));
    // Removed by bounded history since it was read.
    if (!answer) throw new RpcError('txnNotFound');
    return JSON.parse(answer.json);
  } catch (error) {
    if (isLedgerNodeError(error) && error.kind === 'out_of_range') throw new RpcError('lgrNotFound', error.message);
    throw error;
  }
}

/**
 * rippled `transaction_entry` (TransactionEntry.cpp): a transaction of one given ledger
 * (ledger_hash or ledger_index, not `current`), with its metadata, always in JSON. Its refusals
 * after the ledger are bare tokens beside the ledger's fields, as rippled sets them.
 */
export const transactionEntry: RippledMethod = async ({ params, apiVersion }, context) => {
  if (params.ledger_index === 'current') {
    throw params.tx_hash === undefined ? new BareRpcError('fieldNotFoundTransaction') : new BareRpcError('notYetImplemented');
  }
  const resolved = await resolveLedger(params, context, TxDetail.NONE);
  const fields = ledgerFields(resolved.place);
  const hash = params.tx_hash;
  if (hash === undefined) throw new BareRpcError('fieldNotFoundTransaction', fields);
  if (!isHash256(hash)) throw new BareRpcError('malformedRequest', fields);
  const record = await context.queries.transaction(Buffer.from(hash, 'hex'));
  if (!record || record.ledgerIndex !== resolved.header.ledgerIndex) throw new BareRpcError('transactionNotFound', fields);
  const tx = transactionInput(record, context.profile);
  // The metadata as stored: unlike `tx`, rippled adds no delivered_amount here.
  const meta = rippledNotation(context.profile.codec.decode(tx.metaBlob), notationOf(context.profile));
  if (apiVersion > 1) {
    return { ...fields, close_time_iso: closeTimeIso(resolved.header.closeTime), hash: tx.hash, meta, tx_json: txJsonV2(tx) };
  }
  return { ...fields, metadata: meta, tx_json: txJsonV1(tx) };
};
