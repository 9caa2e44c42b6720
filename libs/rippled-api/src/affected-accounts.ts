/**
 * The accounts a validated transaction affects, for account streams and account history (rippled
 * TxMeta::getAffectedAccounts): the sender and destination, every account field of the entries
 * the metadata creates, modifies or deletes, and the issuers of trust-line limits and offer amounts.
 */
import type { ChainProfile } from '@ledger-node/chain';
import { affectedNodes } from './affected-nodes';
import type { JsonObject } from './protocol';

/** Amount fields whose issuer counts as affected (rippled: LowLimit/HighLimit, TakerPays/TakerGets). */
const ISSUER_FIELDS = new Set(['LowLimit', 'HighLimit', 'TakerPays', 'TakerGets']);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function affectedAccounts(txJson: JsonObject, metaJson: JsonObject, profile: ChainProfile): Set<string> {
  const accounts = new Set<string>();
  const addIfAddress = (value: unknown) => {
    // Addresses are 25 to 35 base58 characters: checking the length first keeps hex fields cheap.
    if (typeof value === 'string' && value.length >= 25 && value.length <= 35 && profile.codec.isValidAddress(value)) accounts.add(value);
  };
  addIfAddress(txJson.Account);
  addIfAddress(txJson.Destination);
  for (const { node } of affectedNodes(metaJson)) {
    const fields = node.NewFields ?? node.FinalFields;
    if (!isObject(fields)) continue;
    for (const [name, value] of Object.entries(fields)) {
      if (ISSUER_FIELDS.has(name) && isObject(value)) addIfAddress(value.issuer);
      else addIfAddress(value);
    }
  }
  return accounts;
}
