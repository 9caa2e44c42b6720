/**
 * The seam between the devnet's ledger engine (apps/devnet/src/engine) and its servers
 * (WebSocket API, replay, load generator). The engine knows nothing about sockets; the servers
 * know nothing about transaction rules.
 */
import type { ChainProfile, LedgerHeader } from '@ledger-node/chain';
import type { ChainSnapshot } from './snapshot';

export type JsonObject = Record<string, unknown>;

/** What `submit` answers, shaped after rippled's preliminary result. */
export interface SubmitResult {
  /** Engine result token, e.g. `tesSUCCESS`, `temBAD_FEE`, `terPRE_SEQ`. */
  engineResult: string;
  engineResultCode: number;
  engineResultMessage: string;
  /** True when the transaction is in the open ledger (tes and tec results). */
  applied: boolean;
  /** True when the transaction is held to be retried later (ter results such as terPRE_SEQ). */
  queued: boolean;
  /** The decoded transaction, addresses in the profile's alphabet; absent when the blob does not decode. */
  txJson?: JsonObject;
  /** Uppercase hex; absent when the blob does not decode. */
  txHash?: string;
  txBlob: string;
  /** Sequence the account would use next / ledger info, as rippled's submit reports them. */
  accountSequenceNext?: number;
  accountSequenceAvailable?: number;
  openLedgerIndex: number;
  validatedLedgerIndex: number;
  /**
   * Set when the blob fails rippled's local checks (does not decode, bad signature): rippled then
   * answers `submit` with error `invalidTransaction` and this text as `error_exception` instead of
   * an engine result. `engineResult` still names the closest code (temMALFORMED, temBAD_SIGNATURE).
   */
  errorException?: string;
}

export interface ClosedTransaction {
  /** Uppercase hex transaction hash. */
  hash: string;
  /** Uppercase hex of the signed transaction. */
  txBlob: string;
  /** Uppercase hex of the serialized metadata. */
  metaBlob: string;
  txJson: JsonObject;
  /** Metadata JSON, including TransactionIndex, TransactionResult, AffectedNodes, delivered_amount. */
  metaJson: JsonObject;
  /** Position in the ledger (TransactionIndex). */
  index: number;
}

export interface ClosedLedger {
  header: LedgerHeader;
  /** Uppercase hex ledger hash. */
  hash: string;
  /** In TransactionIndex order. */
  transactions: ClosedTransaction[];
}

export interface StateEntry {
  /** Uppercase hex ledger entry index (the SHAMap key). */
  index: string;
  /** Uppercase hex of the serialized ledger entry. */
  blob: string;
  json: JsonObject;
}

/** One trust line seen from an account, with rippled `account_lines` field names and value forms. */
export interface TrustLineView {
  /** The peer account. */
  account: string;
  /** What the account holds (negative: owes), decimal text. */
  balance: string;
  currency: string;
  limit: string;
  limit_peer: string;
  /** NoRipple on the account's side; servers of a Jingtum chain print it under the profile's `noRippleWireName`. */
  no_ripple: boolean;
  no_ripple_peer: boolean;
  quality_in: number;
  quality_out: number;
  authorized?: boolean;
  peer_authorized?: boolean;
  freeze?: boolean;
  freeze_peer?: boolean;
  /** Index of the trust-line entry. */
  index: string;
}

export interface FeeSettings {
  baseFee: bigint;
  reserveBase: bigint;
  reserveIncrement: bigint;
}

/** A single-node chain: every closed ledger is validated at once. */
/** Why simulate runs nothing (rippled's autofill refusals): a signature given, or no account to take a sequence from. */
export interface SimulateRefusal {
  refused: 'transactionSigned' | 'srcActNotFound' | 'srcActMalformed';
}

/** What a transaction would do to the open ledger (rippled simulate), nothing committed. */
export interface SimulateResult {
  engineResult: string;
  engineResultCode: number;
  engineResultMessage: string;
  /** The transaction as applied: autofilled, with its hash. */
  txJson: JsonObject;
  txBlob: string;
  /** Metadata (JSON, and serialized) when the result would be applied (tes, tec). */
  metaJson?: JsonObject;
  metaBlob?: string;
  /** The open ledger it was applied to. */
  ledgerIndex: number;
}

export interface DevnetChain {
  readonly profile: ChainProfile;
  readonly fees: FeeSettings;
  /** Every closed ledger and the last one's state, to continue the chain in a later run (snapshot.ts). */
  snapshot(): ChainSnapshot;
  /** Applies a signed transaction (hex) to the open ledger with rippled's rules. Never throws for bad input. */
  submit(txBlobHex: string): SubmitResult;
  /**
   * Applies an unsigned (or signed) transaction to a copy of the open ledger, after rippled's
   * simulate autofill (Sequence, Fee, SigningPubKey); throws InvalidParams for a transaction that
   * cannot be autofilled or encoded.
   */
  simulate(txJson: JsonObject): SimulateResult | SimulateRefusal;
  /** Closes (and validates) the open ledger; `closeTime` in seconds since the ripple epoch (default: now). */
  close(closeTime?: number): ClosedLedger;
  /** Transactions waiting in the open ledger or held for retry. */
  pendingCount(): number;
  validatedLedgerIndex(): number;
  /** The open ledger's index (validated + 1). */
  openLedgerIndex(): number;
  /** The earliest ledger the chain still holds (the genesis ledger, 1, unless pruned). */
  earliestLedgerIndex(): number;
  ledger(ledgerIndex: number): ClosedLedger | undefined;
  ledgerByHash(ledgerHash: string): ClosedLedger | undefined;
  /** A ledger entry as it was at a closed ledger, or in the open ledger when `ledgerIndex` is the open index. */
  stateEntry(index: string, ledgerIndex: number): StateEntry | undefined;
  /** State entries at a ledger in ascending index order, after `afterIndex` (exclusive), at most `limit`. */
  stateEntries(ledgerIndex: number, afterIndex: string | undefined, limit: number): StateEntry[];
  /** A transaction by hash from any closed ledger, with its ledger index. */
  transaction(txHash: string): { ledgerIndex: number; tx: ClosedTransaction } | undefined;
  /** Called after each close, in ledger order. Returns an unsubscribe function. */
  onLedgerClosed(listener: (ledger: ClosedLedger) => void): () => void;
  /** The account's AccountRoot at a closed ledger or the open one; undefined when it does not exist there. */
  accountRoot?(address: string, ledgerIndex: number): StateEntry | undefined;
  /**
   * The account's trust lines at a ledger, in owner-directory order (rippled `account_lines`);
   * undefined when the account or the ledger does not exist.
   */
  trustLines?(address: string, ledgerIndex: number): TrustLineView[] | undefined;
}
