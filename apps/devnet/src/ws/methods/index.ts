/** The rippled methods the devnet serves, by command name. */
import { accountInfo } from './account-info';
import { accountLines } from './account-lines';
import { accountTx } from './account-tx';
import { bookChanges } from './book-changes';
import { bookOffers } from './book-offers';
import { channelVerify } from './channel-verify';
import type { MethodHandler } from './context';
import { devnetNetwork, devnetPublish, devnetValidator } from './devnet-network';
import { feature } from './feature';
import { fee } from './fee';
import { ledger, ledgerClosed, ledgerCurrent } from './ledger';
import { ledgerAccept } from './ledger-accept';
import { ledgerData } from './ledger-data';
import { ledgerEntry } from './ledger-entry';
import { manifest } from './manifest';
import { pathFind, ripplePathFind } from './path-find';
import { ping } from './ping';
import { serverDefinitions } from './server-definitions';
import { serverInfo, serverState } from './server-info';
import { simulate } from './simulate';
import { submit } from './submit';
import { submitMultisigned } from './submit-multisigned';
import { subscribe, unsubscribe } from './subscribe';
import { tx } from './tx';

export type { MethodContext, MethodHandler } from './context';

export const methods: Readonly<Record<string, MethodHandler>> = {
  account_info: accountInfo,
  account_lines: accountLines,
  account_tx: accountTx,
  book_changes: bookChanges,
  book_offers: bookOffers,
  channel_verify: channelVerify,
  devnet_network: devnetNetwork,
  devnet_publish: devnetPublish,
  devnet_validator: devnetValidator,
  feature,
  fee,
  ledger,
  ledger_accept: ledgerAccept,
  ledger_closed: ledgerClosed,
  ledger_current: ledgerCurrent,
  ledger_data: ledgerData,
  ledger_entry: ledgerEntry,
  manifest,
  path_find: pathFind,
  ping,
  ripple_path_find: ripplePathFind,
  server_definitions: serverDefinitions,
  server_info: serverInfo,
  server_state: serverState,
  simulate,
  submit,
  submit_multisigned: submitMultisigned,
  subscribe,
  tx,
  unsubscribe,
};
