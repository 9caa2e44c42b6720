import { createHash } from 'node:crypto';
import {
  indexTransaction,
  nftIndexOfDecoded,
  encodeLedgerHeader,
  getProfile,
  hashLedgerHeader,
  hashTransaction,
  ledgerHeaderFromJson,
  transactionFromLedgerJson,
  type ChainProfile,
} from '@ledger-node/chain';
import { Direction, StateChangeKind, type LedgerWrite, type StateObjectChange, type TransactionWrite } from '@ledger-node/contracts';
import { readFixture } from '@ledger-node/test-utils';

/** The consecutive, hash-chained mainnet run in fixtures/. */
export const MAINNET_RUN = [11119599, 11119600, 11119601, 11119602, 11119603, 11119604] as const;

export interface LedgerFixture {
  ledger: Record<string, any> & { transactions?: Record<string, any>[] };
  ledger_hash: string;
  ledger_index: number;
}

export function mainnetFixture(ledgerIndex: number): LedgerFixture {
  return readFixture<LedgerFixture>(`xrpl/ledgers/mainnet/${ledgerIndex}.json`);
}

type MetaNode = { kind: 'CreatedNode' | 'ModifiedNode' | 'DeletedNode'; node: Record<string, any> };

function metaNodes(tx: Record<string, any>): MetaNode[] {
  const nodes: Record<string, any>[] = tx.metaData?.AffectedNodes ?? tx.meta?.AffectedNodes ?? [];
  return nodes.map((wrapper) => {
    const kind = Object.keys(wrapper)[0] as MetaNode['kind'];
    return { kind, node: wrapper[kind] };
  });
}

/** Fields of a node that hold accounts: AccountID fields and the two sides of a trust line. */
function accountsInFields(fields: Record<string, any> | undefined): string[] {
  if (!fields) return [];
  const accounts: string[] = [];
  for (const name of ['Account', 'Owner', 'Destination']) if (typeof fields[name] === 'string') accounts.push(fields[name]);
  for (const name of ['HighLimit', 'LowLimit']) if (typeof fields[name]?.issuer === 'string') accounts.push(fields[name].issuer);
  return accounts;
}

/**
 * The index data a writer derives from an expanded transaction: the sender (OUT), and every
 * other account named by the transaction's Destination or by an affected node's fields (IN).
 */
function affectedAccounts(tx: Record<string, any>, profile: ChainProfile): TransactionWrite['affectedAccounts'] {
  const sender: string = tx.Account;
  const others = new Set<string>();
  if (typeof tx.Destination === 'string') others.add(tx.Destination);
  for (const { node } of metaNodes(tx)) {
    for (const fields of [node.FinalFields, node.NewFields, node.PreviousFields]) for (const account of accountsInFields(fields)) others.add(account);
  }
  others.delete(sender);
  return [
    { accountId: Buffer.from(profile.codec.decodeAccountId(sender)), direction: Direction.OUT },
    ...[...others].map((account) => ({ accountId: Buffer.from(profile.codec.decodeAccountId(account)), direction: Direction.IN })),
  ];
}

/**
 * One version per object the ledger touched, from the metadata: the object's fields after the
 * ledger (FinalFields or NewFields, as the metadata prints them) and before it (FinalFields with
 * PreviousFields applied). Several transactions touching one object: the last one gives the
 * version after, the first one the version before.
 */
