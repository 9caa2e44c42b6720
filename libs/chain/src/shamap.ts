import { InvalidParams } from '@ledger-node/errors';
import { gatherInto, HashPrefix, sha512Half, sha512HalfGathered, ZERO_HASH } from './hash';
import { hash256Bytes, toBytes, toHex } from './hex';

/**
 * rippled SHAMap: a 16-way radix tree over the nibbles of 256-bit keys. A leaf sits at the
 * shallowest depth where its key prefix is unique; an inner node hashes as
 * SHA512Half('MIN\0' + 16 child hashes, zero for an empty branch); an empty tree's root is zero.
 *
 * Nodes are immutable and cache their hash, so a tree is a root pointer: changing a key copies
 * only the path to it, and a snapshot shares every node with its source.
 */
interface LeafNode {
  readonly kind: 'leaf';
  readonly key: Buffer;
  readonly payload: Buffer;
  readonly hash: Buffer;
}

interface InnerNode {
  readonly kind: 'inner';
  readonly children: ReadonlyArray<TreeNode | undefined>;
  /** Number of leaves below, so `size` is O(1). */
  readonly leafCount: number;
  cachedHash?: Buffer;
}

type TreeNode = LeafNode | InnerNode;

const ZERO_BYTES = Buffer.alloc(32);
const EMPTY_PAYLOAD = Buffer.alloc(0);
const BRANCHES = 16;
/** Nibbles of a 256-bit key. */
const KEY_NIBBLES = 64;

function nibble(key: Buffer, depth: number): number {
  const byte = key[depth >> 1]!;
  return depth % 2 === 0 ? byte >> 4 : byte & 0x0f;
}

function makeInner(children: Array<TreeNode | undefined>): InnerNode {
  let leafCount = 0;
  for (const child of children) if (child) leafCount += child.kind === 'leaf' ? 1 : child.leafCount;
  return { kind: 'inner', children, leafCount };
}

const EMPTY_ROOT: InnerNode = makeInner(new Array<TreeNode | undefined>(BRANCHES).fill(undefined));

function nodeHash(node: TreeNode | undefined): Buffer {
  if (node === undefined) return ZERO_BYTES;
  if (node.kind === 'leaf') return node.hash;
  if (node.cachedHash === undefined) {
    // rippled SHAMapInnerNode::updateHash: a node with no branches hashes to zero.
    node.cachedHash = node.leafCount === 0 ? ZERO_BYTES : innerNodeHash(node.children);
  }
  return node.cachedHash;
}

/** SHA512Half('MIN\0' + the 16 child hashes), its input written in place once every child's hash is known. */
function innerNodeHash(children: ReadonlyArray<TreeNode | undefined>): Buffer {
  // A child's own hash uses the same input buffer: each is computed (and cached) before writing.
  for (const child of children) if (child?.kind === 'inner') nodeHash(child);
  const length = HashPrefix.innerNode.length + BRANCHES * 32;
  const input = gatherInto(length);
  let offset = HashPrefix.innerNode.copy(input, 0);
  for (const child of children) offset += nodeHash(child).copy(input, offset);
  return sha512HalfGathered(length);
}

function withChild(inner: InnerNode, branch: number, child: TreeNode | undefined): InnerNode {
  const children = inner.children.slice();
  children[branch] = child;
  return makeInner(children);
}

/** Inner nodes down to where the two keys' nibbles differ, with both leaves below them. */
function splitLeaves(existing: LeafNode, added: LeafNode, depth: number): InnerNode {
  const children = new Array<TreeNode | undefined>(BRANCHES).fill(undefined);
  const existingBranch = nibble(existing.key, depth);
  const addedBranch = nibble(added.key, depth);
  if (existingBranch === addedBranch) {
    children[existingBranch] = splitLeaves(existing, added, depth + 1);
  } else {
    children[existingBranch] = existing;
    children[addedBranch] = added;
  }
  return makeInner(children);
}

function insert(inner: InnerNode, leaf: LeafNode, depth: number): InnerNode {
  const branch = nibble(leaf.key, depth);
  const child = inner.children[branch];
  if (child === undefined) return withChild(inner, branch, leaf);
  if (child.kind === 'inner') return withChild(inner, branch, insert(child, leaf, depth + 1));
  if (child.key.equals(leaf.key)) return withChild(inner, branch, leaf);
  return withChild(inner, branch, splitLeaves(child, leaf, depth + 1));
}

