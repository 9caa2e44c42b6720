/**
 * Index data of one transaction for the account transaction index: who sent it, which accounts it
 * touches and on which side, its type, result and position in the ledger.
 */
import { UnreadableBinary } from './binary-reader';
import type { ChainProfile } from './profiles';
// The common messages alone: the contracts' index also defines the gRPC services, and loads
// @grpc/grpc-js, which must load only after OpenTelemetry started (the CLI reads its flags first).
import { Direction } from '@ledger-node/contracts/common';
import { amountIssuer, issueIssuer, visitFields } from './binary-fields';
import { NO_NFT_INDEX_DATA, nftIndexOf, nftIndexOfDecoded, type NftIndexData } from './nft-index';

export interface AffectedAccountEntry {
  accountId: Buffer;
  direction: Direction.IN | Direction.OUT;
}

export interface TransactionIndexData extends NftIndexData {
  /** Metadata TransactionIndex: the transaction's position in its ledger. */
  txIndex: number;
  /** The transaction's Account field (20 bytes). */
  senderAccountId: Buffer;
  /** The sender first (OUT), then every other touched account once (IN), in order of appearance. */
  affectedAccounts: AffectedAccountEntry[];
  transactionType: string;
  engineResult: string;
}

/** Thrown when a blob lacks a field every validated transaction has; the ledger is not indexable. */
export class MalformedTransaction extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedTransaction';
  }
}

const ZERO_ACCOUNT_ID = Buffer.alloc(20);

/** Accounts in first-seen order, each once (a transaction names a handful: a scan beats a keyed set). */
class AccountSet {
  private readonly accounts: Buffer[] = [];
  add(accountId: Buffer | undefined): void {
    if (accountId === undefined || accountId.length !== 20) return;
    for (const known of this.accounts) if (known.equals(accountId)) return;
    this.accounts.push(accountId);
  }
  values(): Buffer[] {
    return this.accounts;
  }
}

interface TransactionFields {
  transactionType: number;
  sender: Buffer;
  /** Accounts named by the transaction's own top-level fields (Destination, amount issuers…). */
  named: Buffer[];
}

interface MetadataFields {
  txIndex: number;
  result: number;
  /** Accounts of the AccountRoot and trust-line nodes the transaction affected. */
  touched: Buffer[];
}

function readTransactionFields(txBlob: Buffer, profile: ChainProfile): TransactionFields {
  let transactionType: number | undefined;
  let sender: Buffer | undefined;
  const named = new AccountSet();
  visitFields(txBlob, profile.definitions, {
    field(path, { name, typeName }, bytes, start, end) {
      // Only the transaction's own fields: nested Signers and Memos do not name affected parties.
      if (path.length > 0) return;
      if (name === 'TransactionType') transactionType = bytes.readUInt16BE(start);
      else if (name === 'Account') sender = bytes.subarray(start, end);
      else if (typeName === 'AccountID') named.add(bytes.subarray(start, end));
      else if (typeName === 'Amount') named.add(amountIssuer(bytes.subarray(start, end)));
      else if (typeName === 'Issue') named.add(issueIssuer(bytes.subarray(start, end)));
    },
  });
  if (transactionType === undefined) throw new MalformedTransaction('the transaction has no TransactionType');
  // UNLModify's Account is serialized with length zero: the zero account.
  if (sender?.length === 0) sender = ZERO_ACCOUNT_ID;
  if (sender === undefined || sender.length !== 20) throw new MalformedTransaction('the transaction has no Account');
  return { transactionType, sender, named: named.values() };
}

