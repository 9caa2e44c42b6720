/**
 * One connection's subscriptions (rippled `subscribe`): the `ledger` stream (ledgerClosed
 * messages), the `validations` stream (the devnet's own validation of each ledger, signed with its
 * validator key), the `transactions` stream and per-account transaction messages. Messages follow
 * the API version of the subscribe request, as rippled keeps it per subscriber.
 */
import { devnetValidatorKeypair, encodeNodePublicKey, signValidation, type ChainProfile } from '@ledger-node/chain';
import { formatRanges, ledgerStreamFields as streamFields, placeOf, transactionStreamMessage, type ApiVersion } from '@ledger-node/rippled-api';
import type { ClosedLedger, ClosedTransaction, JsonObject } from '../engine/types';
import { affectedAccountsOf } from './account-tx-index';
import type { LedgerSource } from './ledger-source';
import { DEVNET_RENDER_STYLE } from './methods/context';

/** Streams rippled accepts; only `ledger`, `validations` and the transaction streams carry messages here. */
export const knownStreams = [
  'ledger',
  'transactions',
  'transactions_proposed',
  'rt_transactions',
  'server',
  'validations',
  'manifests',
  'peer_status',
  'consensus',
  'book_changes',
] as const;
export type StreamName = (typeof knownStreams)[number];

export function isStreamName(value: unknown): value is StreamName {
  return typeof value === 'string' && (knownStreams as readonly string[]).includes(value);
}

const transactionStreams = new Set<StreamName>(['transactions', 'transactions_proposed', 'rt_transactions']);

/** The fields of the `ledger` stream shared by the subscribe answer and ledgerClosed messages. */
export function ledgerStreamFields(source: LedgerSource, ledger: ClosedLedger): JsonObject {
  return streamFields({
    place: placeOf(ledger),
    fees: source.fees,
    networkId: source.networkId,
    validatedLedgers: formatRanges(source.completeRanges()),
  });
}

const validators = new Map<ChainProfile, { publicKey: string; privateKey: string; nodePublicKey: string }>();

/** rippled's validationReceived message for the devnet's full validation of a ledger (signed at its close time). */
export function validationMessage(profile: ChainProfile, ledger: ClosedLedger): JsonObject {
  let validator = validators.get(profile);
  if (!validator) {
    const keypair = devnetValidatorKeypair(profile);
    validator = { ...keypair, nodePublicKey: encodeNodePublicKey(keypair.publicKey, profile) };
    validators.set(profile, validator);
  }
  const signingTime = ledger.header.closeTime;
  const data = signValidation(profile, validator, { ledgerIndex: ledger.header.ledgerIndex, ledgerHash: ledger.hash, signingTime });
  return {
    type: 'validationReceived',
    data,
    flags: 0x80000001,
    full: true,
    ledger_hash: ledger.hash,
    ledger_index: String(ledger.header.ledgerIndex),
    master_key: validator.nodePublicKey,
    signature: String(profile.codec.decode(data).Signature),
    signing_time: signingTime,
    validation_public_key: validator.nodePublicKey,
  };
}

export function transactionMessage(source: LedgerSource, ledger: ClosedLedger, tx: ClosedTransaction, apiVersion: ApiVersion): JsonObject {
  return transactionStreamMessage(source.profile, placeOf(ledger), tx, apiVersion, DEVNET_RENDER_STYLE);
}

export class Subscriber {
  private readonly streams = new Set<StreamName>();
  private readonly accounts = new Set<string>();
  private apiVersion: ApiVersion = 1;
  private stopFollowing: (() => void) | undefined;

  constructor(
    private readonly source: LedgerSource,
    private readonly send: (message: JsonObject) => void,
  ) {}

  subscribe(streams: readonly StreamName[], accounts: readonly string[], apiVersion: ApiVersion): void {
    this.apiVersion = apiVersion;
    // The validation of the newest ledger at once: a devnet whose replay has ended closes no more
    // ledgers, so a subscriber would otherwise never see one (a live network validates every few seconds).
    const validated = this.source.validatedLedger();
    if (streams.includes('validations') && !this.streams.has('validations') && validated) {
      queueMicrotask(() => this.send(validationMessage(this.source.profile, validated)));
    }
    for (const stream of streams) this.streams.add(stream);
    for (const account of accounts) this.accounts.add(account);
    this.updateFollowing();
  }

  unsubscribe(streams: readonly StreamName[], accounts: readonly string[]): void {
    for (const stream of streams) this.streams.delete(stream);
    for (const account of accounts) this.accounts.delete(account);
    this.updateFollowing();
  }

  close(): void {
    this.streams.clear();
    this.accounts.clear();
    this.updateFollowing();
  }

  private wantsLedgers(): boolean {
    return this.streams.has('ledger') || this.streams.has('validations') || this.wantsAllTransactions() || this.accounts.size > 0;
  }

  private wantsAllTransactions(): boolean {
    for (const stream of this.streams) if (transactionStreams.has(stream)) return true;
    return false;
  }

  private updateFollowing(): void {
    if (this.wantsLedgers() && !this.stopFollowing) {
      this.stopFollowing = this.source.followLedgers((ledger) => this.publish(ledger));
    } else if (!this.wantsLedgers() && this.stopFollowing) {
      this.stopFollowing();
      this.stopFollowing = undefined;
    }
  }

  /** rippled NetworkOPs::pubLedger: the ledgerClosed message first, then the ledger's transactions. */
  private publish(ledger: ClosedLedger): void {
    if (this.streams.has('validations')) this.send(validationMessage(this.source.profile, ledger));
    if (this.streams.has('ledger')) {
      this.send({ type: 'ledgerClosed', ...ledgerStreamFields(this.source, ledger), txn_count: ledger.transactions.length });
    }
    const allTransactions = this.wantsAllTransactions();
    if (!allTransactions && this.accounts.size === 0) return;
    for (const tx of [...ledger.transactions].sort((a, b) => a.index - b.index)) {
      if (allTransactions || this.affectsSubscribedAccount(tx)) {
        this.send(transactionMessage(this.source, ledger, tx, this.apiVersion));
      }
    }
  }

  private affectsSubscribedAccount(tx: ClosedTransaction): boolean {
    for (const account of affectedAccountsOf(tx, this.source.profile)) if (this.accounts.has(account)) return true;
    return false;
  }
}
