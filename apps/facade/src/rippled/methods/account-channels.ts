/**
 * rippled `account_channels` (AccountChannels.cpp): the payment channels an account owns as their
 * source at a stored ledger, optionally to one `destination_account`, each as rippled's addChannel
 * prints it; `limit` (10 to 400, 200 by default) and the marker of `account_objects`, whose owner
 * directory walk it shares (counting channels only, where rippled counts every directory entry).
 */
import { encodeAccountPublicKey, isPublicKeyHex } from '@ledger-node/chain';
import { issuedValueText, pageLimits, readAccount, readLimit, type JsonObject } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { ownedEntries } from './account-objects';
import { readAccountAt } from './accounts';
import { ledgerFields } from './ledgers';
import { StateView } from './state';

/** An amount as STAmount::getText prints it: drops for XRP, the value alone for a token. */
const channelAmountText = (amount: unknown) => (typeof amount === 'object' && amount !== null ? issuedValueText(String((amount as JsonObject).value)) : String(amount));

export const accountChannels: RippledMethod = async ({ params }, context) => {
  const { profile } = context;
  const destination = params.destination_account === undefined || params.destination_account === '' ? undefined : readAccount(params, profile.codec, 'destination_account');
  const limit = readLimit(params, pageLimits.accountChannels);
  const { account, accountId, ledger } = await readAccountAt(params, context);
  const state = new StateView(context, ledger.ledgerIndex);
  const { entries, marker } = await ownedEntries(state, accountId, params.marker, limit, (entryType) => entryType === 'PayChannel');
  const channels = entries
    .filter((entry) => entry.json.Account === account && (destination === undefined || entry.json.Destination === destination))
    .map((entry) => {
      const channel = entry.json;
      const json: JsonObject = {
        channel_id: entry.key,
        account: channel.Account,
        destination_account: channel.Destination,
        amount: channelAmountText(channel.Amount),
        balance: channelAmountText(channel.Balance),
      };
      if (typeof channel.PublicKey === 'string' && isPublicKeyHex(channel.PublicKey)) {
        json.public_key = encodeAccountPublicKey(channel.PublicKey, profile);
        json.public_key_hex = channel.PublicKey.toUpperCase();
      }
      json.settle_delay = channel.SettleDelay;
      for (const [field, key] of [['Expiration', 'expiration'], ['CancelAfter', 'cancel_after'], ['SourceTag', 'source_tag'], ['DestinationTag', 'destination_tag']] as const) {
        if (channel[field] !== undefined) json[key] = channel[field];
      }
      return json;
    });
  const result: JsonObject = { account, channels, ...ledgerFields(ledger) };
  if (marker !== undefined) {
    result.limit = limit;
    result.marker = marker;
  }
  return result;
};