function stateChanges(transactions: Record<string, any>[], profile: ChainProfile): StateObjectChange[] {
  const byKey = new Map<string, { first: MetaNode; last: MetaNode }>();
  const ordered = [...transactions].sort((a, b) => a.metaData.TransactionIndex - b.metaData.TransactionIndex);
  for (const tx of ordered) {
    for (const metaNode of metaNodes(tx)) {
      const objectKey: string = metaNode.node.LedgerIndex;
      const seen = byKey.get(objectKey);
      byKey.set(objectKey, { first: seen?.first ?? metaNode, last: metaNode });
    }
  }
  const encode = (type: string, fields: Record<string, any>) => Buffer.from(profile.codec.encode({ LedgerEntryType: type, ...fields }), 'hex');
  return [...byKey].map(([objectKey, { first, last }]) => {
    const type: string = last.node.LedgerEntryType;
    const kind =
      last.kind === 'DeletedNode' ? StateChangeKind.DELETED : first.kind === 'CreatedNode' ? StateChangeKind.CREATED : StateChangeKind.MODIFIED;
    const after = last.node.FinalFields ?? last.node.NewFields ?? {};
    const previousBlob =
      first.kind === 'CreatedNode' ? undefined : encode(type, { ...(first.node.FinalFields ?? {}), ...(first.node.PreviousFields ?? {}) });
    const owners = type === profile.trustLineEntryType ? accountsInFields(after).map((account) => Buffer.from(profile.codec.decodeAccountId(account))) : [];
    return {
      key: Buffer.from(objectKey, 'hex'),
      kind,
      blob: kind === StateChangeKind.DELETED ? Buffer.alloc(0) : encode(type, after),
      previousBlob,
      ledgerEntryType: type,
      ownerAccountIds: owners,
      accountId: Buffer.alloc(0),
    };
  });
}

/** A LedgerWrite built from rippled's `ledger` result (transactions + expand), as the sync service builds it. */
export function ledgerWriteFromJson(fixture: LedgerFixture, profile: ChainProfile = getProfile('xrpl')): LedgerWrite {
  const header = ledgerHeaderFromJson(fixture.ledger);
  const transactions = fixture.ledger.transactions ?? [];
  return {
    ledgerIndex: header.ledgerIndex,
    ledgerHash: Buffer.from(fixture.ledger_hash, 'hex'),
    headerBlob: encodeLedgerHeader(header),
    transactions: transactions.map((tx): TransactionWrite => {
      const binary = transactionFromLedgerJson(tx, profile);
      return {
        hash: Buffer.from(binary.hash, 'hex'),
        txBlob: Buffer.from(binary.txBlob, 'hex'),
        metaBlob: Buffer.from(binary.metaBlob, 'hex'),
        txIndex: tx.metaData.TransactionIndex,
        senderAccountId: Buffer.from(profile.codec.decodeAccountId(tx.Account)),
        affectedAccounts: affectedAccounts(tx, profile),
        transactionType: tx.TransactionType,
        engineResult: tx.metaData.TransactionResult,
        ...nftIndexOfDecoded(tx, tx.metaData, profile),
      };
    }),
    stateChanges: stateChanges(transactions, profile),
    stateChangesComplete: false,
  };
}

export function mainnetLedgerWrite(ledgerIndex: number): LedgerWrite {
  return ledgerWriteFromJson(mainnetFixture(ledgerIndex));
}

const seeded = (...parts: (string | number)[]) => createHash('sha256').update(parts.join('/')).digest();

/** A deterministic account id for synthetic ledgers. */
export function syntheticAccount(number: number): Buffer {
  return seeded('account', number).subarray(0, 20);
}

/**
 * A well-formed LedgerWrite with made-up contents (any index, any size): a header that hashes to
 * its ledger_hash, transactions whose hashes are their blobs' hashes, sent by and touching
 * synthetic accounts, and one state object version per transaction.
 */
