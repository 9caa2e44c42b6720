/** rippled `account_info`: an account's root entry at a ledger. */
import { keylet } from '@ledger-node/chain';
import type { JsonObject } from '../../engine/types';
import { ledgerFields, readAccount, resolveLedger, stateLedgerIndex } from '../params';
import { RpcError } from '../rpc-error';
import type { MethodHandler } from './context';

/** AccountRoot flags rippled reports in `account_flags` (LedgerFormats.h lsf*). */
const accountFlagBits: ReadonlyArray<[string, number]> = [
  ['defaultRipple', 0x00800000],
  ['depositAuth', 0x01000000],
  ['disableMasterKey', 0x00100000],
  ['disallowIncomingXRP', 0x00080000],
  ['globalFreeze', 0x00400000],
  ['noFreeze', 0x00200000],
  ['passwordSpent', 0x00010000],
  ['requireAuthorization', 0x00040000],
  ['requireDestinationTag', 0x00020000],
];

export function accountFlags(flags: number): JsonObject {
  return Object.fromEntries(accountFlagBits.map(([name, bit]) => [name, (flags & bit) !== 0]));
}

export const accountInfo: MethodHandler = ({ request, source }) => {
  const account = readAccount(request.account === undefined && request.ident !== undefined ? { account: request.ident } : request, source);
  const ref = resolveLedger(request, source);
  const ledgerIndex = stateLedgerIndex(ref);
  if (!source.holdsState(ledgerIndex)) throw new RpcError('notSupported', 'The state objects of this ledger are not held.');
  const root = source.stateEntry(keylet.account(source.profile.codec.decodeAccountId(account)), ledgerIndex);
  if (!root) throw new RpcError('actNotFound', undefined, { account, ...ledgerFields(ref) });
  const flags = typeof root.json.Flags === 'number' ? root.json.Flags : 0;
  return {
    account_data: { ...root.json, index: root.index },
    account_flags: accountFlags(flags),
    ...ledgerFields(ref),
  };
};
