/**
 * The fields rippled adds to a transaction's metadata in its answers, read from the metadata
 * itself: `nftoken_id`, `nftoken_ids` and `offer_id` (rippled NFTokenUtils / NFTSyntheticSerializer)
 * and `mpt_issuance_id` (MPTokenIssuanceID.cpp). None is serialized; each is derived from the
 * affected nodes of a successful transaction.
 */
import type { ChainProfile } from '@ledger-node/chain';
import { affectedNodes } from './affected-nodes';
import type { JsonObject } from './protocol';

const fieldsOf = (node: JsonObject, name: string) => (node[name] ?? {}) as JsonObject;

function tokenIds(fields: JsonObject): string[] {
  const tokens = Array.isArray(fields.NFTokens) ? (fields.NFTokens as JsonObject[]) : [];
  return tokens.map((wrapper) => String((wrapper.NFToken as JsonObject | undefined)?.NFTokenID ?? '').toUpperCase());
}

/**
 * rippled getNFTokenIDFromPage: the one token in the pages' final lists that their previous lists
 * lack. A modified page whose previous fields hold no NFTokens only had its links changed.
 */
function mintedTokenId(meta: JsonObject): string | undefined {
  const previous: string[] = [];
  const final: string[] = [];
  for (const { kind, node } of affectedNodes(meta)) {
    if (node.LedgerEntryType !== 'NFTokenPage') continue;
    if (kind === 'CreatedNode') final.push(...tokenIds(fieldsOf(node, 'NewFields')));
    if (kind === 'ModifiedNode' && fieldsOf(node, 'PreviousFields').NFTokens !== undefined) {
      previous.push(...tokenIds(fieldsOf(node, 'PreviousFields')));
      final.push(...tokenIds(fieldsOf(node, 'FinalFields')));
    }
  }
  if (final.length !== previous.length + 1) return undefined;
  final.sort();
  previous.sort();
  return final.find((id, index) => id !== previous[index]);
}

/** rippled getNFTokenIDFromDeletedOffer: the tokens of the deleted offers, each once, in order. */
function deletedOfferTokenIds(meta: JsonObject): string[] {
  const ids = affectedNodes(meta)
    .filter(({ kind, node }) => kind === 'DeletedNode' && node.LedgerEntryType === 'NFTokenOffer')
    .map(({ node }) => String(fieldsOf(node, 'FinalFields').NFTokenID ?? '').toUpperCase());
  return [...new Set(ids)].sort();
}

/** rippled getOfferIDFromCreatedOffer: the key of the offer the transaction created. */
function createdOfferId(meta: JsonObject): string | undefined {
  const created = affectedNodes(meta).find(({ kind, node }) => kind === 'CreatedNode' && node.LedgerEntryType === 'NFTokenOffer');
  return created === undefined ? undefined : String(created.node.LedgerIndex).toUpperCase();
}

/**
 * rippled makeMptID: an MPTokenIssuance's id, its `Sequence` (4 bytes, big-endian) and its
 * `Issuer`'s account id, from its fields (decoded JSON).
 */
export function mptIssuanceIdOfFields(fields: JsonObject, decodeAccountId: (address: string) => Uint8Array): string | undefined {
  if (typeof fields.Issuer !== 'string' || typeof fields.Sequence !== 'number') return undefined;
  const sequence = fields.Sequence.toString(16).toUpperCase().padStart(8, '0');
  return sequence + Buffer.from(decodeAccountId(fields.Issuer)).toString('hex').toUpperCase();
}

function createdIssuanceId(meta: JsonObject, profile: ChainProfile): string | undefined {
  const created = affectedNodes(meta).find(({ kind, node }) => kind === 'CreatedNode' && node.LedgerEntryType === 'MPTokenIssuance');
  return created === undefined ? undefined : mptIssuanceIdOfFields(fieldsOf(created.node, 'NewFields'), profile.codec.decodeAccountId);
}

/**
 * rippled insertNFTSyntheticInJson: what `tx`, `account_tx` and the transaction streams add to a
 * successful NFToken transaction's metadata (its `ledger` answers add none).
 */
export function nftSyntheticFields(tx: JsonObject, meta: JsonObject): JsonObject {
  if (meta.TransactionResult !== 'tesSUCCESS') return {};
  switch (tx.TransactionType) {
    case 'NFTokenMint': {
      const tokenId = mintedTokenId(meta);
      const offerId = tx.Amount === undefined ? undefined : createdOfferId(meta);
      return { ...(tokenId === undefined ? {} : { nftoken_id: tokenId }), ...(offerId === undefined ? {} : { offer_id: offerId }) };
    }
    case 'NFTokenAcceptOffer': {
      const [tokenId] = deletedOfferTokenIds(meta);
      return tokenId === undefined ? {} : { nftoken_id: tokenId };
    }
    case 'NFTokenCancelOffer':
      return { nftoken_ids: deletedOfferTokenIds(meta) };
    case 'NFTokenCreateOffer': {
      const offerId = createdOfferId(meta);
      return offerId === undefined ? {} : { offer_id: offerId };
    }
    default:
      return {};
  }
}

/** rippled insertMPTokenIssuanceID: the issuance a successful MPTokenIssuanceCreate created, in every answer's metadata. */
export function mptIssuanceIdOf(tx: JsonObject, meta: JsonObject, profile: ChainProfile): string | undefined {
  if (meta.TransactionResult !== 'tesSUCCESS' || tx.TransactionType !== 'MPTokenIssuanceCreate') return undefined;
  return createdIssuanceId(meta, profile);
}
