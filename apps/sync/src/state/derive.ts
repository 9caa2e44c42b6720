/**
 * The state objects a ledger changed, and each object's exact binary image after the ledger and
 * before it, as far as the ledger's metadata determines them (rippled `ApplyStateTable::apply`):
 *
 * - CreatedNode: NewFields holds the fields that are not at their default (`isDefault`), without
 *   the threading fields; the object is LedgerEntryType + NewFields + the fields its transactor
 *   always sets even at their default (AccountRoot Flags/OwnerCount, a trust line's Flags and its
 *   LowNode/HighNode, an Offer's Flags/BookNode/OwnerNode) + PreviousTxnID/PreviousTxnLgrSeq set
 *   to this transaction and ledger (`threadItem`). Before it, the object did not exist.
 * - ModifiedNode: FinalFields holds every field but the `sMD_Never` (LedgerEntryType, Indexes,
 *   Hashes) and `sMD_DeleteFinal`-only ones (the threading fields): after = LedgerEntryType +
 *   FinalFields + the threading of this transaction. PreviousFields holds the original values of
 *   the fields that changed or went away, and the node's top level the previous threading:
 *   before = FinalFields with PreviousFields applied and the previous threading.
 * - DeletedNode: after, the object does not exist; before = FinalFields (threading included,
 *   `sMD_DeleteFinal`) with PreviousFields applied.
 *
 * What metadata does not determine is marked unknown and read from the upstream instead: a
 * directory page's Indexes and the skip lists' Hashes (never in metadata; the skip lists are not
 * even in metadata, rippled `Ledger::updateSkipList`), a node threaded without other change (no
 * FinalFields), entry types whose transactors set optional fields at default values, and a
 * before-image when an optional field of FinalFields may have been added by the transaction
 * (PreviousFields lists only fields the original had).
 */
import { keylet, sha512Half, type ChainProfile } from '@ledger-node/chain';
import { StateChangeKind } from '@ledger-node/contracts';
import type { VerifiedLedger } from '../verify/verify-ledger';

type Json = Record<string, any>;

/** An image: the object's bytes, `absent` (it does not exist), or `unknown` (read it from the upstream). */
export type Image = { state: 'object'; blob: Buffer } | { state: 'absent' } | { state: 'unknown' };

export interface DerivedChange {
  /** 64 uppercase hex. */
  key: string;
  kind: StateChangeKind;
  ledgerEntryType: string;
  after: Image;
  before: Image;
  /** The two sides of a trust line. */
  ownerAccountIds: Buffer[];
  /** An AccountRoot's Account. */
  accountId?: Buffer;
  /**
   * A node threaded without other change, touched by one transaction of the ledger: the object
   * before is the object after with these threading values, once the after-image is known.
   */
  threadingBefore?: { previousTxnId: string; previousTxnLgrSeq: number };
  /**
   * The previous ledger changed the object too, so its own after-image is the object before this
   * ledger (the recent skip list, which every ledger after the first two changes): it is not read.
   */
  beforeFromPreviousLedger?: boolean;
}

const ZERO_U64 = '0000000000000000';

interface EntryRules {
  /** Fields every object of the type carries (soeREQUIRED, or always set by its transactors). */
  alwaysPresent: ReadonlySet<string>;
  /** Values of the always-present fields that NewFields leaves out when they hold their default. */
  createdDefaults: Json;
}

const THREADING = ['PreviousTxnID', 'PreviousTxnLgrSeq'];

/** rippled LedgerFormats of the entry types whose images are derived here; all are threaded. */
function entryRules(profile: ChainProfile): Map<string, EntryRules> {
  const rules = new Map<string, EntryRules>();
  rules.set('AccountRoot', {
    alwaysPresent: new Set(['Account', 'Balance', 'Flags', 'OwnerCount', 'Sequence', ...THREADING]),
    createdDefaults: { Flags: 0, OwnerCount: 0 },
  });
  // rippled `trustCreate` sets LowNode and HighNode on every line, page 0 included.
  rules.set(profile.trustLineEntryType, {
    alwaysPresent: new Set(['Balance', 'Flags', 'LowLimit', 'HighLimit', 'LowNode', 'HighNode', ...THREADING]),
    createdDefaults: { Flags: 0, LowNode: ZERO_U64, HighNode: ZERO_U64 },
  });
  rules.set('Offer', {
    alwaysPresent: new Set(['Account', 'Sequence', 'TakerPays', 'TakerGets', 'BookDirectory', 'BookNode', 'OwnerNode', 'Flags', ...THREADING]),
    createdDefaults: { Flags: 0, BookNode: ZERO_U64, OwnerNode: ZERO_U64 },
  });
  return rules;
}

const rulesByProfile = new WeakMap<ChainProfile, Map<string, EntryRules>>();
function rulesOf(profile: ChainProfile): Map<string, EntryRules> {
  let rules = rulesByProfile.get(profile);
  if (!rules) {
    rules = entryRules(profile);
    rulesByProfile.set(profile, rules);
  }
  return rules;
}