/** Returns the new node for this position (undefined when empty), or the same node when the key is absent. */
function remove(inner: InnerNode, key: Buffer, depth: number, isRoot: boolean): TreeNode | undefined {
  const branch = nibble(key, depth);
  const child = inner.children[branch];
  if (child === undefined) return inner;
  let replacement: TreeNode | undefined;
  if (child.kind === 'leaf') {
    if (!child.key.equals(key)) return inner;
    replacement = undefined;
  } else {
    replacement = remove(child, key, depth + 1, false);
    if (replacement === child) return inner;
  }
  const updated = withChild(inner, branch, replacement);
  if (isRoot) return updated;
  // rippled SHAMap::delItem: an inner node left with a single leaf below it is replaced by that leaf.
  if (updated.leafCount === 0) return undefined;
  if (updated.leafCount === 1) {
    const only = updated.children.find((node) => node !== undefined)!;
    if (only.kind === 'leaf') return only;
  }
  return updated;
}

function find(root: InnerNode, key: Buffer): LeafNode | undefined {
  let node: TreeNode | undefined = root;
  for (let depth = 0; node !== undefined && node.kind === 'inner'; depth++) {
    node = node.children[nibble(key, depth)];
  }
  return node !== undefined && node.key.equals(key) ? node : undefined;
}

/** Leaves in key order whose key is greater than `after` (all leaves when `after` is undefined). */
function* walkAfter(node: TreeNode | undefined, after: Buffer | undefined, depth: number): Generator<LeafNode> {
  if (node === undefined) return;
  if (node.kind === 'leaf') {
    if (after === undefined || Buffer.compare(node.key, after) > 0) yield node;
    return;
  }
  // Branches left of the marker's nibble hold only smaller keys; the marker's own branch is searched
  // with the marker, every branch right of it is taken whole.
  const firstBranch = after === undefined ? 0 : nibble(after, depth);
  for (let branch = firstBranch; branch < BRANCHES; branch++) {
    yield* walkAfter(node.children[branch], branch === firstBranch ? after : undefined, depth + 1);
  }
}

/** The hash of a state tree's leaf: rippled SHAMapAccountStateLeafNode, SHA512Half('MLN\0' + data + key). */
export function stateLeafHash(key: Uint8Array, blob: Uint8Array): Buffer {
  return sha512Half(HashPrefix.leafNode, blob, key);
}

function stateLeaf(key: Buffer, blob: Uint8Array): LeafNode {
  const payload = Buffer.from(blob);
  return { kind: 'leaf', key, payload, hash: stateLeafHash(key, payload) };
}

/** Bytes of rippled Serializer::addVL's length prefix for `length` (1, 2 or 3). */
function variableLengthPrefixLength(length: number): number {
  if (length <= 192) return 1;
  if (length <= 12480) return 2;
  if (length <= 918744) return 3;
  throw new InvalidParams(`a variable-length field holds at most 918744 bytes, got ${length}`);
}

/** Writes rippled Serializer::addVL's length prefix for `length` at `offset`; returns the offset after it. */
function writeVariableLengthPrefix(length: number, into: Buffer, offset: number): number {
  switch (variableLengthPrefixLength(length)) {
    case 1:
      return into.writeUInt8(length, offset);
    case 2: {
      const rest = length - 193;
      into[offset] = 193 + (rest >> 8);
      into[offset + 1] = rest & 0xff;
      return offset + 2;
    }
    default: {
      const rest = length - 12481;
      into[offset] = 241 + (rest >> 16);
      into[offset + 1] = (rest >> 8) & 0xff;
      into[offset + 2] = rest & 0xff;
      return offset + 3;
    }
  }
}

/** rippled Serializer::addVL length prefix (1, 2 or 3 bytes). */
export function variableLengthPrefix(length: number): Buffer {
  const prefix = Buffer.alloc(variableLengthPrefixLength(length));
  writeVariableLengthPrefix(length, prefix, 0);
  return prefix;
}

/** The hash of a transaction tree's leaf: rippled SHAMapTxPlusMetaLeafNode, SHA512Half('SND\0' + VL(tx) + VL(meta) + txid), its input written in place. */
export function transactionLeafHash(txHash: Uint8Array, txBlob: Uint8Array, metaBlob: Uint8Array): Buffer {
  const length =
    HashPrefix.txNode.length + variableLengthPrefixLength(txBlob.length) + txBlob.length + variableLengthPrefixLength(metaBlob.length) + metaBlob.length + txHash.length;
  const input = gatherInto(length);
  let offset = HashPrefix.txNode.copy(input, 0);
  offset = writeVariableLengthPrefix(txBlob.length, input, offset);
  input.set(txBlob, offset);
  offset = writeVariableLengthPrefix(metaBlob.length, input, offset + txBlob.length);
  input.set(metaBlob, offset);
  input.set(txHash, offset + metaBlob.length);
  return sha512HalfGathered(length);
}