export function syntheticLedgerWrite(ledgerIndex: number, options: { transactionCount?: number; variant?: number } = {}): LedgerWrite {
  const transactionCount = options.transactionCount ?? 3;
  const variant = options.variant ?? 0;
  const transactions: TransactionWrite[] = [];
  for (let txIndex = 0; txIndex < transactionCount; txIndex++) {
    const txBlob = Buffer.concat([Buffer.from('120000', 'hex'), seeded('tx', ledgerIndex, txIndex, variant), seeded('tx-tail', ledgerIndex, txIndex)]);
    const sender = syntheticAccount((ledgerIndex + txIndex) % 7);
    const receiver = syntheticAccount(100 + (txIndex % 5));
    transactions.push({
      hash: Buffer.from(hashTransaction(txBlob), 'hex'),
      txBlob,
      metaBlob: Buffer.concat([seeded('meta', ledgerIndex, txIndex), Buffer.from('031000', 'hex')]),
      txIndex,
      senderAccountId: sender,
      affectedAccounts: [
        { accountId: sender, direction: Direction.OUT },
        { accountId: receiver, direction: Direction.IN },
      ],
      nftIds: [],
      transactionType: 'Payment',
      engineResult: 'tesSUCCESS',
    });
  }
  const header = {
    ledgerIndex,
    totalCoins: 99_999_999_999_000_000n - BigInt(ledgerIndex),
    parentHash: seeded('ledger', ledgerIndex - 1, variant).toString('hex').toUpperCase(),
    transactionHash: seeded('txs', ledgerIndex, variant).toString('hex').toUpperCase(),
    accountHash: seeded('state', ledgerIndex, variant).toString('hex').toUpperCase(),
    // Four seconds a ledger, wrapping past u32 (the last ledgers of the u32 range).
    parentCloseTime: (800_000_000 + ledgerIndex * 4 - 4) % 2 ** 32,
    closeTime: (800_000_000 + ledgerIndex * 4) % 2 ** 32,
    closeTimeResolution: 10,
    closeFlags: 0,
  };
  return {
    ledgerIndex,
    ledgerHash: Buffer.from(hashLedgerHeader(header), 'hex'),
    headerBlob: encodeLedgerHeader(header),
    transactions,
    stateChanges: transactions.map((tx) => ({
      key: seeded('object', tx.hash.toString('hex')),
      kind: StateChangeKind.CREATED,
      blob: Buffer.concat([Buffer.from('1100', 'hex'), tx.hash]),
      previousBlob: undefined,
      ledgerEntryType: 'AccountRoot',
      ownerAccountIds: [],
      accountId: Buffer.alloc(0),
    })),
    stateChangesComplete: false,
  };
}

/** Transactions in the crash tests' synthetic ledger at `ledgerIndex`: enough that a batch takes a while to write. */
export function crashLedgerSize(ledgerIndex: number): number {
  return 20 + ((ledgerIndex * 37) % 120);
}

/**
 * A synthetic ledger (syntheticLedgerWrite's header, no state changes) holding recorded real
 * transactions of fixtures/xrpl/corpus/transactions, each with the index data sync derives from
 * its bytes (indexTransaction); `names` are corpus file names without `.json`.
 */
export function corpusLedgerWrite(ledgerIndex: number, names: string[], profile: ChainProfile = getProfile('xrpl')): LedgerWrite {
  const transactions = names.map((name): TransactionWrite => {
    const document = readFixture<Record<string, any>>(`xrpl/corpus/transactions/${name}.json`);
    const { meta, metaData, tx: nested, ...flat } = document;
    // rippled's synthetic metadata fields (nftoken_id, offer_id…) are no part of the serialized metadata.
    const serializedMeta = Object.fromEntries(Object.entries((meta ?? metaData) as Record<string, unknown>).filter(([field]) => /^[A-Z]/.test(field)));
    const binary = transactionFromLedgerJson({ ...(nested ?? flat), metaData: serializedMeta }, profile);
    const txBlob = Buffer.from(binary.txBlob, 'hex');
    const metaBlob = Buffer.from(binary.metaBlob, 'hex');
    const index = indexTransaction(txBlob, metaBlob, profile);
    return { hash: Buffer.from(binary.hash, 'hex'), txBlob, metaBlob, ...index };
  });
  return { ...syntheticLedgerWrite(ledgerIndex, { transactionCount: 0 }), transactions, stateChanges: [] };
}
