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
 * Images are assembled from the metadata's field bytes (each field serialized exactly as the object
 * holds it), sorted into canonical order: nothing is decoded to JSON or re-encoded.
 *
 * What metadata does not determine is marked unknown and read from the upstream instead: a
 * directory page's Indexes and the skip lists' Hashes (never in metadata; the skip lists are not
 * even in metadata, rippled `Ledger::updateSkipList`), a node threaded without other change (no
 * FinalFields), entry types whose transactors set optional fields at default values, and a
 * before-image when an optional field of FinalFields may have been added by the transaction
 * (PreviousFields lists only fields the original had).
 */
import { amountIssuer, type ChainProfile, fixedField, isFlagLedger, keylet, type RawField, readObjectFields, serializeFields, sha512Half, type VerifiedLedger } from '@ledger-node/chain';
import { StateChangeKind } from '@ledger-node/contracts';

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
   * before is the object after with these threading fields (PreviousTxnID, PreviousTxnLgrSeq),
   * once the after-image is known.
   */
  threadingBefore?: RawField[];
}

/** Fields by name. */
type Fields = Map<string, RawField>;

interface EntryRules {
  /** Fields every object of the type carries (soeREQUIRED, or always set by its transactors). */
  alwaysPresent: ReadonlySet<string>;
  /** The always-present fields that NewFields leaves out when they hold their default, at that default. */
  createdDefaults: RawField[];
}

const THREADING = ['PreviousTxnID', 'PreviousTxnLgrSeq'];

