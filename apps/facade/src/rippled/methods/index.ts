import type { ChainProfile } from '@ledger-node/chain';
import type { RippledHandler } from '../method';
import { accountChannels } from './account-channels';
import { accountCurrencies } from './account-currencies';
import { accountInfo } from './account-info';
import { accountLines } from './account-lines';
import { accountNfts } from './account-nfts';
import { accountObjects } from './account-objects';
import { accountOffers } from './account-offers';
import { accountTx } from './account-tx';
import { ammInfo } from './amm-info';
import { bookChanges } from './book-changes';
import { bookOffers } from './book-offers';
import { channelVerify } from './channel-verify';
import { depositAuthorized } from './deposit-authorized';
import { feature } from './feature';
import { keptWhen, namesLedger, namesTransaction } from './final-answers';
import { fee } from './fee';
import { pathFind, ripplePathFind, simulate, submitMultisigned } from './forwarded';
import { gatewayBalances } from './gateway-balances';
import { getAggregatePrice } from './get-aggregate-price';
import { ledger, ledgerClosed, ledgerCurrent } from './ledger';
import { ledgerData } from './ledger-data';
import { ledgerIndex } from './ledger-index';
import { ledgerEntry } from './ledger-entry';
import { manifest } from './manifest';
import { nftHistory } from './nft-history';
import { nftInfo } from './nft-info';
import { nftBuyOffers, nftSellOffers } from './nft-offers';
import { noRippleCheck } from './noripple-check';
import { ping, random, version } from './ping';
import { serverDefinitions } from './server-definitions';
import { serverInfo, serverState } from './server-info';
import { submit } from './submit';
import { transactionEntry, tx } from './tx';
import { vaultInfo } from './vault-info';

export { rippledErrorOf } from './errors';

/** Every rippled-compatible method the node answers, by command name: from its store, sync's trust state, or forwarded. */
export const rippledMethods: Readonly<Record<string, RippledHandler>> = {
  account_channels: accountChannels,
  account_currencies: accountCurrencies,
  account_info: keptWhen('account_info', accountInfo, namesLedger),
  account_lines: keptWhen('account_lines', accountLines, namesLedger),
  account_nfts: accountNfts,
  account_objects: keptWhen('account_objects', accountObjects, namesLedger),
  account_offers: accountOffers,
  account_tx: accountTx,
  amm_info: ammInfo,
  book_changes: bookChanges,
  book_offers: bookOffers,
  channel_verify: channelVerify,
  deposit_authorized: depositAuthorized,
  feature,
  fee,
  gateway_balances: gatewayBalances,
  get_aggregate_price: getAggregatePrice,
  ledger: keptWhen('ledger', ledger, namesLedger),
  ledger_closed: ledgerClosed,
  ledger_current: ledgerCurrent,
  ledger_data: ledgerData,
  ledger_index: ledgerIndex,
  ledger_entry: keptWhen('ledger_entry', ledgerEntry, namesLedger),
  manifest,
  nft_buy_offers: nftBuyOffers,
  nft_history: nftHistory,
  nft_info: nftInfo,
  nft_sell_offers: nftSellOffers,
  noripple_check: noRippleCheck,
  path_find: pathFind,
  ping,
  random,
  ripple_path_find: ripplePathFind,
  server_definitions: serverDefinitions,
  server_info: serverInfo,
  server_state: serverState,
  simulate,
  submit,
  submit_multisigned: submitMultisigned,
  transaction_entry: transactionEntry,
  tx: keptWhen('tx', tx, namesTransaction),
  vault_info: vaultInfo,
  version,
};

/** Methods over ledger objects Jingtum does not have (NFTokens, AMMs, vaults, price oracles); its node does not know them. */
const xrplOnly: ReadonlySet<string> = new Set([
  'account_nfts',
  'amm_info',
  'get_aggregate_price',
  'nft_buy_offers',
  'nft_history',
  'nft_info',
  'nft_sell_offers',
  'vault_info',
]);

/** The methods a node of this chain answers: on Jingtum, those over objects it lacks are unknownCmd, as its node answers. */
export function rippledMethodsFor(profile: Pick<ChainProfile, 'id'>): Readonly<Record<string, RippledHandler>> {
  if (profile.id === 'xrpl') return rippledMethods;
  return Object.fromEntries(Object.entries(rippledMethods).filter(([command]) => !xrplOnly.has(command)));
}
