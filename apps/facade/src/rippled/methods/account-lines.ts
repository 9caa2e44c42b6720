/**
 * rippled `account_lines`: an account's trust lines at a stored ledger, seen from the account
 * (RPC::TrustLine), with `peer`, `limit` (10 to 400, 200 by default, as rippled and Clio clamp
 * it), `ignore_default` and a marker. Lines come in key order; the marker is the key of the last
 * line returned, and the next page starts after it.
 */
import { keylet } from '@ledger-node/chain';
import {
  invalidField,
  isHash256,
  issuedCurrencyBytes,
  lineView,
  pageLimits,
  readAccount,
  readBoolean,
  readLimit,
  rippleStateFlags,
  trustLineSides,
  type JsonObject,
} from '@ledger-node/rippled-api';
import type { ChainProfile } from '@ledger-node/chain';
import type { RippledMethod } from '../method';
import { readAccountAt, trustLinesOf } from './accounts';
import { ledgerFields } from './ledgers';

/** A trust line's key: the keylet of its two accounts and currency. */
export function lineKey(line: JsonObject, profile: ChainProfile): string | undefined {
  const sides = trustLineSides(line);
  const balance = line.Balance as { currency?: unknown } | undefined;
  if (!sides || typeof balance?.currency !== 'string') return undefined;
  const { codec } = profile;
  return keylet.rippleState(codec.decodeAccountId(sides.low), codec.decodeAccountId(sides.high), issuedCurrencyBytes(balance.currency, profile));
}

export const accountLines: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const peer = params.peer === undefined ? undefined : readAccount(params, profile.codec, 'peer');
  const limit = readLimit(params, pageLimits.accountLines);
  const ignoreDefault = readBoolean(params, 'ignore_default');
  const marker = params.marker;
  if (marker !== undefined && !isHash256(marker)) throw invalidField('marker');
  const resumeAfter = typeof marker === 'string' ? marker.toUpperCase() : undefined;
  const { account, state, ledger } = await readAccountAt(params, context);

  const lines: JsonObject[] = [];
  let nextMarker: string | undefined;
  let lastKey: string | undefined;
  const keyed = trustLinesOf(state, profile)
    .filter((line) => line.LedgerEntryType === profile.trustLineEntryType)
    .map((line) => ({ line, key: lineKey(line, profile) }))
    .filter((entry): entry is { line: JsonObject; key: string } => entry.key !== undefined)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const { line, key } of keyed) {
    if (resumeAfter !== undefined && key <= resumeAfter) continue;
    const view = lineView(line, account, profile.noRippleWireName);
    if (!view || (peer !== undefined && view.account !== peer)) continue;
    if (ignoreDefault) {
      // rippled: a line whose reserve the account does not carry is the peer's, in its default state here.
      const accountIsLow = trustLineSides(line)?.low === account;
      const flags = typeof line.Flags === 'number' ? line.Flags : 0;
      if ((flags & (accountIsLow ? rippleStateFlags.lsfLowReserve : rippleStateFlags.lsfHighReserve)) === 0) continue;
    }
    if (lines.length === limit) {
      nextMarker = lastKey;
      break;
    }
    lines.push(view);
    lastKey = key;
  }
  const result: JsonObject = { account, lines, ...ledgerFields(ledger) };
  if (params.limit !== undefined) result.limit = limit;
  if (nextMarker) result.marker = nextMarker;
  return result;
};