/** rippled LedgerFormats of the entry types whose images are derived here; all are threaded. */
function entryRules(profile: ChainProfile): Map<string, EntryRules> {
  const zero = (name: string, width: number) => fixedField(profile.definitions, name, Buffer.alloc(width));
  const rules = new Map<string, EntryRules>();
  rules.set('AccountRoot', {
    alwaysPresent: new Set(['Account', 'Balance', 'Flags', 'OwnerCount', 'Sequence', ...THREADING]),
    createdDefaults: [zero('Flags', 4), zero('OwnerCount', 4)],
  });
  // rippled `trustCreate` sets LowNode and HighNode on every line, page 0 included.
  rules.set(profile.trustLineEntryType, {
    alwaysPresent: new Set(['Balance', 'Flags', 'LowLimit', 'HighLimit', 'LowNode', 'HighNode', ...THREADING]),
    createdDefaults: [zero('Flags', 4), zero('LowNode', 8), zero('HighNode', 8)],
  });
  rules.set('Offer', {
    alwaysPresent: new Set(['Account', 'Sequence', 'TakerPays', 'TakerGets', 'BookDirectory', 'BookNode', 'OwnerNode', 'Flags', ...THREADING]),
    createdDefaults: [zero('Flags', 4), zero('BookNode', 8), zero('OwnerNode', 8)],
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
  /** 64 uppercase hex. */
  key: string;
  /** The node's LedgerEntryType field, serialized as the object holds it. */
  entryTypeField: RawField;
  entryType: string;
  finalFields?: Fields;
  previousFields?: Fields;
  newFields?: Fields;
  /** The node's own threading fields: the object's before this transaction. */
  previousTxnId?: RawField;
  previousTxnLgrSeq?: RawField;
  /** This transaction's threading fields: the object's after it. */
  threading: RawField[];
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
  return String(profile.codec.decode(txBlob).TransactionType);
}

const byName = (fields: RawField[] | undefined): Fields | undefined => (fields ? new Map(fields.map((field) => [field.name, field])) : undefined);

/** The affected nodes of one transaction's metadata, and its position in the ledger. */
function metaNodesOf(tx: VerifiedLedger['transactions'][number], ledgerIndex: number, profile: ChainProfile): { txIndex: number; nodes: MetaNode[] } {
  const definitions = profile.definitions;
  const meta = readObjectFields(tx.metaBlob, definitions);
  const transactionType = transactionTypeOf(tx.txBlob, profile);
  const lgrSeq = Buffer.alloc(4);
  lgrSeq.writeUInt32BE(ledgerIndex);
  const threading = [fixedField(definitions, 'PreviousTxnID', tx.hash), fixedField(definitions, 'PreviousTxnLgrSeq', lgrSeq)];
  let txIndex: number | undefined;
  const nodes: MetaNode[] = [];
  for (const field of meta) {
    if (field.name === 'TransactionIndex') txIndex = field.value.readUInt32BE(0);
    if (field.name !== 'AffectedNodes') continue;
    for (const wrapper of field.children ?? []) {
      const fields = byName(wrapper.children)!;
      const entryTypeField = fields.get('LedgerEntryType');
      const keyField = fields.get('LedgerIndex');
      if (!entryTypeField || !keyField) throw new Error(`ledger ${ledgerIndex}: an affected node has no LedgerEntryType or LedgerIndex`);
      const entryTypeCode = entryTypeField.value.readUInt16BE(0);
      nodes.push({
        kind: wrapper.name as NodeKind,
        key: keyField.value.toString('hex').toUpperCase(),
        entryTypeField,
        entryType: definitions.ledgerEntryType.from(String(entryTypeCode))?.name ?? `Unknown(${entryTypeCode})`,
        finalFields: byName(fields.get('FinalFields')?.children),
        previousFields: byName(fields.get('PreviousFields')?.children),
        newFields: byName(fields.get('NewFields')?.children),
        previousTxnId: fields.get('PreviousTxnID'),
        previousTxnLgrSeq: fields.get('PreviousTxnLgrSeq'),
        threading,
        transactionType,
      });
    }
  }
  if (txIndex === undefined) throw new Error(`ledger ${ledgerIndex}: transaction ${tx.hash.toString('hex').toUpperCase()} has no TransactionIndex`);
  return { txIndex, nodes };
}

/** One object of fields in canonical order; later sources override earlier ones. */
function imageOf(...sources: (Iterable<RawField> | undefined)[]): { state: 'object'; blob: Buffer } {
  const fields: Fields = new Map();
  for (const source of sources) for (const field of source ?? []) fields.set(field.name, field);
  return { state: 'object', blob: serializeFields(fields.values()) };
}

export function deriveStateChanges(ledger: VerifiedLedger, profile: ChainProfile): DerivedChange[] {
  const rules = rulesOf(profile);
  const unknown: Image = { state: 'unknown' };
  const absent: Image = { state: 'absent' };

  const perTransaction = ledger.transactions.map((tx) => metaNodesOf(tx, ledger.ledgerIndex, profile)).sort((a, b) => a.txIndex - b.txIndex);
  const byKey = new Map<string, { first: MetaNode; last: MetaNode; count: number }>();
  for (const { nodes } of perTransaction) {
    for (const node of nodes) {
      const seen = byKey.get(node.key);
      byKey.set(node.key, { first: seen?.first ?? node, last: node, count: (seen?.count ?? 0) + 1 });
    }
  }

  const afterOf = (node: MetaNode): Image => {
    if (node.kind === 'DeletedNode') return absent;
    const rule = rules.get(node.entryType);
    if (!rule) return unknown;
    if (node.kind === 'CreatedNode') return imageOf([node.entryTypeField], rule.createdDefaults, node.newFields?.values(), node.threading);
    if (!node.finalFields) return unknown;
    return imageOf([node.entryTypeField], node.finalFields.values(), node.threading);
  };

  const beforeOf = (node: MetaNode): Image => {
    if (node.kind === 'CreatedNode') return absent;
    const rule = rules.get(node.entryType);
    const finals = node.finalFields;
    if (!rule || !finals) return unknown;
    const previous: Fields = node.previousFields ?? new Map();
    if (!NO_FIELD_ADDED.has(node.transactionType)) {
      // A field present now and absent from PreviousFields was either unchanged or added.
      const mayHaveBeenAdded = [...finals.keys()].some((name) => !rule.alwaysPresent.has(name) && !previous.has(name));
      if (mayHaveBeenAdded) return unknown;
    }
    if (node.kind === 'DeletedNode') return imageOf([node.entryTypeField], finals.values(), previous.values());
    if (!node.previousTxnId || !node.previousTxnLgrSeq) return unknown;
    return imageOf([node.entryTypeField], finals.values(), previous.values(), [node.previousTxnId, node.previousTxnLgrSeq]);
  };

  const changes: DerivedChange[] = [];
  for (const [objectKey, { first, last, count }] of byKey) {
    const type = last.entryType;
    const kind = last.kind === 'DeletedNode' ? StateChangeKind.DELETED : first.kind === 'CreatedNode' ? StateChangeKind.CREATED : StateChangeKind.MODIFIED;
    // The newest value of a field the nodes name (the object's owners never change).
    const fieldOf = (name: string) => [last.finalFields, last.newFields, first.finalFields, first.previousFields].find((fields) => fields?.has(name))?.get(name)?.value;
    const change: DerivedChange = {
      key: objectKey,
      kind,
      ledgerEntryType: type,
      after: afterOf(last),
      before: beforeOf(first),
      ownerAccountIds: type === profile.trustLineEntryType ? trustLineSides(fieldOf('LowLimit'), fieldOf('HighLimit')) : [],
    };
    const account = fieldOf('Account');
    if (type === 'AccountRoot' && account?.length === 20) change.accountId = Buffer.from(account);
    const threadedOnly = first.kind === 'ModifiedNode' && !first.finalFields && first.previousTxnId !== undefined;
    if (count === 1 && threadedOnly && first.previousTxnLgrSeq) change.threadingBefore = [first.previousTxnId!, first.previousTxnLgrSeq];
    changes.push(change);
  }
  const unknownChange = (key: string, ledgerEntryType: string): DerivedChange => ({ key, kind: StateChangeKind.MODIFIED, ledgerEntryType, after: unknown, before: unknown, ownerAccountIds: [] });
  for (const skipKey of skipListKeysChangedBy(ledger.ledgerIndex)) {
    if (!byKey.has(skipKey)) changes.push(unknownChange(skipKey, 'LedgerHashes'));
  }
  // rippled Ledger::updateNegativeUNL changes the NegativeUNL object of a flag ledger before its
  // transactions apply, outside any metadata (its images are read; an unchanged one is dropped).
  const negativeUnlKey = keylet.negativeUnl();
  if (isFlagLedger(ledger.ledgerIndex) && !byKey.has(negativeUnlKey)) changes.push(unknownChange(negativeUnlKey, 'NegativeUNL'));
  return changes;
}

/** The issuers of a trust line's two limits: its low and high accounts. */
function trustLineSides(...limits: (Buffer | undefined)[]): Buffer[] {
  return limits.flatMap((limit) => {
    const issuer = limit && amountIssuer(limit);
    return issuer ? [Buffer.from(issuer)] : [];
  });
}

/** The object before, from the object after and the threading fields it had before (see DerivedChange.threadingBefore). */
export function withThreading(blob: Buffer, threading: RawField[], profile: ChainProfile): Buffer {
  return imageOf(readObjectFields(blob, profile.definitions), threading).blob;
}
