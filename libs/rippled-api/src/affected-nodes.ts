import type { JsonObject } from './protocol';

/** One member of a metadata's AffectedNodes, unwrapped: its kind and the node itself. */
export interface AffectedNode {
  readonly kind: 'CreatedNode' | 'ModifiedNode' | 'DeletedNode';
  readonly node: JsonObject;
}

/** A metadata's AffectedNodes (decoded JSON) in order, each unwrapped; a member of another shape is passed over. */
export function affectedNodes(meta: JsonObject): AffectedNode[] {
  const nodes = Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : [];
  return nodes.flatMap((wrapper) => {
    if (wrapper === null || typeof wrapper !== 'object') return [];
    const [kind, node] = Object.entries(wrapper)[0] ?? [];
    if (kind !== 'CreatedNode' && kind !== 'ModifiedNode' && kind !== 'DeletedNode') return [];
    return typeof node === 'object' && node !== null && !Array.isArray(node) ? [{ kind, node: node as JsonObject }] : [];
  });
}
