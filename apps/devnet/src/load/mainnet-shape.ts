/**
 * What the mainnet-shaped history is drawn from: the gateways and currencies it sets up, the share
 * of each kind of transaction, the spread of ledger sizes and the Memos some transactions carry.
 * Payment, TrustSet and AccountSet take part; offers, which fill much of the real ledger, are not
 * drawn, so the history has no order books.
 */
import type { JsonObject } from '../engine/types';
import type { Draws } from './seeded-random';

/** A gateway of the history: the currencies it issues, its transfer fee and its Domain. */
export interface GatewayPlan {
  currencies: readonly string[];
  /** rippled TransferRate (1 000 000 000 = no fee); undefined: none. */
  transferRate?: number;
  domain: string;
}

export const GATEWAYS: readonly GatewayPlan[] = [
  { currencies: ['USD', 'BTC'], transferRate: 1_002_000_000, domain: 'gateway-one.example' },
  { currencies: ['USD', 'EUR'], domain: 'gateway-two.example' },
  { currencies: ['CNY', 'USD'], transferRate: 1_001_000_000, domain: 'gateway-three.example' },
  // A 160-bit currency code, as many tokens on the real ledger have.
  { currencies: ['EUR', '534F4C4F00000000000000000000000000000000'], domain: 'tokens.example' },
];

/**
 * Gateway `to` trusts gateway `from` in `currency`, so a payment sent in `from`'s IOUs reaches a
 * holder of `to`'s through both: source → from → to → destination (the engine's default path).
 */
export interface BridgePlan {
  currency: string;
  from: number;
  to: number;
}

export const BRIDGES: readonly BridgePlan[] = [
  { currency: 'USD', from: 0, to: 1 },
  { currency: 'USD', from: 0, to: 2 },
  { currency: 'EUR', from: 1, to: 3 },
];

/**
 * Share (percent) of each kind of transaction in the history's ledgers. The last six are meant to
 * fail with a tec, as a few percent of real transactions do (unfunded payments, dry paths,
 * accounts created below the reserve). A kind that finds nothing to act on falls back to a native
 * payment.
 */
export const ACTION_WEIGHTS = {
  nativePayment: 36,
  issuedPayment: 22,
  gatewayPayment: 6,
  bridgedPayment: 5,
  createAccount: 3,
  trustSetCreate: 6.5,
  trustSetChange: 5,
  trustSetRemove: 1.5,
  accountSet: 7,
  unfundedPayment: 2.5,
  overdrawnIssuedPayment: 2,
  paymentWithoutLine: 1.5,
  createBelowReserve: 1,
  issuedToMissingAccount: 0.5,
  redundantTrustSet: 0.5,
} as const;

export type ActionKind = keyof typeof ACTION_WEIGHTS;

/** Share of ledgers that are nearly empty (0 to 3 transactions), as quiet moments leave them. */
const QUIET_LEDGER_SHARE = 0.08;
const QUIET_LEDGER_MOST = 3;

/**
 * Transactions in each of `ledgerCount` ledgers: a few nearly empty, the rest drawn from an Erlang
 * distribution of shape 2 (from a handful to four or five times the mean), then scaled so that the
 * history holds exactly `ledgerCount × meanSize` transactions, as the uniform history does.
 */
export function ledgerSizes(ledgerCount: number, meanSize: number, draws: Draws): number[] {
  const quiet = Array.from({ length: ledgerCount }, () => draws.chance(QUIET_LEDGER_SHARE));
  const sizes = quiet.map((isQuiet) => (isQuiet ? draws.integer(0, Math.min(QUIET_LEDGER_MOST, meanSize - 1)) : 0));
  const weights = quiet.map((isQuiet) => (isQuiet ? 0 : draws.erlang2()));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  if (weightSum === 0) return sizes;
  const remaining = ledgerCount * meanSize - sizes.reduce((sum, size) => sum + size, 0);
  const exact = weights.map((weight) => (remaining * weight) / weightSum);
  exact.forEach((share, position) => (sizes[position]! += Math.floor(share)));
  // Largest remainders first, so the total is exact.
  const shortBy = remaining - exact.reduce((sum, share) => sum + Math.floor(share), 0);
  const byRemainder = exact.map((share, position) => ({ position, remainder: share - Math.floor(share) })).sort((a, b) => b.remainder - a.remainder);
  for (const { position } of byRemainder.slice(0, shortBy)) sizes[position]! += 1;
  return sizes;
}

const MEMO_TYPES = ['text/plain', 'application/json', 'invoice', 'client'];

function hexOfText(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase();
}

/**
 * Memos for about a third of the transactions: mostly a short reference, some a paragraph, a few
 * close to rippled's 1 KB limit on a transaction's Memos.
 */
export function drawMemos(draws: Draws): JsonObject[] | undefined {
  if (!draws.chance(0.3)) return undefined;
  const size = draws.weighted({ short: 60, medium: 30, long: 10 });
  const dataBytes = size === 'short' ? draws.integer(4, 40) : size === 'medium' ? draws.integer(41, 250) : draws.integer(251, 900);
  const memo: JsonObject = { MemoType: hexOfText(draws.pick(MEMO_TYPES)), MemoData: draws.hex(dataBytes) };
  if (draws.chance(0.2)) memo.MemoFormat = hexOfText('text/plain');
  return [{ Memo: memo }];
}

/** A Domain of `length` characters, hex-encoded as AccountSet takes it. */
export function drawDomain(draws: Draws, length: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const name = Array.from({ length: Math.max(1, length - 8) }, () => letters[draws.integer(0, letters.length - 1)]).join('');
  return hexOfText(`${name}.example`.slice(0, length));
}
