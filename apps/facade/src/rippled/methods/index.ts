import type { RippledMethod } from '../method';
import { accountChannels } from './account-channels';
import { accountCurrencies } from './account-currencies';
import { accountInfo } from './account-info';
import { accountLines } from './account-lines';
import { accountObjects } from './account-objects';
import { accountOffers } from './account-offers';
import { accountTx } from './account-tx';
import { bookOffers } from './book-offers';
import { depositAuthorized } from './deposit-authorized';
import { fee } from './fee';
import { pathFind, ripplePathFind, simulate, submitMultisigned } from './forwarded';
import { ledger, ledgerClosed, ledgerCurrent } from './ledger';
import { ledgerData } from './ledger-data';
import { ledgerIndex } from './ledger-index';
import { ledgerEntry } from './ledger-entry';
import { manifest } from './manifest';
import { ping, random, version } from './ping';
import { serverInfo, serverState } from './server-info';
import { submit } from './submit';
import { transactionEntry, tx } from './tx';

export { rippledErrorOf } from './errors';

/** Every rippled-compatible method the node answers, by command name: from its store, sync's trust state, or forwarded. */
export const rippledMethods: Readonly<Record<string, RippledMethod>> = {
  account_channels: accountChannels,
  account_currencies: accountCurrencies,
  account_info: accountInfo,
  account_lines: accountLines,
  account_objects: accountObjects,
  account_offers: accountOffers,
  account_tx: accountTx,
  book_offers: bookOffers,
  deposit_authorized: depositAuthorized,
  fee,
  ledger,
  ledger_closed: ledgerClosed,
  ledger_current: ledgerCurrent,
  ledger_data: ledgerData,
  ledger_index: ledgerIndex,
  ledger_entry: ledgerEntry,
  manifest,
  path_find: pathFind,
  ping,
  random,
  ripple_path_find: ripplePathFind,
  server_info: serverInfo,
  server_state: serverState,
  simulate,
  submit,
  submit_multisigned: submitMultisigned,
  transaction_entry: transactionEntry,
  tx,
  version,
};
