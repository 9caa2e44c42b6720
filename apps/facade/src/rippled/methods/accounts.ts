/**
 * Reading an account's state for the account_* methods: the root and trust lines through the
 * query layer (gathered per event-loop turn), with rippled's errors for a ledger that is not stored
 * (lgrNotFound), one whose state the store does not hold (notSupported) and an account that does
 * not exist at that ledger (actNotFound, with the account and ledger named).
 */
import type { ChainProfile } from '@ledger-node/chain';
import { TxDetail, type GetAccountStateResponse } from '@ledger-node/contracts';
import { isLedgerNodeError } from '@ledger-node/errors';
import { readAccount, readLedgerSpec, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { MethodContext } from '../../jsonrpc/method';
import { hex, ledgerFields, stateNotHeld, storeSelector } from './ledgers';

export interface AccountAt {
  /** The address as the request gave it. */
  readonly account: string;
  readonly accountId: Buffer;
  readonly state: GetAccountStateResponse;
  readonly ledger: { ledgerIndex: number; ledgerHash: string };
  /** The decoded AccountRoot. */
  readonly root: JsonObject;
}

/** The request's account (`account`, or `ident` as rippled's account_info also takes) and its state at the request's ledger. */
export async function readAccountAt(params: JsonObject, context: MethodContext, options: { ident?: boolean } = {}): Promise<AccountAt> {
  const { profile } = context;
  const source = options.ident && params.account === undefined && params.ident !== undefined ? { account: params.ident } : params;
  const account = readAccount(source, profile.codec);
  const accountId = Buffer.from(profile.codec.decodeAccountId(account));
  const selector = storeSelector(readLedgerSpec(params, 'validated'));
  let state: GetAccountStateResponse;
  try {
    state = await context.queries.accountState(accountId, selector);
  } catch (error) {
    if (isLedgerNodeError(error) && error.kind === 'out_of_range') {
      // The same refusal for a ledger not stored and for one whose state is not: tell them apart.
      const stored = await context.queries.ledger(selector, TxDetail.NONE);
      if (!stored) throw new RpcError('lgrNotFound', 'ledgerNotFound');
    }
    return stateNotHeld(error);
  }
  const ledger = { ledgerIndex: state.ledgerIndex, ledgerHash: hex(state.ledgerHash) };
  if (!state.accountRootBlob || state.accountRootBlob.length === 0) {
    throw new RpcError('actNotFound', undefined, { account, ...ledgerFields(ledger) });
  }
  return { account, accountId, state, ledger, root: profile.codec.decode(state.accountRootBlob) };
}

/** The account's trust lines at that ledger, decoded, in key order. */
export function trustLinesOf(state: GetAccountStateResponse, profile: ChainProfile): JsonObject[] {
  return state.trustLineBlobs.map((blob) => profile.codec.decode(blob));
}

