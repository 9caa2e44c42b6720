/**
 * Index data of one transaction for the NFT index (Clio's nft_info and nft_history): the NFTokens
 * it touched, and the token whose owner, burned flag or URI it changed, as the transaction and its
 * metadata tell them (Clio etl/NFTHelpers: which transaction types count and where each reads the
 * owner). Each change carries the token's URI as it is after the transaction, so that one record
 * answers a read at any later ledger until the next change.
 */
import type { ChainProfile } from './profiles';

export interface NftChange {
  /** 32-byte NFTokenID. */
  nftId: Buffer;
  /** 20-byte AccountID of the owner after the transaction (the last owner of a burned token). */
  ownerAccountId: Buffer;
  burned: boolean;
  /** The token's URI; empty when it has none. */
  uri: Buffer;
}

export interface NftIndexData {
  /** The NFTokenIDs the transaction touched, each once. */
  nftIds: Buffer[];
  nftChange?: NftChange;
}

/** The transaction types whose successful transactions the NFT index records. */
const NFT_TRANSACTION_TYPES: ReadonlySet<string> = new Set([
  'NFTokenMint',
  'NFTokenBurn',
  'NFTokenModify',
  'NFTokenAcceptOffer',
  'NFTokenCreateOffer',
  'NFTokenCancelOffer',
]);

export const NO_NFT_INDEX_DATA: NftIndexData = Object.freeze({ nftIds: [] as Buffer[] });

type Json = Record<string, any>;

interface AffectedNode {
  kind: 'CreatedNode' | 'ModifiedNode' | 'DeletedNode';
  node: Json;
}

const HASH_PATTERN = /^[0-9A-Fa-f]{64}$/;

function affectedNodesOf(meta: Json): AffectedNode[] {
  const nodes = Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as Json[]) : [];
  return nodes.flatMap((wrapper) => {
    const [kind, node] = Object.entries(wrapper)[0] ?? [];
    if (kind !== 'CreatedNode' && kind !== 'ModifiedNode' && kind !== 'DeletedNode') return [];
    return typeof node === 'object' && node !== null ? [{ kind, node: node as Json }] : [];
  });
}

/** The NFToken entries of a page's field set (NewFields, FinalFields or PreviousFields), undefined when it has no NFTokens field. */
function tokensOf(fields: unknown): Json[] | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  const tokens = (fields as Json).NFTokens;
  if (!Array.isArray(tokens)) return undefined;
  return tokens.map((wrapper: Json) => (wrapper?.NFToken ?? {}) as Json);
}

const idOf = (token: Json): string => String(token.NFTokenID ?? '').toUpperCase();

/** An NFTokenPage's owner: its key's first 20 bytes (rippled keylet::nftpage). */
function pageOwner(node: Json): Buffer | undefined {
  const key = node.LedgerIndex;
  return typeof key === 'string' && HASH_PATTERN.test(key) ? Buffer.from(key.slice(0, 40), 'hex') : undefined;
}

const pages = (nodes: AffectedNode[]) => nodes.filter(({ node }) => node.LedgerEntryType === 'NFTokenPage');

/** The token's URI in any page the transaction affected, as it is after it (else before it); empty when it has none. */
function uriOf(nodes: AffectedNode[], nftId: string): Buffer {
  for (const fieldSet of ['NewFields', 'FinalFields', 'PreviousFields']) {
    for (const { node } of pages(nodes)) {
      const token = tokensOf(node[fieldSet])?.find((candidate) => idOf(candidate) === nftId);
      if (token) return typeof token.URI === 'string' ? Buffer.from(token.URI, 'hex') : Buffer.alloc(0);
    }
  }
  return Buffer.alloc(0);
}

/**
 * NFTokenMint: the token the pages' lists gained (final lists less previous lists; a modified page
 * with no previous NFTokens only had its links changed), owned by the first page's owner (with an
 * authorized minter the owner is not the sender).
 */