/** Transaction types that change values of existing objects but never add an optional field to one. */
const NO_FIELD_ADDED = new Set(['Payment', 'OfferCreate', 'OfferCancel']);

type NodeKind = 'CreatedNode' | 'ModifiedNode' | 'DeletedNode';
interface MetaNode {
  kind: NodeKind;
  fields: Json;
  txHash: string;
  transactionType: string;
}

/** rippled `keylet::skip(ledger)`: the list of every 256th ledger hash, one object per 65536 ledgers. */
export function historicSkipListKey(ledgerIndex: number): string {
  const group = Buffer.alloc(4);
  group.writeUInt32BE(ledgerIndex >>> 16);
  return Buffer.from(sha512Half(Buffer.from([0x00, 0x73]), group)).toString('hex').toUpperCase();
}

/** The skip lists `Ledger::updateSkipList` changes when it builds `ledgerIndex` (none for the genesis ledger). */
export function skipListKeysChangedBy(ledgerIndex: number): string[] {
  if (ledgerIndex <= 1) return [];
  const previous = ledgerIndex - 1;
  const keys = [keylet.ledgerHashes()];
  if ((previous & 0xff) === 0) keys.push(historicSkipListKey(previous));
  return keys;
}

/** rippled canonical order puts TransactionType (UInt16, field 2: header byte 0x12) first in every transaction. */
const TRANSACTION_TYPE_HEADER = 0x12;

/** The transaction's type name, read from its first field; the full decode only for a blob that does not start with it. */
function transactionTypeOf(txBlob: Buffer, profile: ChainProfile): string {
  if (txBlob.length >= 3 && txBlob[0] === TRANSACTION_TYPE_HEADER) {
    const name = profile.definitions.transactionType.from(String(txBlob.readUInt16BE(1)))?.name;
    if (name !== undefined) return name;
  }
  return String(profile.codec.decode(txBlob.toString('hex')).TransactionType);
}

/** Addresses already turned into AccountID hex; bounded, since any ledger names only a few hundred accounts. */
const accountIdHexByAddress = new Map<string, string>();
const ACCOUNT_ID_HEX_CACHE_SIZE = 4096;

/**
 * The image's addresses as 40-hex AccountIDs, which the codec takes as they are: encoding an `r…`
 * address checks it as an X-address first and decodes its base58 twice, most of an image's cost.
 */
function withAccountIdsAsHex(fields: Json, profile: ChainProfile): Json {
  const hexOf = (address: string): string => {
    let hex = accountIdHexByAddress.get(address);
    if (hex === undefined) {
      hex = Buffer.from(profile.codec.decodeAccountId(address)).toString('hex').toUpperCase();
      if (accountIdHexByAddress.size >= ACCOUNT_ID_HEX_CACHE_SIZE) accountIdHexByAddress.clear();
      accountIdHexByAddress.set(address, hex);
    }
    return hex;
  };
  const converted: Json = {};
  for (const [name, value] of Object.entries(fields)) {
    const typeName = profile.definitions.field.fromString(name)?.type.name;
    if (typeName === 'AccountID' && typeof value === 'string' && value !== '') converted[name] = hexOf(value);
    else if (typeName === 'Amount' && typeof value === 'object' && value !== null && typeof value.issuer === 'string') {
      converted[name] = { ...value, issuer: hexOf(value.issuer) };
    } else converted[name] = value;
  }
  return converted;
}

