/** rippled `account_info`: an account's root entry at a ledger. */
import { keylet } from '@ledger-node/chain';
import { accountFlags, readAccount, RpcError } from '@ledger-node/rippled-api';
import { ledgerFields, resolveLedger, stateLedgerIndex } from '../params';
import type { MethodHandler } from './context';

export const accountInfo: MethodHandler = ({ request, source }) => {
  const { codec } = source.profile;
  const account = readAccount(request.account === undefined && request.ident !== undefined ? { account: request.ident } : request, codec);
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');
  const root = source.stateEntry(keylet.account(codec.decodeAccountId(account)), ledgerIndex);
  if (!root) throw new RpcError('actNotFound', undefined, { account, ...ledgerFields(ref) });
  const flags = typeof root.json.Flags === 'number' ? root.json.Flags : 0;
  return {
    account_data: { ...root.json, index: root.index },
    account_flags: accountFlags(flags),
    ...ledgerFields(ref),
  };
};
