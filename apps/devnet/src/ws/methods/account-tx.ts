/** rippled `account_tx`: the validated transactions that affected an account, paged with a marker. */
import type { JsonObject } from '../../engine/types';
import { accountTxEntry } from '../format';
import type { AccountTxMarker } from '../ledger-source';
import { readAccount, readBoolean, readLimit, resolveLedger } from '../params';
import { invalidField, RpcError } from '../rpc-error';
import type { MethodHandler } from './context';

/** rippled Tuning::accountTx: 200 by default; a local (admin) caller may ask for more, capped here at 1000. */
const TX_PAGE = { fallback: 200, min: 1, max: 1000 };

function readLedgerBound(request: JsonObject, field: 'ledger_index_min' | 'ledger_index_max'): number | undefined {
  const value = request[field];
  if (value === undefined || value === null || value === -1) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidField(field, 'integer');
  return value;
}

function readMarker(request: JsonObject): AccountTxMarker | undefined {
  const marker = request.marker;
  if (marker === undefined || marker === null) return undefined;
  if (typeof marker !== 'object' || Array.isArray(marker)) throw invalidField('marker');
  const { ledger, seq } = marker as Record<string, unknown>;
  if (typeof ledger !== 'number' || typeof seq !== 'number' || !Number.isSafeInteger(ledger) || !Number.isSafeInteger(seq) || ledger < 0 || seq < 0) {
    throw invalidField('marker');
  }
  return { ledger, seq };
}

export const accountTx: MethodHandler = ({ request, source, apiVersion }) => {
  const account = readAccount(request, source);
  const binary = readBoolean(request, 'binary');
  const forward = readBoolean(request, 'forward');
  const limit = readLimit(request, TX_PAGE);
  const marker = readMarker(request);
  const ranges = source.completeRanges();
  const validatedMin = ranges[0]?.first ?? 0;
  const validatedMax = ranges.at(-1)?.last ?? 0;

  let minLedgerIndex: number;
  let maxLedgerIndex: number;
  if (request.ledger_index !== undefined || request.ledger_hash !== undefined) {
    // rippled: a single ledger selects exactly that ledger.
    const ref = resolveLedger(request, source, 'validated');
    if (ref.kind !== 'closed') throw new RpcError('lgrNotFound', 'ledgerNotFound');
    minLedgerIndex = maxLedgerIndex = ref.ledger.header.ledgerIndex;
  } else {
    const requestedMin = readLedgerBound(request, 'ledger_index_min');
    const requestedMax = readLedgerBound(request, 'ledger_index_max');
    // rippled API v2 rejects bounds outside the validated range; v1 clamps them.
    if (apiVersion > 1 && ((requestedMin !== undefined && requestedMin < validatedMin) || (requestedMax !== undefined && requestedMax > validatedMax))) {
      throw new RpcError('lgrIdxMalformed');
    }
    minLedgerIndex = Math.max(requestedMin ?? validatedMin, validatedMin);
    maxLedgerIndex = Math.min(requestedMax ?? validatedMax, validatedMax);
    if (maxLedgerIndex < minLedgerIndex) {
      throw apiVersion > 1 ? new RpcError('invalidLgrRange') : new RpcError('lgrIdxsInvalid');
    }
  }

  const page = source.accountTransactions({ account, minLedgerIndex, maxLedgerIndex, forward, limit, marker });
  const result: JsonObject = {
    account,
    ledger_index_min: minLedgerIndex,
    ledger_index_max: maxLedgerIndex,
    limit,
    transactions: page.transactions.map(({ ledger, tx }) => accountTxEntry(ledger, tx, { apiVersion, binary })),
    validated: true,
  };
  if (page.marker) result.marker = page.marker;
  return result;
};
