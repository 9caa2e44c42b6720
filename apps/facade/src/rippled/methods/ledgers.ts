/**
 * The ledger a rippled request reads, resolved against the store. The node holds validated
 * ledgers only (as Clio does): `validated`, `closed` and `current` all name the newest stored
 * ledger, which is also the default when a request names none, and every answer says
 * `validated: true` with `ledger_index`, never `ledger_current_index`.
 */
import { decodeLedgerHeader, type LedgerHeader } from '@ledger-node/chain';
import { LedgerTag, TxDetail, type LedgerRecord, type LedgerSelector } from '@ledger-node/contracts';
import { isLedgerNodeError } from '@ledger-node/errors';
import { readLedgerSpec, RpcError, type JsonObject, type LedgerPlace, type LedgerSpec } from '@ledger-node/rippled-api';
import type { MethodContext } from '../../jsonrpc/method';

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex').toUpperCase();

/** The store's selector for a rippled ledger selector. */
export function storeSelector(spec: LedgerSpec): LedgerSelector {
  switch (spec.kind) {
    case 'hash':
      return { selector: { $case: 'hash', hash: Buffer.from(spec.ledgerHash, 'hex') } };
    case 'index':
      return { selector: { $case: 'index', index: spec.ledgerIndex } };
    default:
      return { selector: { $case: 'tag', tag: LedgerTag.VALIDATED } };
  }
}

/** A stored ledger a request reads. */
export interface ResolvedLedger {
  readonly record: LedgerRecord;
  readonly header: LedgerHeader;
  /** Uppercase hex. */
  readonly hash: string;
  readonly place: LedgerPlace;
  /** Names this very ledger (by index), for the reads that follow. */
  readonly selector: LedgerSelector;
}

export function resolvedOf(record: LedgerRecord): ResolvedLedger {
  const header = decodeLedgerHeader(record.headerBlob);
  const hash = hex(record.ledgerHash);
  return {
    record,
    header,
    hash,
    place: { ledgerIndex: header.ledgerIndex, ledgerHash: hash, closeTime: header.closeTime },
    selector: { selector: { $case: 'index', index: header.ledgerIndex } },
  };
}

/** rippled lookupLedger over the store: lgrNotFound when the ledger named is not stored. */
export async function resolveLedger(request: JsonObject, context: MethodContext, detail: TxDetail = TxDetail.NONE): Promise<ResolvedLedger> {
  const spec = readLedgerSpec(request, 'validated');
  const record = await context.queries.ledger(storeSelector(spec), detail);
  if (!record) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return resolvedOf(record);
}

/** The ledger fields rippled adds to an answer read at a ledger. */
export function ledgerFields(ledger: { ledgerIndex: number; ledgerHash: string }): JsonObject {
  return { ledger_hash: ledger.ledgerHash, ledger_index: ledger.ledgerIndex, validated: true };
}

/**
 * A state read refused because the store does not hold that ledger's state (outside its state
 * window, or before the state download completed): rippled's answer for state it cannot read.
 */
export function stateNotHeld(error: unknown): never {
  if (isLedgerNodeError(error) && error.kind === 'out_of_range') {
    throw new RpcError('notSupported', `The state objects of this ledger are not held: ${error.message}`);
  }
  throw error;
}
