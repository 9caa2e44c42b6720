/**
 * Who may call what: the node's call graph, method by method, written once. Over mutual TLS each
 * service's certificate names it (`sync`, `facade`, …), and every service's server admits a call
 * only from the identities this table gives its method (server.ts). A method no service calls
 * admits no certificate: it is served on a service's local socket only (the `account` commands
 * create keys so). The tests call every method with every identity, and the call graph of docs/operating.md is
 * this table.
 */
import { KeystoreServiceService, LedgerStoreServiceService, SubmissionServiceService, SyncServiceService } from '@ledger-node/contracts';
import type { AnyService } from './types';

export const SERVICE_IDENTITIES = ['ledger-store', 'sync', 'keystore', 'submission', 'facade'] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

/** Each method of a service, and the identities that may call it. */
export type CallersOf<S extends AnyService> = { readonly [M in keyof S & string]: readonly ServiceIdentity[] };

/** Reads of the verified store: everything the node serves is read by the facade; sync and submission read what they follow. */
const STORE_READERS: readonly ServiceIdentity[] = ['sync', 'facade', 'submission'];

export const LEDGER_STORE_CALLERS: CallersOf<typeof LedgerStoreServiceService> = {
  // Nothing but sync puts data into the verified store.
  putLedgers: ['sync'],
  putLedgersStream: ['sync'],
  putStateObjects: ['sync'],
  putStateChanges: ['sync'],
  deleteLedger: ['sync'],
  getLedger: STORE_READERS,
  getTransaction: STORE_READERS,
  getTransactions: STORE_READERS,
  getTransactionByIndex: STORE_READERS,
  getStatus: STORE_READERS,
  getAccountStates: STORE_READERS,
  getAccountTransactions: STORE_READERS,
  getAccountTransactionCount: STORE_READERS,
  getNft: STORE_READERS,
  getNftTransactions: STORE_READERS,
  listStateObjects: STORE_READERS,
  getStateObjects: STORE_READERS,
  // The network's proof of a ledger, for the proofs the facade hands clients.
  getLedgerEvidence: ['facade'],
  // Consecutive ledgers in one read: a proof's chain of headers (facade), the state prover's ledgers (sync).
  getLedgerRange: ['facade', 'sync'],
  watchLedgers: STORE_READERS,
  // Sync keeps its view of the stored ledgers inside what the store holds.
  watchRanges: ['sync'],
};

export const KEYSTORE_CALLERS: CallersOf<typeof KeystoreServiceService> = {
  listAccounts: ['facade', 'submission'],
  // Keys are made by `ledger-node account generate` on the keystore's own socket, never by a service.
  generateAccount: [],
  // jt_sign.
  signMessage: ['facade'],
  // Payments submission builds, autofills and tracks.
  signTransaction: ['submission'],
};

export const SUBMISSION_CALLERS: CallersOf<typeof SubmissionServiceService> = {
  signPayment: ['facade'],
  sendPayment: ['facade'],
  submitSigned: ['facade'],
  getSubmission: ['facade'],
  listSubmissions: ['facade'],
  // The rippled API's forwarded commands (path_find, simulate, submit_multisigned): the facade alone.
  forward: ['facade'],
  findPaths: ['facade'],
};

export const SYNC_CALLERS: CallersOf<typeof SyncServiceService> = {
  getSyncStatus: ['facade'],
  // The rippled API's `manifest`.
  getManifest: ['facade'],
  // jt_getProof's account state.
  getStateProof: ['facade'],
};

/** The table by service, for the tests and the call graph of docs/operating.md. */
export const CALL_GRAPH = [
  { service: 'ledger-store' as ServiceIdentity, name: 'ledgernode.ledgerstore.v1.LedgerStoreService', definition: LedgerStoreServiceService, callers: LEDGER_STORE_CALLERS },
  { service: 'keystore' as ServiceIdentity, name: 'ledgernode.keystore.v1.KeystoreService', definition: KeystoreServiceService, callers: KEYSTORE_CALLERS },
  { service: 'submission' as ServiceIdentity, name: 'ledgernode.submission.v1.SubmissionService', definition: SubmissionServiceService, callers: SUBMISSION_CALLERS },
  { service: 'sync' as ServiceIdentity, name: 'ledgernode.sync.v1.SyncService', definition: SyncServiceService, callers: SYNC_CALLERS },
] as const;

/** The admission rule of a service's binding (bindService): its methods' callers from the table. */
export function admittedBy<S extends AnyService>(callers: CallersOf<S>): (method: keyof S & string) => readonly string[] {
  return (method) => callers[method];
}

/** Markdown lines of the call graph: for each service, who calls which methods. */
export function callGraphLines(): string[] {
  return CALL_GRAPH.flatMap(({ service, callers }) => {
    const byCallers = new Map<string, string[]>();
    for (const [method, admitted] of Object.entries(callers) as [string, readonly ServiceIdentity[]][]) {
      const key = admitted.length === 0 ? 'its local socket only' : admitted.join(', ');
      byCallers.set(key, [...(byCallers.get(key) ?? []), method]);
    }
    return [...byCallers].map(([who, methods]) => `| ${service} | ${methods.map((method) => `\`${method[0]!.toUpperCase()}${method.slice(1)}\``).join(', ')} | ${who} |`);
  });
}