export function deriveStateChanges(ledger: VerifiedLedger, profile: ChainProfile): DerivedChange[] {
  const codec = profile.codec;
  const rules = rulesOf(profile);
  const encode = (fields: Json): Image => ({ state: 'object', blob: Buffer.from(codec.encode(withAccountIdsAsHex(fields, profile)), 'hex') });
  const unknown: Image = { state: 'unknown' };
  const absent: Image = { state: 'absent' };

  const decoded = ledger.transactions
    .map((tx) => ({ tx, meta: codec.decode(tx.metaBlob.toString('hex')) as Json }))
    .sort((a, b) => a.meta.TransactionIndex - b.meta.TransactionIndex);
  const byKey = new Map<string, { first: MetaNode; last: MetaNode; count: number }>();
  for (const { tx, meta } of decoded) {
    const transactionType = transactionTypeOf(tx.txBlob, profile);
    const txHash = tx.hash.toString('hex').toUpperCase();
    for (const wrapper of (meta.AffectedNodes ?? []) as Json[]) {
      const kind = Object.keys(wrapper)[0] as NodeKind;
      const node: MetaNode = { kind, fields: wrapper[kind], txHash, transactionType };
      const objectKey = String(node.fields.LedgerIndex).toUpperCase();
      const seen = byKey.get(objectKey);
      byKey.set(objectKey, { first: seen?.first ?? node, last: node, count: (seen?.count ?? 0) + 1 });
    }
  }

  const afterOf = (node: MetaNode): Image => {
    if (node.kind === 'DeletedNode') return absent;
    const type = String(node.fields.LedgerEntryType);
    const rule = rules.get(type);
    if (!rule) return unknown;
    const threading = { PreviousTxnID: node.txHash, PreviousTxnLgrSeq: ledger.ledgerIndex };
    if (node.kind === 'CreatedNode') return encode({ LedgerEntryType: type, ...rule.createdDefaults, ...(node.fields.NewFields ?? {}), ...threading });
    if (!node.fields.FinalFields) return unknown;
    return encode({ LedgerEntryType: type, ...node.fields.FinalFields, ...threading });
  };

  const beforeOf = (node: MetaNode): Image => {
    if (node.kind === 'CreatedNode') return absent;
    const type = String(node.fields.LedgerEntryType);
    const rule = rules.get(type);
    const finals: Json | undefined = node.fields.FinalFields;
    if (!rule || !finals) return unknown;
    const previous: Json = node.fields.PreviousFields ?? {};
    if (!NO_FIELD_ADDED.has(node.transactionType)) {
      // A field present now and absent from PreviousFields was either unchanged or added.
      const mayHaveBeenAdded = Object.keys(finals).some((field) => !rule.alwaysPresent.has(field) && !(field in previous));
      if (mayHaveBeenAdded) return unknown;
    }
    if (node.kind === 'DeletedNode') return encode({ LedgerEntryType: type, ...finals, ...previous });
    if (node.fields.PreviousTxnID === undefined || node.fields.PreviousTxnLgrSeq === undefined) return unknown;
    return encode({
      LedgerEntryType: type,
      ...finals,
      ...previous,
      PreviousTxnID: node.fields.PreviousTxnID,
      PreviousTxnLgrSeq: node.fields.PreviousTxnLgrSeq,
    });
  };

  const changes: DerivedChange[] = [];
  for (const [objectKey, { first, last, count }] of byKey) {
    const type = String(last.fields.LedgerEntryType);
    const kind = last.kind === 'DeletedNode' ? StateChangeKind.DELETED : first.kind === 'CreatedNode' ? StateChangeKind.CREATED : StateChangeKind.MODIFIED;
    const fields: Json = { ...(first.fields.PreviousFields ?? {}), ...(first.fields.FinalFields ?? {}), ...(last.fields.NewFields ?? {}), ...(last.fields.FinalFields ?? {}) };
    const change: DerivedChange = {
      key: objectKey,
      kind,
      ledgerEntryType: type,
      after: afterOf(last),
      before: beforeOf(first),
      ownerAccountIds: type === profile.trustLineEntryType ? trustLineSides(fields, profile) : [],
    };
    if (type === 'AccountRoot' && typeof fields.Account === 'string') change.accountId = Buffer.from(codec.decodeAccountId(fields.Account));
    const threadedOnly = first.kind === 'ModifiedNode' && !first.fields.FinalFields && first.fields.PreviousTxnID !== undefined;
    if (count === 1 && threadedOnly) {
      change.threadingBefore = { previousTxnId: first.fields.PreviousTxnID, previousTxnLgrSeq: first.fields.PreviousTxnLgrSeq };
    }
    changes.push(change);
  }
  const recentSkipList = keylet.ledgerHashes();
  for (const skipKey of skipListKeysChangedBy(ledger.ledgerIndex)) {
    if (byKey.has(skipKey)) continue;
    changes.push({
      key: skipKey,
      kind: StateChangeKind.MODIFIED,
      ledgerEntryType: 'LedgerHashes',
      after: unknown,
      before: unknown,
      ownerAccountIds: [],
      beforeFromPreviousLedger: skipKey === recentSkipList && skipListKeysChangedBy(ledger.ledgerIndex - 1).includes(recentSkipList),
    });
  }
  return changes;
}

function trustLineSides(fields: Json, profile: ChainProfile): Buffer[] {
  const sides: Buffer[] = [];
  for (const limit of [fields.LowLimit, fields.HighLimit]) {
    if (limit && typeof limit.issuer === 'string') sides.push(Buffer.from(profile.codec.decodeAccountId(limit.issuer)));
  }
  return sides;
}

/** The object before, from the object after and the threading it had before (see DerivedChange.threadingBefore). */
export function withThreading(blob: Buffer, threading: { previousTxnId: string; previousTxnLgrSeq: number }, profile: ChainProfile): Buffer {
  const fields = profile.codec.decode(blob.toString('hex')) as Json;
  return Buffer.from(
    profile.codec.encode(withAccountIdsAsHex({ ...fields, PreviousTxnID: threading.previousTxnId, PreviousTxnLgrSeq: threading.previousTxnLgrSeq }, profile)),
    'hex',
  );
}
