/** rippled `account_lines`: an account's trust lines, read through its owner directory. */
import { keylet } from '@ledger-node/chain';
import type { JsonObject, StateEntry } from '../../engine/types';
import type { LedgerSource } from '../ledger-source';
import { isHash256, ledgerFields, readAccount, readLimit, resolveLedger, stateLedgerIndex } from '../params';
import { invalidField, RpcError } from '../rpc-error';
import type { MethodHandler } from './context';

/** RippleState flags (rippled LedgerFormats.h). */
const lsfLowAuth = 0x00040000;
const lsfHighAuth = 0x00080000;
const lsfLowNoRipple = 0x00100000;
const lsfHighNoRipple = 0x00200000;
const lsfLowFreeze = 0x00400000;
const lsfHighFreeze = 0x00800000;

/** rippled Tuning::accountLines: 200 lines by default, at most 400. */
const LINES_PAGE = { fallback: 200, min: 1, max: 400 };

interface Amount {
  currency: string;
  issuer: string;
  value: string;
}

function asAmount(value: unknown): Amount | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const amount = value as Partial<Amount>;
  return typeof amount.currency === 'string' && typeof amount.issuer === 'string' && typeof amount.value === 'string'
    ? (amount as Amount)
    : undefined;
}

/** The balance from the other side's view: rippled stores it from the low account's side. */
export function negateValue(value: string): string {
  if (/^-?0*(\.0*)?$/.test(value)) return '0';
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

/** One line of an account_lines answer, seen from `account` (rippled RPC::TrustLine / addLine). */
export function lineView(entry: StateEntry, account: string, noRippleName: string): JsonObject | undefined {
  const low = asAmount(entry.json.LowLimit);
  const high = asAmount(entry.json.HighLimit);
  const balance = asAmount(entry.json.Balance);
  if (!low || !high || !balance) return undefined;
  const flags = typeof entry.json.Flags === 'number' ? entry.json.Flags : 0;
  const viewerIsLow = low.issuer === account;
  const [own, peer] = viewerIsLow ? [low, high] : [high, low];
  const side = viewerIsLow ? 'Low' : 'High';
  const bit = (lowBit: number, highBit: number, ofViewer: boolean) => (flags & (viewerIsLow === ofViewer ? lowBit : highBit)) !== 0;
  const line: JsonObject = {
    account: peer.issuer,
    balance: viewerIsLow ? balance.value : negateValue(balance.value),
    currency: balance.currency,
    limit: own.value,
    limit_peer: peer.value,
    [noRippleName]: bit(lsfLowNoRipple, lsfHighNoRipple, true),
    [`${noRippleName}_peer`]: bit(lsfLowNoRipple, lsfHighNoRipple, false),
    quality_in: typeof entry.json[`${side}QualityIn`] === 'number' ? entry.json[`${side}QualityIn`] : 0,
    quality_out: typeof entry.json[`${side}QualityOut`] === 'number' ? entry.json[`${side}QualityOut`] : 0,
  };
  if (bit(lsfLowAuth, lsfHighAuth, true)) line.authorized = true;
  if (bit(lsfLowAuth, lsfHighAuth, false)) line.peer_authorized = true;
  if (bit(lsfLowFreeze, lsfHighFreeze, true)) line.freeze = true;
  if (bit(lsfLowFreeze, lsfHighFreeze, false)) line.freeze_peer = true;
  return line;
}

/** The entries an owner directory lists, page after page (rippled dirFirst/dirNext). */
export function* ownerDirectoryEntries(source: LedgerSource, accountId: Uint8Array, ledgerIndex: number): Generator<string> {
  const rootIndex = keylet.ownerDir(accountId);
  const visitedPages = new Set<bigint>();
  let page = 0n;
  for (;;) {
    visitedPages.add(page);
    const node = source.stateEntry(keylet.dirPage(rootIndex, page), ledgerIndex);
    if (!node) return;
    const indexes = node.json.Indexes;
    if (Array.isArray(indexes)) for (const index of indexes) if (typeof index === 'string') yield index.toUpperCase();
    const next = node.json.IndexNext;
    // IndexNext is a UInt64 printed as hex ("0", "1", or 16 digits); 0 ends the chain.
    const nextPage = typeof next === 'string' && /^[0-9A-Fa-f]{1,16}$/.test(next) ? BigInt(`0x${next}`) : 0n;
    if (nextPage === 0n || visitedPages.has(nextPage)) return;
    page = nextPage;
  }
}

export const accountLines: MethodHandler = ({ request, source }) => {
  const account = readAccount(request, source);
  const peer = request.peer === undefined ? undefined : readAccount(request, source, 'peer');
  const limit = readLimit(request, LINES_PAGE);
  const marker = request.marker;
  if (marker !== undefined && !isHash256(marker)) throw invalidField('marker');
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');
  const { codec, trustLineEntryType, noRippleWireName } = source.profile;
  const accountId = codec.decodeAccountId(account);
  if (!source.stateEntry(keylet.account(accountId), ledgerIndex)) {
    throw new RpcError('actNotFound', undefined, { account, ...ledgerFields(ref) });
  }

  const lines: JsonObject[] = [];
  const resumeAfter = typeof marker === 'string' ? marker.toUpperCase() : undefined;
  let markerSeen = resumeAfter === undefined;
  let nextMarker: string | undefined;
  let lastLineIndex: string | undefined;
  for (const entryIndex of ownerDirectoryEntries(source, accountId, ledgerIndex)) {
    if (!markerSeen) {
      markerSeen = entryIndex === resumeAfter;
      continue;
    }
    const entry = source.stateEntry(entryIndex, ledgerIndex);
    if (!entry || entry.json.LedgerEntryType !== trustLineEntryType) continue;
    const line = lineView(entry, account, noRippleWireName);
    if (!line || (peer !== undefined && line.account !== peer)) continue;
    if (lines.length === limit) {
      nextMarker = lastLineIndex;
      break;
    }
    lines.push(line);
    lastLineIndex = entryIndex;
  }
  if (!markerSeen) throw invalidField('marker');
  const result: JsonObject = { account, lines, ...ledgerFields(ref) };
  if (request.limit !== undefined) result.limit = limit;
  if (nextMarker) result.marker = nextMarker;
  return result;
};
