/**
 * A devnet-like network for the tests: a publisher and validators (devnetNetworkKeys), their
 * manifests and the published list, signing validations of real recorded ledgers (fixtures) and of
 * ledgers made from them.
 */
import {
  devnetNetworkKeys,
  getProfile,
  hashLedgerHeader,
  ledgerHeaderFromJson,
  signManifest,
  signPublishedList,
  signValidation,
  stateEntryFromLedgerJson,
  StateTree,
  transactionFromLedgerJson,
  type ChainProfile,
  type LedgerHeader,
} from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';

export const xrpl = getProfile('xrpl');

interface LedgerFixture {
  ledger: Record<string, unknown> & { transactions?: Record<string, unknown>[]; accountState?: Record<string, unknown>[] };
}

export function fixtureLedger(file: string): { header: LedgerHeader; transactions: { hash: string; txBlob: string; metaBlob: string }[]; state?: StateTree } {
  const { ledger } = readFixture<LedgerFixture>(file);
  const transactions = (ledger.transactions ?? []).map((tx) => transactionFromLedgerJson(tx, xrpl));
  let state: StateTree | undefined;
  if (ledger.accountState) {
    state = new StateTree();
    for (const entry of ledger.accountState) {
      const { index, blob } = stateEntryFromLedgerJson(entry, xrpl);
      state.set(index, blob);
    }
  }
  return { header: ledgerHeaderFromJson(ledger), transactions, ...(state ? { state } : {}) };
}

export interface TestNetwork {
  publisherKey: string;
  /** The published list (version 1) naming every validator, in force from 0 to `expiration`. */
  list: Record<string, unknown>;
  /** Full validations of the ledger by the first `count` validators (all by default). */
  validate(header: LedgerHeader, count?: number): string[];
}

export function testNetwork(options: { validatorCount?: number; expiration?: number; profile?: ChainProfile } = {}): TestNetwork {
  const profile = options.profile ?? xrpl;
  const keys = devnetNetworkKeys({ validatorCount: options.validatorCount ?? 5 });
  const validators = keys.validators.map((holder) => ({ masterKey: holder.master.publicKey, manifest: Buffer.from(signManifest({ master: holder.master, signing: holder.signing, sequence: 1 }), 'hex').toString('base64') }));
  const list = signPublishedList({
    manifest: signManifest({ master: keys.publisher.master, signing: keys.publisher.signing, sequence: 1 }),
    signing: keys.publisher.signing,
    publisherKey: keys.publisher.master.publicKey,
    blobs: [{ sequence: 7, expiration: options.expiration ?? 0x7fffffff, validators }],
    version: 1,
  });
  return {
    publisherKey: keys.publisher.master.publicKey,
    list,
    validate(header, count = keys.validators.length) {
      const ledger = { ledgerIndex: header.ledgerIndex, ledgerHash: hashLedgerHeader(header), signingTime: header.closeTime + 1 };
      return keys.validators.slice(0, count).map((holder) => signValidation(profile, holder.signing, ledger));
    },
  };
}

/** The JSON round trip a proof makes through a file. */
export function asJson<T>(document: T): Record<string, unknown> {
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}