function transactionLeaf(txHash: Buffer, txBlob: Uint8Array, metaBlob: Uint8Array): LeafNode {
  // A transaction tree is only ever hashed, so its leaves keep no copy of the bytes.
  return { kind: 'leaf', key: txHash, payload: EMPTY_PAYLOAD, hash: transactionLeafHash(txHash, txBlob, metaBlob) };
}

type TransactionItem = { hash: string | Buffer; txBlob: string | Uint8Array; metaBlob: string | Uint8Array };

function transactionTree(items: readonly TransactionItem[]): InnerNode {
  // A key given twice keeps its last leaf, as inserting it again would.
  const leaves = new Map<string, LeafNode>();
  for (const item of items) {
    const key = typeof item.hash === 'string' ? hash256Bytes(item.hash, 'hash') : item.hash;
    if (key.length !== 32) throw new InvalidParams('hash must be 32 bytes', 'hash');
    leaves.set(key.toString('latin1'), transactionLeaf(key, toBytes(item.txBlob, 'txBlob'), toBytes(item.metaBlob, 'metaBlob')));
  }
  return treeOf([...leaves.values()], 0);
}

/**
 * The inner node at `depth` over leaves of distinct keys that share their first `depth` nibbles,
 * built at once: a tree's shape depends on its keys alone, so it is the one inserting them one by
 * one makes, without copying a path per key.
 */
function treeOf(leaves: readonly LeafNode[], depth: number): InnerNode {
  // Leaves still together below the 64th nibble have the same key.
  if (depth === KEY_NIBBLES) throw new SameKey(leaves[0]!.key);
  const branches = new Array<LeafNode[] | undefined>(BRANCHES).fill(undefined);
  for (const leaf of leaves) (branches[nibble(leaf.key, depth)] ??= []).push(leaf);
  return makeInner(branches.map((below) => (below === undefined ? undefined : below.length === 1 ? below[0] : treeOf(below, depth + 1))));
}

/** Two leaves of one key given to treeOf: a list that is not a tree's leaves. */
class SameKey extends Error {
  constructor(readonly key: Buffer) {
    super('two leaves have the same key');
  }
}

/**
 * The root of the transaction tree whose leaves are these transactions, each with its id as the
 * caller computed it; `sameId` when two have the same id instead (a tree holds each key once, so
 * inserting a copy would leave the root as it is: such a list is not the tree's leaves).
 */
export function transactionTreeRootOf(transactions: readonly { hash: Buffer; txBlob: Uint8Array; metaBlob: Uint8Array }[]): { root: Buffer } | { sameId: Buffer } {
  const leaves = transactions.map((tx) => transactionLeaf(tx.hash, tx.txBlob, tx.metaBlob));
  try {
    return { root: nodeHash(treeOf(leaves, 0)) };
  } catch (error) {
    if (error instanceof SameKey) return { sameId: error.key };
    throw error;
  }
}

/** Root of a transaction tree (a ledger's `transaction_hash`); keys are the tx hashes (64 hex, or 32 bytes). */
export function transactionTreeRoot(items: readonly TransactionItem[]): string {
  return toHex(nodeHash(transactionTree(items)));
}

/**
 * The inner nodes from the root down to a key's leaf, in the list form Xahau's Import reads
 * (XLS-41 `proof`): each inner node as its 16 branch hashes (64 zeros for an empty branch), the
 * branch toward the key holding the next inner node's list, or the leaf's hash at the bottom.
 */
export type ProofPath = ReadonlyArray<string | ProofPath>;

function pathTo(inner: InnerNode, key: Buffer, depth: number): ProofPath | undefined {
  const branch = nibble(key, depth);
  const child = inner.children[branch];
  let toward: string | ProofPath | undefined;
  if (child === undefined) return undefined;
  if (child.kind === 'leaf') toward = child.key.equals(key) ? toHex(child.hash) : undefined;
  else toward = pathTo(child, key, depth + 1);
  if (toward === undefined) return undefined;
  return inner.children.map((node, position) => (position === branch ? toward : toHex(nodeHash(node))));
}

