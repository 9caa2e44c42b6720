/**
 * Clio `nft_info` (NFTInfo.cpp): an NFToken as of a stored ledger (the validated one by default)
 * from the store's NFT index: its owner, whether it is burned and its URI as the newest ledger
 * that changed it left them (`ledger_index` is that ledger), with the fields its NFTokenID packs.
 * An NFToken no stored ledger changed is `objectNotFound`.
 */
import { isLedgerNodeError } from '@ledger-node/errors';
import { RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { nftokenIdFields } from './account-nfts';
import { hex, resolveLedger } from './ledgers';

/** Clio's Uint256HexStringValidator on a required field: the NFTokenID, upper-case hex. */
export function readNftId(params: JsonObject): string {
  const value = params.nft_id;
  if (value === undefined) throw new RpcError('invalidParams', "Required field 'nft_id' missing");
  if (typeof value !== 'string') throw new RpcError('invalidParams', 'nft_idNotString');
  if (!/^[0-9A-Fa-f]{64}$/.test(value)) throw new RpcError('invalidParams', 'nft_idMalformed');
  return value.toUpperCase();
}

/** Clio's LedgerIndexValidator and, for ledger_hash, Uint256HexStringValidator, before the ledger is looked up. */
export function checkClioLedgerFields(params: JsonObject): void {
  const hash = params.ledger_hash;
  if (hash !== undefined) {
    if (typeof hash !== 'string') throw new RpcError('invalidParams', 'ledger_hashNotString');
    if (!/^[0-9A-Fa-f]{64}$/.test(hash)) throw new RpcError('invalidParams', 'ledger_hashMalformed');
  }
  const index = params.ledger_index;
  if (index === undefined) return;
  const valid = typeof index === 'string' ? index === 'validated' || /^[0-9]{1,10}$/.test(index) : Number.isSafeInteger(index) && (index as number) >= 0;
  if (!valid || Number(index) > 0xffffffff) throw new RpcError('invalidParams', 'ledgerIndexMalformed');
}

export const nftInfo: RippledMethod = async ({ params }, context) => {
  const nftId = readNftId(params);
  checkClioLedgerFields(params);
  const { selector } = await resolveLedger(params, context);
  let found;
  try {
    found = await context.queries.nft({ nftId: Buffer.from(nftId, 'hex'), ledger: selector });
  } catch (error) {
    if (isLedgerNodeError(error) && error.kind === 'not_found') throw new RpcError('objectNotFound', 'NFT not found');
    throw error;
  }
  const nft = found.nft!;
  const fields = nftokenIdFields(nftId, context.profile.codec);
  return {
    nft_id: nftId,
    ledger_index: found.changedLedgerIndex,
    owner: context.profile.codec.encodeAccountId(nft.ownerAccountId),
    is_burned: nft.burned,
    flags: fields.flags,
    transfer_fee: fields.transferFee,
    issuer: fields.issuer,
    nft_taxon: fields.taxon,
    nft_serial: fields.serial,
    uri: hex(nft.uri),
    validated: true,
  };
};
