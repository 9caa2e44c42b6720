import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded when first used rather than when test-utils is imported: every end-to-end file
 * imports test-utils in a fresh module graph of its own, and the TypeScript compiler, node-forge or
 * node-postgres would be compiled there for the few files that use them.
 */
export function lazyPackage<T>(name: string): () => T {
  return () => require(name) as T;
}