/**
 * A proof path in its flat form (GetStateProof's `inner_nodes`): the inner nodes from the root down,
 * each its 16 branch hashes (512 bytes), the branch toward the key holding the next node's hash, or
 * the leaf's at the bottom.
 */
export function flatProofPath(path: ProofPath, key: Uint8Array, depth = 0): Buffer[] {
  const branch = nibble(Buffer.from(key), depth);
  const toward = path[branch]!;
  const below = typeof toward === 'string' ? [] : flatProofPath(toward, key, depth + 1);
  const towardHash = typeof toward === 'string' ? Buffer.from(toward, 'hex') : sha512Half(HashPrefix.innerNode, below[0]!);
  return [Buffer.concat(path.map((entry, position) => (position === branch ? towardHash : Buffer.from(entry as string, 'hex')))), ...below];
}

/** The list form of a flat proof path (flatProofPath); InvalidParams when a node is not 16 hashes. */
export function proofPathOfFlat(innerNodes: readonly Uint8Array[], key: Uint8Array): ProofPath {
  let below: ProofPath | undefined;
  for (let depth = innerNodes.length - 1; depth >= 0; depth--) {
    const node = Buffer.from(innerNodes[depth]!);
    if (node.length !== 16 * 32) throw new InvalidParams(`inner node ${depth} of the path is ${node.length} bytes, not 16 hashes`, 'inner_nodes');
    const branches: (string | ProofPath)[] = Array.from({ length: 16 }, (_, branch) => toHex(node.subarray(branch * 32, branch * 32 + 32)));
    if (below !== undefined) branches[nibble(Buffer.from(key), depth)] = below;
    below = branches;
  }
  if (below === undefined) throw new InvalidParams('the path holds no inner node', 'inner_nodes');
  return below;
}

/** The proof path of one transaction (by hash) in the tree of a ledger's transactions; undefined when it is not among them. */
export function transactionTreeProof(items: readonly TransactionItem[], hash: string): ProofPath | undefined {
  return pathTo(transactionTree(items), hash256Bytes(hash, 'hash'), 0);
}

/** Root of a state tree (a ledger's `account_hash`); keys are the ledger entry indexes. */
export function stateTreeRoot(items: readonly { index: string; blob: string | Uint8Array }[]): string {
  const tree = new StateTree();
  for (const item of items) tree.set(item.index, item.blob);
  return tree.root();
}

/** A ledger's account-state tree, changed in place, with O(1) independent snapshots. */
export class StateTree {
  private rootNode: InnerNode;

  constructor() {
    this.rootNode = EMPTY_ROOT;
  }

  /** Inserts or replaces the entry at `index` (64 hex) with its serialized ledger entry. */
  set(index: string, blob: string | Uint8Array): void {
    this.rootNode = insert(this.rootNode, stateLeaf(hash256Bytes(index, 'index'), toBytes(blob, 'blob')), 0);
  }

  /** Removes the entry; returns whether it was present. */
  delete(index: string): boolean {
    const updated = remove(this.rootNode, hash256Bytes(index, 'index'), 0, true) as InnerNode;
    if (updated === this.rootNode) return false;
    this.rootNode = updated;
    return true;
  }

  /** The entry's serialized bytes, or undefined when absent. */
  get(index: string): Buffer | undefined {
    return find(this.rootNode, hash256Bytes(index, 'index'))?.payload;
  }

  has(index: string): boolean {
    return this.get(index) !== undefined;
  }

  /** The proof path of the entry at `index` (see ProofPath); undefined when absent. */
  proof(index: string): ProofPath | undefined {
    return pathTo(this.rootNode, hash256Bytes(index, 'index'), 0);
  }

  /** Root hash (uppercase hex); 64 zeros for an empty tree. */
  root(): string {
    return this.rootNode.leafCount === 0 ? ZERO_HASH : toHex(nodeHash(this.rootNode));
  }

  /** A tree that shares every node with this one; later changes to either do not affect the other. */
  snapshot(): StateTree {
    const copy = new StateTree();
    copy.rootNode = this.rootNode;
    return copy;
  }

  get size(): number {
    return this.rootNode.leafCount;
  }

  /** Entries in key order, starting after `afterIndex` when given (the paging order of `ledger_data`). */
  *entries(afterIndex?: string): Generator<{ index: string; blob: Buffer }> {
    const after = afterIndex === undefined ? undefined : hash256Bytes(afterIndex, 'afterIndex');
    for (const leaf of walkAfter(this.rootNode, after, 0)) yield { index: toHex(leaf.key), blob: leaf.payload };
  }
}