function readMetadataFields(metaBlob: Buffer, profile: ChainProfile): MetadataFields {
  let txIndex: number | undefined;
  let result: number | undefined;
  const touched = new AccountSet();
  const accountRootType = profile.definitions.ledgerEntryType.from('AccountRoot').ordinal;
  const trustLineType = profile.definitions.ledgerEntryType.from(profile.trustLineEntryType).ordinal;
  // The node being read (a member of AffectedNodes), its entry type and the accounts it names.
  let nodeEntryType: number | undefined;
  let nodeAccounts: Buffer[] = [];
  let nodeLimitIssuers: Buffer[] = [];
  visitFields(metaBlob, profile.definitions, {
    enter(path) {
      if (path.length === 1 && path[0] === 'AffectedNodes') {
        nodeEntryType = undefined;
        nodeAccounts = [];
        nodeLimitIssuers = [];
      }
    },
    field(path, { name }, bytes, start, end) {
      if (path.length === 0) {
        if (name === 'TransactionIndex') txIndex = bytes.readUInt32BE(start);
        else if (name === 'TransactionResult') result = bytes[start]!;
        return;
      }
      if (path[0] !== 'AffectedNodes') return;
      if (path.length === 2 && name === 'LedgerEntryType') nodeEntryType = bytes.readUInt16BE(start);
      else if (name === 'Account') nodeAccounts.push(bytes.subarray(start, end));
      else if (name === 'HighLimit' || name === 'LowLimit') {
        const issuer = amountIssuer(bytes.subarray(start, end));
        if (issuer) nodeLimitIssuers.push(issuer);
      }
    },
    leave(path) {
      if (path.length !== 1 || path[0] !== 'AffectedNodes') return;
      // rippled getAffectedAccounts: an AccountRoot's Account; a trust line's two sides are its limits' issuers.
      if (nodeEntryType === accountRootType) for (const account of nodeAccounts) touched.add(account);
      if (nodeEntryType === trustLineType) for (const issuer of nodeLimitIssuers) touched.add(issuer);
    },
  });
  if (txIndex === undefined) throw new MalformedTransaction('the metadata has no TransactionIndex');
  if (result === undefined) throw new MalformedTransaction('the metadata has no TransactionResult');
  return { txIndex, result, touched: touched.values() };
}

/** Index data of one validated transaction, read from its binary form. */
export function indexTransaction(txBlob: Buffer, metaBlob: Buffer, profile: ChainProfile, options: IndexOptions = {}): TransactionIndexData {
  let tx: TransactionFields;
  let meta: MetadataFields;
  try {
    tx = readTransactionFields(txBlob, profile);
    meta = readMetadataFields(metaBlob, profile);
  } catch (error) {
    if (error instanceof UnreadableBinary) return indexDecodedTransaction(txBlob, metaBlob, profile, options);
    throw error;
  }
  const definitions = profile.definitions;
  const transactionType = definitions.transactionType.from(String(tx.transactionType))?.name ?? `Unknown(${tx.transactionType})`;
  const engineResult = definitions.transactionResult.from(String(meta.result))?.name ?? `Unknown(${meta.result})`;
  return {
    txIndex: meta.txIndex,
    senderAccountId: tx.sender,
    affectedAccounts: affectedAccountsOf(tx.sender, [...tx.named, ...meta.touched]),
    transactionType,
    engineResult,
    ...(options.withoutNfts ? NO_NFT_INDEX_DATA : nftIndexOf(txBlob, metaBlob, transactionType, engineResult, profile)),
  };
}

export interface IndexOptions {
  /** Leaves the NFT index data out (none): for a transaction whose NFT data cannot be read, so that its account index data still is. */
  withoutNfts?: boolean;
}

/** The sender (OUT), then every other account once (IN); the ids are views of the transaction's bytes. */
function affectedAccountsOf(sender: Buffer, others: readonly Buffer[]): AffectedAccountEntry[] {
  const affected: AffectedAccountEntry[] = [{ accountId: sender, direction: Direction.OUT }];
  next: for (const account of others) {
    for (const known of affected) if (known.accountId.equals(account)) continue next;
    affected.push({ accountId: account, direction: Direction.IN });
  }
  return affected;
}

type Json = Record<string, any>;

/**
 * The same index data through the chain's full codec (JSON decode): slower, but it knows every
 * field type of the definitions table, so it serves blobs the binary reader cannot walk.
 */