function minted(tx: Json, nodes: AffectedNode[]): NftChange | undefined {
  const before: string[] = [];
  const after: string[] = [];
  let owner: Buffer | undefined;
  for (const { kind, node } of pages(nodes)) {
    owner ??= pageOwner(node);
    if (kind === 'CreatedNode') after.push(...(tokensOf(node.NewFields) ?? []).map(idOf));
    else if (kind === 'ModifiedNode' && tokensOf(node.PreviousFields) !== undefined) {
      before.push(...tokensOf(node.PreviousFields)!.map(idOf));
      after.push(...(tokensOf(node.FinalFields) ?? []).map(idOf));
    }
  }
  if (after.length !== before.length + 1 || !owner) return undefined;
  after.sort();
  before.sort();
  const nftId = after.find((id, position) => id !== before[position]);
  if (!nftId || !HASH_PATTERN.test(nftId)) return undefined;
  const uri = typeof tx.URI === 'string' ? Buffer.from(tx.URI, 'hex') : Buffer.alloc(0);
  return { nftId: Buffer.from(nftId, 'hex'), ownerAccountId: owner, burned: false, uri };
}

/**
 * NFTokenBurn: the owner at burn time is the owner of the page that held the token before: a
 * modified page's previous list, or a deleted page's previous list (else its final one).
 */
function burned(nftId: string, nodes: AffectedNode[]): NftChange | undefined {
  for (const { kind, node } of pages(nodes)) {
    if (kind === 'CreatedNode') continue;
    const held = tokensOf(node.PreviousFields) ?? (kind === 'DeletedNode' ? tokensOf(node.FinalFields) : undefined);
    const token = held?.find((candidate) => idOf(candidate) === nftId);
    const owner = pageOwner(node);
    if (token && owner) {
      const uri = typeof token.URI === 'string' ? Buffer.from(token.URI, 'hex') : Buffer.alloc(0);
      return { nftId: Buffer.from(nftId, 'hex'), ownerAccountId: owner, burned: true, uri };
    }
  }
  return undefined;
}

/**
 * NFTokenAcceptOffer: with a buy offer the new owner is the buy offer's owner; with a sell offer
 * alone, the owner of the page (other than the seller's) that holds the token after.
 */
function accepted(tx: Json, nodes: AffectedNode[], decodeAccountId: (address: string) => Buffer | undefined): NftChange | undefined {
  const offerNode = (offerId: unknown) =>
    typeof offerId === 'string' ? nodes.find(({ node }) => String(node.LedgerIndex ?? '').toUpperCase() === offerId.toUpperCase())?.node : undefined;
  const offerFields = (offerId: unknown): Json | undefined => offerNode(offerId)?.FinalFields;
  if (tx.NFTokenBuyOffer !== undefined) {
    const fields = offerFields(tx.NFTokenBuyOffer);
    const nftId = String(fields?.NFTokenID ?? '').toUpperCase();
    const owner = typeof fields?.Owner === 'string' ? decodeAccountId(fields.Owner) : undefined;
    if (!HASH_PATTERN.test(nftId) || !owner) return undefined;
    return { nftId: Buffer.from(nftId, 'hex'), ownerAccountId: owner, burned: false, uri: uriOf(nodes, nftId) };
  }
  const fields = offerFields(tx.NFTokenSellOffer);
  const nftId = String(fields?.NFTokenID ?? '').toUpperCase();
  const seller = typeof fields?.Owner === 'string' ? decodeAccountId(fields.Owner) : undefined;
  if (!HASH_PATTERN.test(nftId) || !seller) return undefined;
  for (const { kind, node } of pages(nodes)) {
    if (kind === 'DeletedNode') continue;
    const owner = pageOwner(node);
    if (!owner || owner.equals(seller)) continue;
    const token = tokensOf(kind === 'CreatedNode' ? node.NewFields : node.FinalFields)?.find((candidate) => idOf(candidate) === nftId);
    if (token) {
      const uri = typeof token.URI === 'string' ? Buffer.from(token.URI, 'hex') : Buffer.alloc(0);
      return { nftId: Buffer.from(nftId, 'hex'), ownerAccountId: owner, burned: false, uri };
    }
  }
  return undefined;
}

