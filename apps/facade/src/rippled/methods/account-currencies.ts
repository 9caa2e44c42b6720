/**
 * rippled `account_currencies` (AccountCurrencies.cpp): the currencies an account can receive
 * (balance below its limit) and send (the peer's limit above what it owes), from its trust lines
 * at a stored ledger, each list in currency order.
 */
import type { ChainProfile } from '@ledger-node/chain';
import { issuedCurrencyBytes, lineView } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { readAccountAt, trustLinesOf } from './accounts';
import { compareDecimal, negateDecimal } from './decimal';
import { ledgerFields } from './ledgers';

/** rippled keeps the currencies in a std::set<Currency>: ordered by their 20 bytes. */
function sortedCurrencies(codes: Set<string>, profile: ChainProfile): string[] {
  const bytesOf = (code: string) => Buffer.from(issuedCurrencyBytes(code, profile));
  return [...codes].sort((a, b) => Buffer.compare(bytesOf(a), bytesOf(b)));
}

export const accountCurrencies: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const { account, state, ledger } = await readAccountAt(params, context);
  const receive = new Set<string>();
  const send = new Set<string>();
  for (const line of trustLinesOf(state, profile)) {
    const view = lineView(line, account, profile.noRippleWireName);
    if (!view) continue;
    const balance = String(view.balance);
    const currency = String(view.currency);
    if (compareDecimal(balance, String(view.limit)) < 0) receive.add(currency);
    if (compareDecimal(negateDecimal(balance), String(view.limit_peer)) < 0) send.add(currency);
  }
  return {
    ...ledgerFields(ledger),
    receive_currencies: sortedCurrencies(receive, profile),
    send_currencies: sortedCurrencies(send, profile),
  };
};
