/**
 * V8's compile cache (Node.js 22.1 and later; nothing on older ones): the code compiled from each
 * module is kept on disk and read back by the next process that loads the same file, so that the
 * six processes of a node, and each restart of one, compile their modules once. Node.js keeps it in
 * `NODE_COMPILE_CACHE` when set, else in the system's temporary directory (`node-compile-cache`);
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off. A cache that cannot be written (a read-only file
 * system) only leaves the process compiling as before.
 */
import nodeModule from 'node:module';

interface CompileCache {
  enableCompileCache?: () => unknown;
  flushCompileCache?: () => void;
}
const compileCache = nodeModule as CompileCache;

export function enableCompileCache(): void {
  compileCache.enableCompileCache?.();
}

/**
 * Writes what this process compiled so far into the cache. Node.js writes it at a clean exit; a
 * service calls this once it is started, when every module it needs is loaded, so that a process
 * that is killed rather than stopped has still left its part.
 */
export function flushCompileCache(): void {
  compileCache.flushCompileCache?.();
}
