/**
 * Helpers for the engine's tests: sign transactions with a chain's keys (ripple-keypairs under
 * the profile's alphabet), submit them with the sequence the ledger expects, and check a closed
 * ledger against the published `xrpl` package's hashing functions.
 */
import { getProfile, type ChainProfile } from '@ledger-node/chain';
import { hashes } from 'xrpl';
import { createDevnetChain, type DevnetChainOptions } from './chain';
import type { ClosedLedger, DevnetChain, JsonObject, SubmitResult } from './types';

export interface TestAccount {
  seed: string;
  address: string;
  publicKey: string;
  privateKey: string;
}

/** Fixed seeds (entropy 1..n) so that every run sees the same accounts and hashes. */
export function testAccount(profile: ChainProfile, number: number, algorithm: 'secp256k1' | 'ed25519' = 'secp256k1'): TestAccount {
  const entropy = new Uint8Array(16);
  entropy[15] = number;
  const seed = profile.keys.generateSeed({ algorithm, entropy });
  return accountFromSeed(profile, seed);
}

export function accountFromSeed(profile: ChainProfile, seed: string): TestAccount {
  const { publicKey, privateKey } = profile.keys.deriveKeypair(seed);
  return { seed, address: profile.keys.deriveAddress(publicKey), publicKey, privateKey };
}

/** A signed blob: SigningPubKey added, the signing fields signed, everything serialized. */
export function signBlob(profile: ChainProfile, signer: TestAccount, tx: JsonObject): string {
  const unsigned = { ...tx, SigningPubKey: signer.publicKey };
  const signature = profile.keys.sign(profile.codec.encodeForSigning(unsigned), signer.privateKey);
  return profile.codec.encode({ ...unsigned, TxnSignature: signature });
}

export class TestLedger {
  readonly chain: DevnetChain;
  readonly genesis: TestAccount;
  private closeTime = 800_000_000;

  constructor(
    readonly profile: ChainProfile = getProfile('xrpl'),
    options: DevnetChainOptions = {},
  ) {
    this.chain = createDevnetChain(profile, { now: () => this.closeTime, ...options });
    this.genesis = accountFromSeed(profile, profile.genesis.secret);
  }

  account(number: number, algorithm: 'secp256k1' | 'ed25519' = 'secp256k1'): TestAccount {
    return testAccount(this.profile, number, algorithm);
  }

  /** The account's next sequence in the open ledger. */
  sequence(address: string): number {
    return this.accountField(address, 'Sequence') as number;
  }

  /** Signs and submits; Fee defaults to the base fee and Sequence to the account's next one. */
  submit(from: TestAccount, tx: JsonObject): SubmitResult {
    const root = this.chain.accountRoot!(from.address, this.chain.openLedgerIndex());
    const filled: JsonObject = {
      Fee: this.chain.fees.baseFee.toString(),
      Sequence: root === undefined ? 1 : (root.json.Sequence as number),
      ...tx,
      Account: from.address,
    };
    return this.chain.submit(signBlob(this.profile, from, filled));
  }

  /** Submits and fails the test unless the result is `expected`. */
  expectResult(from: TestAccount, tx: JsonObject, expected: string): SubmitResult {
    const result = this.submit(from, tx);
    if (result.engineResult !== expected) {
      throw new Error(`${String(tx.TransactionType)} from ${from.address}: expected ${expected}, got ${result.engineResult}`);
    }
    return result;
  }

  fund(to: TestAccount | string, drops: bigint): SubmitResult {
    const destination = typeof to === 'string' ? to : to.address;
    return this.expectResult(this.genesis, { TransactionType: 'Payment', Destination: destination, Amount: drops.toString() }, 'tesSUCCESS');
  }

  /** Closes the open ledger 10 seconds after the previous close. */
  close(): ClosedLedger {
    this.closeTime += 10;
    return this.chain.close(this.closeTime);
  }

  balance(address: string, ledgerIndex = this.chain.openLedgerIndex()): bigint {
    return BigInt(this.chain.accountRoot!(address, ledgerIndex)!.json.Balance as string);
  }

  accountField(address: string, field: string, ledgerIndex = this.chain.openLedgerIndex()): unknown {
    return this.chain.accountRoot!(address, ledgerIndex)?.json[field];
  }
}

/** The last transaction's metadata in a closed ledger, with AffectedNodes by kind and entry type. */
export function affectedNodes(meta: JsonObject): { kind: string; type: string; index: string; fields: JsonObject }[] {
  return (meta.AffectedNodes as JsonObject[]).map((wrapper) => {
    const [kind, node] = Object.entries(wrapper)[0] as [string, JsonObject];
    return { kind, type: node.LedgerEntryType as string, index: node.LedgerIndex as string, fields: node };
  });
}

/** What the published `xrpl` package computes for a closed ledger (XRPL definitions only). */
export function xrplHashesOf(chain: DevnetChain, ledger: ClosedLedger): { ledgerHash: string; transactionHash: string; accountHash: string } {
  const header = ledger.header;
  const ledgerHash = hashes.hashLedgerHeader({
    ledger_index: header.ledgerIndex,
    total_coins: header.totalCoins.toString(),
    parent_hash: header.parentHash,
    transaction_hash: header.transactionHash,
    account_hash: header.accountHash,
    parent_close_time: header.parentCloseTime,
    close_time: header.closeTime,
    close_time_resolution: header.closeTimeResolution,
    close_flags: header.closeFlags,
  } as unknown as Parameters<typeof hashes.hashLedgerHeader>[0]);
  const transactions = ledger.transactions.map((tx) => ({ ...tx.txJson, metaData: tx.metaJson }));
  const transactionHash = hashes.hashTxTree(transactions as unknown as Parameters<typeof hashes.hashTxTree>[0]);
  const entries = chain.stateEntries(header.ledgerIndex, undefined, Number.MAX_SAFE_INTEGER).map((entry) => ({ ...entry.json, index: entry.index }));
  const accountHash = hashes.hashStateTree(entries as unknown as Parameters<typeof hashes.hashStateTree>[0]);
  return { ledgerHash, transactionHash, accountHash };
}
