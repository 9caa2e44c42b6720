/**
 * `ledger-node export`: every stored ledger, ascending, with its transactions and metadata and the
 * evidence that proved it, as a ledger stream (format.ts). What the stream does not carry — the account state (the state
 * download and each ledger's state changes) and the account index, which import derives again —
 * is described in docs/operating.md, "Moving a store".
 */
import type { Writable } from 'node:stream';
import type { LedgerWrite } from '@ledger-node/contracts';
import type { StoredHeader } from '../backend/records';
import { statusResponse } from '../grpc/handlers';
import type { LedgerStore } from '../store';
import { StreamWriter, type StreamTotals } from './format';
import type { Progress } from './progress';

/** Headers read per step; their transactions are read ledger by ledger. */
const HEADER_PAGE = 256;
const MAX_LEDGER_INDEX = 0xffffffff;

/** One stored ledger as its LEDGER record carries it. */
async function ledgerRecordOf(store: LedgerStore, header: StoredHeader): Promise<LedgerWrite> {
  const hashes = await store.backend.ledgerTransactionHashes(header.ledgerIndex);
  const [transactions, evidence] = await Promise.all([store.backend.transactions(hashes), store.backend.ledgerEvidence(header.ledgerIndex)]);
  return {
    ledgerIndex: header.ledgerIndex,
    ledgerHash: header.ledgerHash,
    headerBlob: header.header,
    transactions: transactions.map((tx, position) => {
      // A ledger's transactions are written in its batch: a missing one is a damaged store.
      if (!tx) throw new Error(`ledger ${header.ledgerIndex} lists transaction ${hashes[position]!.toString('hex').toUpperCase()}, which is not stored: the store is damaged`);
      return {
        hash: tx.hash,
        txBlob: tx.txBlob,
        metaBlob: tx.metaBlob,
        txIndex: tx.txIndex,
        senderAccountId: Buffer.alloc(0),
        affectedAccounts: [],
        nftIds: [],
        transactionType: tx.transactionType,
        engineResult: tx.engineResult,
      };
    }),
    stateChanges: [],
    stateChangesComplete: false,
    evidence,
  };
}

/**
 * Writes every stored ledger of `store` to `output` as a stream of `chain`'s ledgers. The SOURCE
 * record carries the store's ranges and counts, never where the store is: a stream travels, and
 * the role detail names the database's path or host (older exports wrote it; import ignores it).
 */
export async function exportStore(store: LedgerStore, output: Writable, chain: string, progress: Progress): Promise<StreamTotals> {
  const { roleDetail: _where, ...source } = await statusResponse(store);
  const writer = await StreamWriter.start(output, chain, source);
  progress.begin('exporting', Number(source.ledgerCount));
  let from: number | undefined = store.lowest() ?? undefined;
  while (from !== undefined) {
    const headers = await store.backend.headersBetween(from, MAX_LEDGER_INDEX, HEADER_PAGE);
    for (const header of headers) {
      // A ledger an import left unproven is the network's by no proof: it is not passed on.
      if (store.unproven(header.ledgerIndex)) continue;
      await writer.ledger(await ledgerRecordOf(store, header));
      progress.tick();
    }
    const last = headers.at(-1)?.ledgerIndex;
    from = headers.length < HEADER_PAGE || last === undefined || last === MAX_LEDGER_INDEX ? undefined : last + 1;
  }
  const totals = await writer.end();
  progress.finish(`${totals.transactionCount} transactions`);
  return totals;
}
