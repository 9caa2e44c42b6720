/**
 * rippled `vault_info` (VaultInfo.cpp): a vault at a stored ledger, by `vault_id` or by `owner`
 * and `seq`, with its shares' MPTokenIssuance as `shares`. rippled's refusals are its own: a
 * request naming the vault badly is `malformedRequest` carrying the code and message of the
 * underlying error, a vault not there a bare `entryNotFound`, both beside the ledger's fields.
 */
import { keylet, type ChainProfile } from '@ledger-node/chain';
import { BareRpcError, isHash256, rpcErrors, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ledgerFields, resolveLedger } from './ledgers';
import { StateView } from './state';

/** rippled's refusal: `malformedRequest` over the fields rpcError(`cause`) injected first. */
function malformed(cause: 'invalidParams' | 'actMalformed', fields: JsonObject): BareRpcError {
  return new BareRpcError('malformedRequest', { ...fields, error_code: rpcErrors[cause].code, error_message: rpcErrors[cause].message });
}

/** The vault's key from `vault_id`, or `owner` and `seq` — exactly one of the two forms. */
function vaultKey(params: JsonObject, profile: ChainProfile, fields: JsonObject): string {
  const [hasVaultId, hasOwner, hasSeq] = [params.vault_id !== undefined, params.owner !== undefined, params.seq !== undefined];
  if (hasVaultId && !hasOwner && !hasSeq) {
    if (!isHash256(params.vault_id)) throw malformed('invalidParams', fields);
    // rippled: a zero key parses, and is then refused as malformedRequest alone.
    if (/^0+$/.test(params.vault_id)) throw new BareRpcError('malformedRequest', fields);
    return params.vault_id.toUpperCase();
  }
  if (!hasVaultId && hasOwner && hasSeq) {
    if (typeof params.owner !== 'string' || !profile.codec.isValidAddress(params.owner)) throw malformed('actMalformed', fields);
    const seq = params.seq;
    // rippled: an integer above zero that fits a UInt32.
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq <= 0 || seq > 0xffffffff) throw malformed('invalidParams', fields);
    return keylet.vault(profile.codec.decodeAccountId(params.owner), seq);
  }
  throw malformed('invalidParams', fields);
}

export const vaultInfo: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const resolved = await resolveLedger(params, context);
  const fields = ledgerFields(resolved.place);
  const key = vaultKey(params, profile, fields);
  const state = new StateView(context, resolved.header.ledgerIndex);
  const vault = await state.readOne(key);
  const shareId = vault?.json.LedgerEntryType === 'Vault' && typeof vault.json.ShareMPTID === 'string' ? vault.json.ShareMPTID.toUpperCase() : undefined;
  const shares = shareId === undefined ? undefined : await state.readOne(keylet.mptIssuance(shareId));
  if (!vault || !shares || shares.json.LedgerEntryType !== 'MPTokenIssuance') throw new BareRpcError('entryNotFound', fields);
  // The shares' mpt_issuance_id comes with the rendered entry, as rippled STLedgerEntry::getJson prints it.
  return { ...fields, vault: { ...state.rendered(vault), shares: state.rendered(shares) } };
};
