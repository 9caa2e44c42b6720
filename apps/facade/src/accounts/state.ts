import type { LedgerSelector } from '@ledger-node/contracts';
import { AccountNotFound } from '@ledger-node/errors';
import type { MethodContext } from '../jsonrpc/method';
import { coinLine, type CoinLine } from './balances';

export interface AccountState {
  account: string;
  /** Native balance in drops, as the AccountRoot's Balance field holds it. */
  balance: string;
  lines: CoinLine[];
  ledgerIndex: number;
  ledgerHash: string;
}

/** An account's root and trust lines at a stored ledger; AccountNotFound when it did not exist there. */
export async function accountState(address: string, accountId: Buffer, ledger: LedgerSelector, { queries, profile }: MethodContext): Promise<AccountState> {
  const state = await queries.accountState(accountId, ledger);
  if (!state.accountRootBlob) {
    throw new AccountNotFound(`account ${address} not found at ledger ${state.ledgerIndex}`, { ledger_index: state.ledgerIndex });
  }
  const root = profile.codec.decode(state.accountRootBlob);
  const lines = state.trustLineBlobs.map((blob) => coinLine(profile.codec.decode(blob), address));
  return {
    account: address,
    balance: String(root.Balance),
    lines,
    ledgerIndex: state.ledgerIndex,
    ledgerHash: state.ledgerHash.toString('hex').toUpperCase(),
  };
}
