import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded when first used rather than when test-utils is imported: every end-to-end file
 * imports test-utils, and the TypeScript compiler or node-forge would be compiled there for the few
 * files that use them.
 */
export function lazyPackage<T>(name: string): () => T {
  return () => require(name) as T;
}
