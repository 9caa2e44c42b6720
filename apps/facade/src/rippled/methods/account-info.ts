/**
 * rippled `account_info`: an account's root at a stored ledger with its flags spelled out
 * (AccountInfo.cpp): the amendment-dependent flags appear when the ledger's Amendments object has
 * the amendment enabled; `signer_lists` in `account_data` (API v1) or beside it (v2). `queue` asks
 * about an open ledger, which the node does not have: invalidParams, as rippled answers it for a
 * closed ledger.
 */
import { keylet, sha512Half } from '@ledger-node/chain';
import { accountDataJson, accountFlagAmendments, accountFlags, invalidField, RpcError, type AccountFlagAmendment, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { readAccountAt } from './accounts';
import { hex, ledgerFields } from './ledgers';
import { StateView } from './state';

/** An amendment's id: the SHA-512Half of its name (rippled Feature.cpp). */
const amendmentIds = new Map<string, AccountFlagAmendment>(accountFlagAmendments.map((name) => [hex(sha512Half(Buffer.from(name, 'ascii'))), name]));

function enabledOf(amendments: JsonObject | undefined): Set<AccountFlagAmendment> {
  const enabled = new Set<AccountFlagAmendment>();
  const ids = amendments?.Amendments;
  if (Array.isArray(ids)) {
    for (const id of ids) {
      const name = typeof id === 'string' ? amendmentIds.get(id.toUpperCase()) : undefined;
      if (name) enabled.add(name);
    }
  }
  return enabled;
}

export const accountInfo: RippledMethod = async ({ params, apiVersion }, context) => {
  if (params.account !== undefined && typeof params.account !== 'string') throw invalidField('account');
  if (params.queue === true) throw new RpcError('invalidParams', 'queue is answered for the open ledger only; the node holds validated ledgers.');
  const signerLists = params.signer_lists;
  if (apiVersion > 1 && signerLists !== undefined && typeof signerLists !== 'boolean') throw new RpcError('invalidParams');
  const { root, state, ledger } = await readAccountAt(params, context, { ident: true });
  const accountId = context.profile.codec.decodeAccountId(String(root.Account));

  const wantSigners = signerLists === true;
  const keys = wantSigners ? [keylet.amendments(), keylet.signers(accountId)] : [keylet.amendments()];
  const view = new StateView(context, state.ledgerIndex);
  const [amendments, signers] = await view.read(keys);
  const rootIndex = keylet.account(accountId);
  const result: JsonObject = {
    account_data: accountDataJson(root, rootIndex),
    account_flags: accountFlags(typeof root.Flags === 'number' ? root.Flags : 0, enabledOf(amendments?.json)),
    ...ledgerFields(ledger),
  };
  if (wantSigners) {
    const list = signers ? [view.rendered(signers)] : [];
    if (apiVersion === 1) (result.account_data as JsonObject).signer_lists = list;
    else result.signer_lists = list;
  }
  return result;
};
