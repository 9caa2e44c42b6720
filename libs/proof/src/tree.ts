/**
 * Hashing a proof (either form, see document.ts) up to the root it stands for, and finding a
 * leaf where its key leads. Xahau's Import accepts a leaf anywhere in the proof; here it must sit
 * on its key's path, as it does in the ledger's tree.
 */
import { HashPrefix, sha512Half, toHex } from '@ledger-node/chain';
import type { ProofList, ProofTree, ProofTreeNode } from './document';

const ZERO = Buffer.alloc(32);
const NIBBLES = '0123456789ABCDEF';

function isList(node: ProofTree): node is ProofList {
  return Array.isArray(node);
}

function listHash(list: ProofList): Buffer {
  return sha512Half(HashPrefix.innerNode, ...list.map((entry) => (typeof entry === 'string' ? Buffer.from(entry, 'hex') : listHash(entry))));
}

/** Xahau: a child without children stands for its own hash, any other is hashed from its children. */
function treeHash(node: ProofTreeNode): Buffer {
  return sha512Half(
    HashPrefix.innerNode,
    ...[...NIBBLES].map((nibble) => {
      const child = node.children[nibble];
      if (child === undefined) return ZERO;
      return Object.keys(child.children).length === 0 ? Buffer.from(child.hash, 'hex') : treeHash(child);
    }),
  );
}

/** The root hash the proof stands for (uppercase hex). */
export function proofRoot(proof: ProofTree): string {
  return toHex(isList(proof) ? listHash(proof) : treeHash(proof));
}

/**
 * The first inner node of a tree-form proof whose stated hash is not the hash of its children
 * (as `children.4.children.A`), or undefined. Xahau ignores these hashes; a proof that misstates
 * one is refused here all the same.
 */
export function misstatedNode(proof: ProofTree, where = 'root'): string | undefined {
  if (isList(proof)) return undefined;
  for (const [nibble, child] of Object.entries(proof.children)) {
    const found = Object.keys(child.children).length === 0 ? undefined : misstatedNode(child, where === 'root' ? `children.${nibble}` : `${where}.children.${nibble}`);
    if (found !== undefined) return found;
  }
  return toHex(treeHash(proof)) === proof.hash ? undefined : where;
}

/** How many inner nodes the key's nibbles pass before they reach `leafHash`; undefined when they reach anything else. */
export function leafDepth(proof: ProofTree, key: string, leafHash: string): number | undefined {
  let node: ProofTree = proof;
  for (let depth = 0; depth < key.length; depth++) {
    const nibble = key[depth]!.toUpperCase();
    const next: ProofTree | string | undefined = isList(node) ? node[NIBBLES.indexOf(nibble)] : node.children[nibble];
    if (next === undefined) return undefined;
    const stopsHere = typeof next === 'string' || (!isList(next) && Object.keys(next.children).length === 0);
    if (stopsHere) return (typeof next === 'string' ? next : next.hash) === leafHash ? depth + 1 : undefined;
    node = next;
  }
  return undefined;
}
