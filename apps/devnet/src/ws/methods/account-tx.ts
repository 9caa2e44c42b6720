/** rippled `account_tx`: the validated transactions that affected an account, paged with a marker. */
import {
  accountTxEntry,
  accountTxRange,
  placeOf,
  readAccount,
  readAccountTxMarker,
  readBoolean,
  readLimit,
  RpcError,
  type JsonObject,
} from '@ledger-node/rippled-api';
import { resolveLedger } from '../params';
import { DEVNET_RENDER_STYLE, rendered, type MethodHandler } from './context';

/** rippled Tuning::accountTx: 200 by default; a local (admin) caller may ask for more, capped here at 1000. */
const TX_PAGE = { fallback: 200, min: 1, max: 1000 };

export const accountTx: MethodHandler = ({ request, source, apiVersion }) => {
  const account = readAccount(request, source.profile.codec);
  const binary = readBoolean(request, 'binary');
  const forward = readBoolean(request, 'forward');
  const limit = readLimit(request, TX_PAGE);
  const marker = readAccountTxMarker(request);
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
    ({ minLedgerIndex, maxLedgerIndex } = accountTxRange(request, { first: validatedMin, last: validatedMax }, apiVersion));
  }

  const page = source.accountTransactions({ account, minLedgerIndex, maxLedgerIndex, forward, limit, marker });
  const result: JsonObject = {
    account,
    ledger_index_min: minLedgerIndex,
    ledger_index_max: maxLedgerIndex,
    limit,
    transactions: page.transactions.map(({ ledger, tx }) => accountTxEntry(placeOf(ledger), rendered(tx, source.profile), { apiVersion, binary, ...DEVNET_RENDER_STYLE })),
    validated: true,
  };
  if (page.marker) result.marker = page.marker;
  return result;
};
