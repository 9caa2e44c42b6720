/** Reads the end-to-end tests make through the LedgerStore contract to check what a store holds. */
import pLimit from 'p-limit';
import { TxDetail, type GetLedgerRequest, type GetLedgerResponse, type GetStatusRequest, type GetStatusResponse, type LedgerRecord } from '@ledger-node/contracts';

/** GetLedger calls in flight at once: quick over a socket, without crowding the store's other callers. */
const HEADER_READS_IN_FLIGHT = 16;

/** The LedgerStore reads storedHeaders makes (a gRPC client of LedgerStoreService has them). */
export interface LedgerHeaderReader {
  getStatus(request: GetStatusRequest): Promise<GetStatusResponse>;
  getLedger(request: GetLedgerRequest): Promise<GetLedgerResponse>;
}

/**
 * The stored ledgers from `first` to `last` without their transactions, ascending: every ledger of
 * the store's complete ranges between them, read with GetLedger. Ledgers outside the complete
 * ranges are not stored and have no entry.
 */
export async function storedHeaders(store: LedgerHeaderReader, first: number, last: number): Promise<LedgerRecord[]> {
  const { completeRanges } = await store.getStatus({});
  const indexes = completeRanges.flatMap((range) => {
    const from = Math.max(first, range.first);
    const to = Math.min(last, range.last);
    return from > to ? [] : Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
  });
  const limit = pLimit(HEADER_READS_IN_FLIGHT);
  const ledgers = await Promise.all(
    indexes.map((ledgerIndex) =>
      limit(async () => (await store.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.NONE })).ledger),
    ),
  );
  return ledgers.filter((ledger): ledger is LedgerRecord => ledger !== undefined);
}
