/**
 * Clio's `ledger_index` (LedgerIndex.cpp): the newest stored ledger that closed at or before
 * `date` (ISO 8601 to the second, `Z`; now when absent), found by bisecting the stored ranges on
 * close time (a later ledger never closes earlier); `lgrNotFound` when every stored ledger closed
 * after it.
 */
import { RIPPLE_EPOCH_OFFSET } from '@ledger-node/chain';
import { TxDetail, type LedgerRange } from '@ledger-node/contracts';
import { closeTimeIso, invalidField, RpcError } from '@ledger-node/rippled-api';
import type { RippledContext, RippledMethod } from '../method';
import { resolvedOf, type ResolvedLedger } from './ledgers';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function readDate(date: unknown): number {
  if (date === undefined) return Math.floor(Date.now() / 1000) - RIPPLE_EPOCH_OFFSET;
  if (typeof date !== 'string' || !ISO_SECONDS.test(date)) throw invalidField('date');
  const ms = Date.parse(date);
  if (Number.isNaN(ms) || new Date(ms).toISOString().replace('.000Z', 'Z') !== date) throw invalidField('date');
  return ms / 1000 - RIPPLE_EPOCH_OFFSET;
}

async function stored(context: RippledContext, ledgerIndex: number): Promise<ResolvedLedger> {
  const record = await context.queries.ledger({ selector: { $case: 'index', index: ledgerIndex } }, TxDetail.NONE);
  if (!record) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return resolvedOf(record);
}

/** The newest ledger of `range` closed at or before `closeTime`, given that its first one is. */
async function newestIn(context: RippledContext, range: LedgerRange, closeTime: number): Promise<ResolvedLedger> {
  let found = await stored(context, range.first);
  let [low, high] = [range.first + 1, range.last];
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const ledger = await stored(context, middle);
    if (ledger.header.closeTime <= closeTime) [found, low] = [ledger, middle + 1];
    else high = middle - 1;
  }
  return found;
}

export const ledgerIndex: RippledMethod = async ({ params }, context) => {
  const closeTime = readDate(params.date);
  const { completeRanges } = await context.queries.status();
  for (const range of [...completeRanges].reverse()) {
    if ((await stored(context, range.first)).header.closeTime > closeTime) continue;
    const ledger = await newestIn(context, range, closeTime);
    return { ledger_index: ledger.header.ledgerIndex, ledger_hash: ledger.hash, closed: closeTimeIso(ledger.header.closeTime), validated: true };
  }
  throw new RpcError('lgrNotFound', 'ledgerNotFound');
};
