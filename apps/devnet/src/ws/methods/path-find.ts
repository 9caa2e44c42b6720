/**
 * rippled `ripple_path_find` and `path_find create` over the devnet's open ledger. The devnet has
 * no order books, so the paths it finds are the direct ones its Payment rule settles: native to
 * native, and an issued currency from the sender's line (or its own issue) to the receiver's,
 * rippling through the issuer (at its TransferRate) when neither is the issuer. Each alternative
 * is rippled's: `paths_computed` (empty: the default path) and `source_amount`, whose issuer is
 * the sender ("any of its issuers"), as rippled prints it. `path_find create` is the
 * connection's path request (one per connection, a new one replacing it): complete at once, and
 * found again and sent as a `path_find` message after each ledger closes; `status` finds its paths
 * again, `close` ends it with its last answer and `closed: true` (rippled PathRequest).
 */
import { keylet } from '@ledger-node/chain';
import { invalidField, missingField, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import { parseAmount, type Amount } from '../../engine/amounts';
import { QUALITY_ONE, rateValue } from '../../engine/iou';
import { lineSide } from '../../engine/trustLines';
import type { LedgerSource } from '../ledger-source';
import { ownerDirectoryEntries } from './account-lines';
import type { MethodHandler } from './context';

/** A standard three-character code or 40 hex digits (rippled `to_currency`). */
const CURRENCY = /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$|^[0-9A-Fa-f]{40}$/;

interface Line {
  peer: string;
  currency: string;
  side: ReturnType<typeof lineSide>;
}

interface PathQuery {
  source: string;
  destination: string;
  amount: Amount;
  amountJson: unknown;
  /** source_currencies: the currencies (and issuers) the sender would spend; all when absent. */
  sourceCurrencies?: { currency: string; issuer?: string }[];
}

function readAddress(request: JsonObject, field: string, malformed: 'srcActMalformed' | 'dstActMalformed', source: LedgerSource): string {
  const value = request[field];
  if (value === undefined) throw missingField(field);
  if (typeof value !== 'string' || !source.profile.codec.isValidAddress(value)) throw new RpcError(malformed);
  return value;
}

function readQuery(request: JsonObject, source: LedgerSource): PathQuery {
  const sourceAccount = readAddress(request, 'source_account', 'srcActMalformed', source);
  const destination = readAddress(request, 'destination_account', 'dstActMalformed', source);
  const amountJson = request.destination_amount;
  if (amountJson === undefined) throw missingField('destination_amount');
  const amount = parseAmount(amountJson);
  const native = source.profile.nativeCurrency;
  // rippled: a positive amount (or -1: as much as can be delivered, which the devnet does not search for).
  if (
    amount === undefined ||
    (amount.native ? amount.drops <= 0n : amount.value.signum() <= 0 || amount.currency === native || !CURRENCY.test(amount.currency) || !source.profile.codec.isValidAddress(amount.issuer))
  ) {
    throw new RpcError('dstAmtMalformed');
  }
  let sourceCurrencies: PathQuery['sourceCurrencies'];
  if (request.source_currencies !== undefined) {
    if (!Array.isArray(request.source_currencies) || request.source_currencies.length > 18) throw invalidField('source_currencies');
    sourceCurrencies = request.source_currencies.map((entry) => {
      const { currency, issuer } = (entry ?? {}) as JsonObject;
      if (typeof currency !== 'string' || currency.length === 0) throw new RpcError('srcCurMalformed');
      if (issuer !== undefined && (typeof issuer !== 'string' || !source.profile.codec.isValidAddress(issuer))) throw new RpcError('srcIsrMalformed');
      return { currency, ...(issuer === undefined ? {} : { issuer }) };
    });
  }
  return { source: sourceAccount, destination, amount, amountJson, sourceCurrencies };
}

/** The account's trust lines at the ledger, through its owner directory. */
function linesOf(source: LedgerSource, address: string, ledgerIndex: number, trustLineType: string): Line[] {
  const lines: Line[] = [];
  for (const index of ownerDirectoryEntries(source, source.profile.codec.decodeAccountId(address), ledgerIndex)) {
    const entry = source.stateEntry(index, ledgerIndex)?.json;
    if (entry?.LedgerEntryType !== trustLineType) continue;
    const side = lineSide(entry, address);
    const peer = ((side.isHigh ? entry.LowLimit : entry.HighLimit) as { issuer: string }).issuer;
    lines.push({ peer, currency: (entry.Balance as { currency: string }).currency, side });
  }
  return lines;
}

/** rippled accountDestCurrencies: the native currency, and each currency a line has room to receive. */
function destinationCurrencies(native: string, lines: Line[]): string[] {
  const received = new Set(lines.filter(({ side }) => side.balance.lessThan(side.limit)).map(({ currency }) => currency));
  // rippled's set orders by the 160-bit code: native (zero) first, standard codes by their letters, then hex codes.
  const sorted = [...received].sort((left, right) => (left.length !== right.length ? left.length - right.length : left < right ? -1 : left > right ? 1 : 0));
  return [native, ...sorted];
}

interface PathAnswer {
  alternatives: JsonObject[];
  destination_currencies: string[];
  ledger_current_index: number;
}

function findPaths(query: PathQuery, source: LedgerSource): PathAnswer {
  const writer = source.writer;
  if (!writer) throw new RpcError('notSupported', 'Recorded ledgers find no paths.');
  const ledgerIndex = writer.openLedgerIndex();
  const { profile, fees } = source;
  const accountRoot = (address: string) => source.stateEntry(keylet.account(profile.codec.decodeAccountId(address)), ledgerIndex)?.json;
  const sender = accountRoot(query.source);
  if (!sender) throw new RpcError('srcActNotFound');
  const receiver = accountRoot(query.destination);
  const { amount } = query;
  if (!receiver) {
    if (!amount.native) throw new RpcError('dstActNotFound');
    if (amount.drops < fees.reserveBase) throw new RpcError('dstAmtMalformed');
  }
  const receiverLines = receiver ? linesOf(source, query.destination, ledgerIndex, profile.trustLineEntryType) : [];
  const answer: PathAnswer = { alternatives: [], destination_currencies: destinationCurrencies(profile.nativeCurrency, receiverLines), ledger_current_index: ledgerIndex };
  const wanted = (currency: string, issuer?: string) =>
    query.sourceCurrencies === undefined || query.sourceCurrencies.some((entry) => entry.currency === currency && (entry.issuer === undefined || issuer === undefined || entry.issuer === issuer));
  if (query.source === query.destination && amount.native) return answer;

  if (amount.native) {
    if (!wanted(profile.nativeCurrency)) return answer;
    const reserve = fees.reserveBase + BigInt(Number(sender.OwnerCount ?? 0)) * fees.reserveIncrement;
    const spendable = BigInt(sender.Balance as string) - reserve;
    if (spendable >= amount.drops) answer.alternatives.push({ paths_computed: [], source_amount: amount.drops.toString() });
    return answer;
  }

  const { currency, issuer, value } = amount;
  if (!wanted(currency)) return answer;
  // What the receiver can still take from the issuer (unbounded when it is the issuer).
  if (query.destination !== issuer) {
    const line = receiverLines.find((candidate) => candidate.peer === issuer && candidate.currency === currency);
    if (!line || line.side.limit.subtract(line.side.balance).lessThan(value)) return answer;
  }
  let sourceValue = value;
  if (query.source !== issuer) {
    const line = linesOf(source, query.source, ledgerIndex, profile.trustLineEntryType).find((candidate) => candidate.peer === issuer && candidate.currency === currency);
    if (!line) return answer;
    if (query.destination !== issuer) {
      // Rippling through the issuer: its transfer fee is the sender's to pay, and its NoRipple on the sender's side blocks it.
      if (line.side.peerNoRipple) return answer;
      const rate = Number(accountRoot(issuer)?.TransferRate ?? QUALITY_ONE);
      if (rate !== QUALITY_ONE && rate !== 0) sourceValue = value.multiply(rateValue(rate));
    }
    if (line.side.balance.lessThan(sourceValue)) return answer;
  }
  answer.alternatives.push({ paths_computed: [], source_amount: { currency, issuer: query.source, value: sourceValue.toString() } });
  return answer;
}

export const ripplePathFind: MethodHandler = ({ request, source }) => {
  const query = readQuery(request, source);
  const found = findPaths(query, source);
  return {
    alternatives: found.alternatives,
    destination_account: query.destination,
    destination_currencies: found.destination_currencies,
    full_reply: true,
    ledger_current_index: found.ledger_current_index,
    source_account: query.source,
    validated: false,
  };
};

export const pathFind: MethodHandler = ({ request, source, subscriber }) => {
  const subcommand = request.subcommand;
  if (subcommand === undefined) throw missingField('subcommand');
  if (subcommand === 'status') return subscriber.pathRequestStatus() ?? noPathRequest();
  if (subcommand === 'close') {
    const last = subscriber.closePathRequest();
    return last ? { ...last, closed: true } : noPathRequest();
  }
  if (subcommand !== 'create') throw invalidField('subcommand');
  const query = readQuery(request, source);
  const find = (): JsonObject => {
    const found = findPaths(query, source);
    return {
      alternatives: found.alternatives,
      destination_account: query.destination,
      destination_amount: query.amountJson as JsonObject,
      full_reply: true,
      ledger_current_index: found.ledger_current_index,
      source_account: query.source,
    };
  };
  return subscriber.openPathRequest(request.id, find);
};

function noPathRequest(): never {
  throw new RpcError('noPathRequest');
}