/** NFTokenModify (XLS-46 dynamic NFTs): the URI becomes the transaction's (none clears it); the owner is the page's that holds the token. */
function modified(tx: Json, nftId: string, nodes: AffectedNode[], decodeAccountId: (address: string) => Buffer | undefined): NftChange | undefined {
  const holder = pages(nodes).find(({ kind, node }) => kind !== 'DeletedNode' && tokensOf(kind === 'CreatedNode' ? node.NewFields : node.FinalFields)?.some((token) => idOf(token) === nftId));
  const owner = (holder && pageOwner(holder.node)) ?? decodeAccountId(typeof tx.Owner === 'string' ? tx.Owner : String(tx.Account ?? ''));
  if (!owner) return undefined;
  const uri = typeof tx.URI === 'string' ? Buffer.from(tx.URI, 'hex') : Buffer.alloc(0);
  return { nftId: Buffer.from(nftId, 'hex'), ownerAccountId: owner, burned: false, uri };
}

/** NFTokenCancelOffer: the tokens of the offers it removed, each once, in ascending order. */
function cancelledOfferTokens(nodes: AffectedNode[]): string[] {
  const ids = nodes.filter(({ node }) => node.LedgerEntryType === 'NFTokenOffer').map(({ node }) => String(node.FinalFields?.NFTokenID ?? '').toUpperCase());
  return [...new Set(ids.filter((id) => HASH_PATTERN.test(id)))].sort();
}

/**
 * The NFT index data of a validated transaction, from its decoded form; none for a failed
 * transaction or one of another type. A transaction whose metadata lacks what its type should
 * show (Clio stops its ETL there) still records the token its own fields name, with no change.
 */
export function nftIndexOfDecoded(tx: Json, meta: Json, profile: Pick<ChainProfile, 'codec'>): NftIndexData {
  const type = tx.TransactionType;
  if (typeof type !== 'string' || !NFT_TRANSACTION_TYPES.has(type) || meta.TransactionResult !== 'tesSUCCESS') return NO_NFT_INDEX_DATA;
  const nodes = affectedNodesOf(meta);
  const decodeAccountId = (address: string): Buffer | undefined => (profile.codec.isValidAddress(address) ? Buffer.from(profile.codec.decodeAccountId(address)) : undefined);
  const named = typeof tx.NFTokenID === 'string' && HASH_PATTERN.test(tx.NFTokenID) ? tx.NFTokenID.toUpperCase() : undefined;
  const touching = (change: NftChange | undefined): NftIndexData => {
    if (change) return { nftIds: [change.nftId], nftChange: change };
    return named ? { nftIds: [Buffer.from(named, 'hex')] } : NO_NFT_INDEX_DATA;
  };
  switch (type) {
    case 'NFTokenMint':
      return touching(minted(tx, nodes));
    case 'NFTokenBurn':
      return touching(named ? burned(named, nodes) : undefined);
    case 'NFTokenModify':
      return touching(named ? modified(tx, named, nodes, decodeAccountId) : undefined);
    case 'NFTokenAcceptOffer':
      return touching(accepted(tx, nodes, decodeAccountId));
    case 'NFTokenCreateOffer':
      return touching(undefined);
    default:
      return { nftIds: cancelledOfferTokens(nodes).map((id) => Buffer.from(id, 'hex')) };
  }
}

/**
 * The NFT index data of a validated transaction of type `transactionType` with result
 * `engineResult`, from its binary form: only NFToken transactions that succeeded are decoded.
 */
export function nftIndexOf(txBlob: Buffer, metaBlob: Buffer, transactionType: string, engineResult: string, profile: Pick<ChainProfile, 'codec'>): NftIndexData {
  if (!NFT_TRANSACTION_TYPES.has(transactionType) || engineResult !== 'tesSUCCESS') return NO_NFT_INDEX_DATA;
  return nftIndexOfDecoded(profile.codec.decode(txBlob), profile.codec.decode(metaBlob), profile);
}
