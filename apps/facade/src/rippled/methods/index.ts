import type { RippledMethod } from '../method';
import { accountChannels } from './account-channels';
import { accountCurrencies } from './account-currencies';
import { accountInfo } from './account-info';
import { accountLines } from './account-lines';
import { accountObjects } from './account-objects';
import { accountOffers } from './account-offers';
import { accountTx } from './account-tx';
import { bookChanges } from './book-changes';
import { bookOffers } from './book-offers';
import { channelVerify } from './channel-verify';
import { depositAuthorized } from './deposit-authorized';
import { feature } from './feature';
import { fee } from './fee';
import { ledger, ledgerClosed, ledgerCurrent } from './ledger';
import { ledgerData } from './ledger-data';
import { ledgerIndex } from './ledger-index';
import { ledgerEntry } from './ledger-entry';
import { ping, random, version } from './ping';
import { serverDefinitions } from './server-definitions';
import { serverInfo, serverState } from './server-info';
import { submit } from './submit';
import { transactionEntry, tx } from './tx';

export { rippledErrorOf } from './errors';

/** Every rippled-compatible method the node answers from its store, by command name. */
export const rippledMethods: Readonly<Record<string, RippledMethod>> = {
  account_channels: accountChannels,
  account_currencies: accountCurrencies,
  account_info: accountInfo,
  account_lines: accountLines,
  account_objects: accountObjects,
  account_offers: accountOffers,
  account_tx: accountTx,
  book_changes: bookChanges,
  book_offers: bookOffers,
  channel_verify: channelVerify,
  deposit_authorized: depositAuthorized,
  feature,
  fee,
  ledger,
  ledger_closed: ledgerClosed,
  ledger_current: ledgerCurrent,
  ledger_data: ledgerData,
  ledger_index: ledgerIndex,
  ledger_entry: ledgerEntry,
  ping,
  random,
  server_definitions: serverDefinitions,
  server_info: serverInfo,
  server_state: serverState,
  submit,
  transaction_entry: transactionEntry,
  tx,
  version,
};
