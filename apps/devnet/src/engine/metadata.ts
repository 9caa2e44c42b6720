/**
 * Turns a transaction's sandbox into metadata and writes it to the open ledger, following
 * rippled's `ApplyStateTable::apply`:
 * - CreatedNode: NewFields = fields with non-default values;
 * - ModifiedNode: PreviousFields = original fields that changed or went away, FinalFields = all
 *   fields, PreviousTxnID/PreviousTxnLgrSeq = the entry's threading before this transaction;
 * - DeletedNode: PreviousFields as above, FinalFields = the entry as it was deleted;
 * - threading: entries that carry PreviousTxnID (account roots, trust lines) get this
 *   transaction's id, and the accounts owning a created or deleted trust line are threaded too;
 * - AffectedNodes sorted by LedgerIndex (rippled `TxMeta::addRaw`).
 */
import type { ChainCodec } from '@ledger-node/chain';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { cloneEntry, type LedgerEntry, type Sandbox } from './state';

export type JsonObject = Record<string, unknown>;

/** Fields rippled never puts in metadata (`SField::sMD_Never`). */
const NEVER_IN_METADATA = new Set(['LedgerEntryType', 'Indexes', 'Hashes', 'LedgerIndex']);
/** Fields rippled shows only in a deleted entry's FinalFields (`SField::sMD_DeleteFinal`). */
const DELETE_FINAL_ONLY = new Set(['PreviousTxnID', 'PreviousTxnLgrSeq']);

export interface MetadataContext {
  txHash: string;
  ledgerIndex: number;
  transactionIndex: number;
  resultToken: string;
  /** DeliveredAmount, present only when a payment delivered less than its Amount. */
  deliveredAmount?: unknown;
}

export interface CommittedTransaction {
  /** Metadata JSON as it is serialized (no `delivered_amount`). */
  meta: JsonObject;
  /** Number of entries written or removed. */
  changedEntries: number;
}

type NodeKind = 'CreatedNode' | 'ModifiedNode' | 'DeletedNode';

interface AffectedNode {
  kind: NodeKind;
  fields: JsonObject;
}

export class MetadataWriter {
  private readonly zeroAccount: string;

  constructor(
    private readonly codec: ChainCodec,
    private readonly definitions: XrplDefinitionsBase,
    /** Ledger entry types that carry PreviousTxnID and are threaded (rippled `isThreadedType`). */
    private readonly threadedTypes: ReadonlySet<string>,
    /** The trust-line entry type of the chain (RippleState / SkywellState). */
    private readonly trustLineType: string,
  ) {
    this.zeroAccount = codec.encodeAccountId(new Uint8Array(20));
  }