export function indexDecodedTransaction(txBlob: Buffer, metaBlob: Buffer, profile: ChainProfile, options: IndexOptions = {}): TransactionIndexData {
  const codec = profile.codec;
  const tx = codec.decode(txBlob);
  const meta = codec.decode(metaBlob);
  const accountIdOf = (address: unknown): Buffer | undefined =>
    typeof address === 'string' && codec.isValidAddress(address) ? Buffer.from(codec.decodeAccountId(address)) : undefined;
  const issuerOf = (value: unknown): Buffer | undefined =>
    typeof value === 'object' && value !== null ? accountIdOf((value as Json).issuer) : undefined;

  const sender = accountIdOf(tx.Account);
  if (sender === undefined) throw new MalformedTransaction('the transaction has no Account');
  if (typeof tx.TransactionType !== 'string') throw new MalformedTransaction('the transaction has no TransactionType');
  if (typeof meta.TransactionIndex !== 'number') throw new MalformedTransaction('the metadata has no TransactionIndex');
  if (typeof meta.TransactionResult !== 'string') throw new MalformedTransaction('the metadata has no TransactionResult');

  const others = new AccountSet();
  for (const [name, value] of Object.entries(tx)) {
    if (name === 'Account') continue;
    const typeName = profile.definitions.field.fromString(name)?.type.name;
    if (typeName === 'AccountID') others.add(accountIdOf(value));
    else if (typeName === 'Amount' || typeName === 'Issue') others.add(issuerOf(value));
  }
  for (const wrapper of (meta.AffectedNodes ?? []) as Json[]) {
    const node = Object.values(wrapper)[0] as Json;
    // Canonical order (PreviousFields, FinalFields, NewFields), as the binary reader meets them.
    const fieldSets = [node.PreviousFields, node.FinalFields, node.NewFields].filter(Boolean) as Json[];
    if (node.LedgerEntryType === 'AccountRoot') for (const fields of fieldSets) others.add(accountIdOf(fields.Account));
    if (node.LedgerEntryType === profile.trustLineEntryType) {
      for (const fields of fieldSets) {
        others.add(issuerOf(fields.LowLimit));
        others.add(issuerOf(fields.HighLimit));
      }
    }
  }
  return {
    txIndex: meta.TransactionIndex,
    senderAccountId: sender,
    affectedAccounts: affectedAccountsOf(sender, others.values()),
    transactionType: tx.TransactionType,
    engineResult: meta.TransactionResult,
    ...(options.withoutNfts ? NO_NFT_INDEX_DATA : nftIndexOfDecoded(tx, meta, profile)),
  };
}

/** Transactions whose metadata cannot even give their position are kept at positions no real ledger reaches. */
const UNINDEXED_POSITION_BASE = 0x40000000;

/**
 * Index data of a verified transaction, whatever its bytes hold: when they cannot be indexed (a field
 * of a type this node does not know, a blob without a field every transaction has), the transaction
 * is still stored, sent by no one and touching no account, at its recorded position when that can be
 * read, and `failure` says why. One whose NFT index data alone cannot be read keeps its account
 * index data, touching no NFToken, and `failure` says so.
 */
export function indexTransactionOrPlaceholder(txBlob: Buffer, metaBlob: Buffer, profile: ChainProfile, position: number): { index: TransactionIndexData; failure?: string } {
  try {
    return { index: indexTransaction(txBlob, metaBlob, profile) };
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    try {
      // Only its NFT index data unreadable: the transaction keeps its account index data.
      return { index: indexTransaction(txBlob, metaBlob, profile, { withoutNfts: true }), failure: `its NFT index data cannot be read: ${failure}` };
    } catch {
      // Nothing readable: a placeholder below.
    }
    let txIndex = UNINDEXED_POSITION_BASE + position;
    try {
      visitFields(metaBlob, profile.definitions, {
        field(path, { name }, bytes, start, end) {
          if (path.length === 0 && name === 'TransactionIndex' && end - start === 4) txIndex = bytes.readUInt32BE(start);
        },
      });
    } catch {
      // Read as far as it goes: TransactionIndex comes early in the canonical order.
    }
    return {
      index: { txIndex, senderAccountId: Buffer.from(ZERO_ACCOUNT_ID), affectedAccounts: [], transactionType: 'Unknown', engineResult: 'Unknown', ...NO_NFT_INDEX_DATA },
      failure,
    };
  }
}
