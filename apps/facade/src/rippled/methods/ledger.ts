/**
 * rippled `ledger`, `ledger_closed` and `ledger_current` over the stored, validated ledgers.
 * `ledger_current`: the node has no open ledger; as Clio (which forwards it to rippled, whose open
 * ledger follows the last validated one), it answers the index after the newest stored ledger,
 * the ledger a transaction submitted now can first enter (what clients use to set
 * LastLedgerSequence).
 */
import { LedgerTag, TxDetail } from '@ledger-node/contracts';
import { inTreeOrder, ledgerHeaderHex, ledgerHeaderJson, ledgerTransactionJson, readBoolean, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { resolvedOf, resolveLedger } from './ledgers';
import { transactionInput } from './records';

/** Options rippled serves to admins only and Clio not at all: the whole state, or the open ledger's queue. */
const refusedOptions = ['full', 'accounts', 'queue', 'owner_funds'] as const;

export const ledger: RippledMethod = async ({ params, apiVersion }, context) => {
  const binary = readBoolean(params, 'binary');
  const expand = readBoolean(params, 'expand');
  const withTransactions = readBoolean(params, 'transactions');
  for (const option of refusedOptions) {
    if (readBoolean(params, option)) throw new RpcError('notSupported', `Not supported field '${option}'.`);
  }
  const detail = !withTransactions ? TxDetail.NONE : expand ? TxDetail.FULL : TxDetail.HASHES;
  const resolved = await resolveLedger(params, context, detail);
  const header: JsonObject = binary ? { closed: true, ledger_data: ledgerHeaderHex(resolved) } : ledgerHeaderJson(resolved, apiVersion);
  if (withTransactions) {
    const hex = (hash: Uint8Array) => Buffer.from(hash).toString('hex').toUpperCase();
    header.transactions = expand
      ? inTreeOrder(resolved.record.transactions, (record) => hex(record.hash)).map((record) =>
          ledgerTransactionJson(resolved.place, transactionInput(record, context.profile), { apiVersion, expand, binary }),
        )
      : inTreeOrder(resolved.record.transactionHashes.map(hex), (hash) => hash);
  }
  return { ledger: header, ledger_hash: resolved.hash, ledger_index: resolved.header.ledgerIndex, validated: true };
};

async function newestStored(context: Parameters<RippledMethod>[1]) {
  const record = await context.queries.ledger({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, TxDetail.NONE);
  if (!record) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return resolvedOf(record);
}

export const ledgerClosed: RippledMethod = async (_request, context) => {
  const newest = await newestStored(context);
  return { ledger_hash: newest.hash, ledger_index: newest.header.ledgerIndex };
};

export const ledgerCurrent: RippledMethod = async (_request, context) => {
  const highest = await context.queries.highestLedgerIndex();
  if (highest === 0) throw new RpcError('noCurrent');
  return { ledger_current_index: highest + 1 };
};