  commit(sandbox: Sandbox, context: MetadataContext, accountIndexOf: (address: string) => string): CommittedTransaction {
    const base = sandbox.base;
    const nodes = new Map<string, AffectedNode>();
    /** Account roots threaded without being otherwise changed (rippled's `newMod`). */
    const threadedOnly = new Map<string, LedgerEntry>();

    const affected = (index: string, kind: NodeKind, entryType: unknown): AffectedNode => {
      let node = nodes.get(index);
      if (node === undefined) {
        node = { kind, fields: { LedgerEntryType: entryType, LedgerIndex: index } };
        nodes.set(index, node);
      } else {
        node.kind = kind;
        node.fields.LedgerEntryType = entryType;
      }
      return node;
    };

    const threadItem = (index: string, entry: LedgerEntry) => {
      const previousTxnId = entry.PreviousTxnID;
      const previousLedger = entry.PreviousTxnLgrSeq;
      if (previousTxnId === context.txHash) return;
      entry.PreviousTxnID = context.txHash;
      entry.PreviousTxnLgrSeq = context.ledgerIndex;
      if (typeof previousTxnId === 'string' && !/^0+$/.test(previousTxnId)) {
        const node = affected(index, nodes.get(index)?.kind ?? 'ModifiedNode', entry.LedgerEntryType);
        if (!('PreviousTxnID' in node.fields)) {
          node.fields.PreviousTxnID = previousTxnId;
          node.fields.PreviousTxnLgrSeq = previousLedger;
        }
      }
    };

    // rippled `threadTx`: the owning account, as this transaction left it or as stored.
    const threadAccount = (address: string) => {
      const index = accountIndexOf(address);
      let entry = threadedOnly.get(index);
      if (entry === undefined) {
        const item = sandbox.item(index);
        if (item !== undefined && item.action === 'erase') return;
        if (item !== undefined && item.action !== 'cache') {
          entry = item.entry;
        } else {
          const stored = base.get(index);
          if (stored === undefined) return;
          entry = cloneEntry(stored) as LedgerEntry;
          threadedOnly.set(index, entry);
        }
      }
      threadItem(index, entry);
    };

    const threadOwners = (entry: Readonly<LedgerEntry>) => {
      if (entry.LedgerEntryType === 'AccountRoot') return;
      if (entry.LedgerEntryType === this.trustLineType) {
        threadAccount(issuerOf(entry.LowLimit));
        threadAccount(issuerOf(entry.HighLimit));
        return;
      }
      if (typeof entry.Account === 'string') threadAccount(entry.Account);
      if (typeof entry.Destination === 'string') threadAccount(entry.Destination);
    };

    for (const [index, item] of sandbox.sortedItems()) {
      if (item.action === 'cache') continue;
      const current = item.entry;
      const original = base.get(index);
      if (item.action === 'modify') {
        const currentBlob = this.codec.encode(current);
        if (currentBlob === base.blobHex(index)) continue;
      }
      const kind: NodeKind = item.action === 'erase' ? 'DeletedNode' : item.action === 'insert' ? 'CreatedNode' : 'ModifiedNode';
      const node = affected(index, kind, (current ?? original)!.LedgerEntryType);
      if (kind === 'DeletedNode') {
        threadOwners(original!);
        this.addChangedFields(node, original!, current);
        const finals = this.pick(current, (field) => !NEVER_IN_METADATA.has(field));
        if (Object.keys(finals).length > 0) node.fields.FinalFields = finals;
      } else if (kind === 'ModifiedNode') {
        if (this.threadedTypes.has(String(current.LedgerEntryType))) threadItem(index, current);
        this.addChangedFields(node, original!, current);
        const finals = this.pick(current, (field) => !NEVER_IN_METADATA.has(field) && !DELETE_FINAL_ONLY.has(field));
        if (Object.keys(finals).length > 0) node.fields.FinalFields = finals;
      } else {
        threadOwners(current);
        if (this.threadedTypes.has(String(current.LedgerEntryType))) threadItem(index, current);
        const news = this.pick(
          current,
          (field, value) => !NEVER_IN_METADATA.has(field) && !DELETE_FINAL_ONLY.has(field) && !this.isDefault(field, value),
        );
        if (Object.keys(news).length > 0) node.fields.NewFields = news;
      }
    }

    // Serialize everything before writing anything, so a failure cannot leave half a transaction.
    const writes: { index: string; entry?: LedgerEntry; blob?: string }[] = [];
    for (const [index, entry] of threadedOnly) writes.push({ index, entry, blob: this.codec.encode(entry) });
    for (const [index, item] of sandbox.sortedItems()) {
      if (item.action === 'cache') continue;
      writes.push(item.action === 'erase' ? { index } : { index, entry: item.entry, blob: this.codec.encode(item.entry) });
    }
    for (const write of writes) {
      if (write.entry === undefined) base.remove(write.index);
      else base.put(write.index, write.entry, write.blob);
    }

    const affectedNodes = [...nodes.entries()]
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([, node]) => ({ [node.kind]: node.fields }));
    const meta: JsonObject = {
      AffectedNodes: affectedNodes,
      TransactionIndex: context.transactionIndex,
      TransactionResult: context.resultToken,
    };
    if (context.deliveredAmount !== undefined) meta.DeliveredAmount = context.deliveredAmount;
    return { meta, changedEntries: writes.length };
  }

  /**
   * PreviousFields: original fields that are absent or different now (rippled `sMD_ChangeOrig`).
   * rippled walks the original's whole template, absent fields included, so a field the
   * transaction added puts an (absent, unprinted) entry in it: PreviousFields is then present even
   * when nothing else changed, as `{}` (mainnet UNLModify metadata shows it so).
   */
  private addChangedFields(node: AffectedNode, original: Readonly<LedgerEntry>, current: Readonly<LedgerEntry>): void {
    const previous: JsonObject = {};
    const inMetadata = (field: string) => !NEVER_IN_METADATA.has(field) && !DELETE_FINAL_ONLY.has(field);
    for (const [field, value] of Object.entries(original)) {
      if (!inMetadata(field)) continue;
      if (!(field in current) || !sameValue(value, current[field])) previous[field] = cloneEntry(value);
    }
    const added = Object.keys(current).some((field) => inMetadata(field) && current[field] !== undefined && original[field] === undefined);
    if (Object.keys(previous).length > 0 || added) node.fields.PreviousFields = previous;
  }

  private pick(entry: Readonly<LedgerEntry>, keep: (field: string, value: unknown) => boolean): JsonObject {
    const picked: JsonObject = {};
    for (const [field, value] of Object.entries(entry)) {
      if (value !== undefined && keep(field, value)) picked[field] = cloneEntry(value);
    }
    return picked;
  }

  /** rippled `STBase::isDefault` by field type: zero numbers and hashes, empty blobs and vectors, zero native amounts. */
  private isDefault(field: string, value: unknown): boolean {
    const type = this.definitions.field.fromString(field)?.type.name;
    switch (type) {
      case 'UInt8':
      case 'UInt16':
      case 'UInt32':
        return value === 0;
      case 'UInt64':
      case 'Hash128':
      case 'Hash160':
      case 'Hash256':
        return typeof value === 'string' && /^0*$/.test(value);
      case 'Blob':
        return value === '';
      case 'Vector256':
        return Array.isArray(value) && value.length === 0;
      case 'AccountID':
        return value === this.zeroAccount;
      case 'Amount':
        // An issued amount is never default, even when zero (rippled: only native zero is).
        return typeof value === 'string' && /^-?0+$/.test(value);
      default:
        return false;
    }
  }
}

function issuerOf(amount: unknown): string {
  return (amount as { issuer: string }).issuer;
}

/** Structural equality of JSON values, independent of key order. */
export function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== typeof right || left === null || right === null || typeof left !== 'object') return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const rightArray = right as unknown[];
    return left.length === rightArray.length && left.every((member, position) => sameValue(member, rightArray[position]));
  }
  const leftObject = left as Record<string, unknown>;
  const rightObject = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftObject);
  if (leftKeys.length !== Object.keys(rightObject).length) return false;
  return leftKeys.every((key) => key in rightObject && sameValue(leftObject[key], rightObject[key]));
}
