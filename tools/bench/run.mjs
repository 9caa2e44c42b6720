#!/usr/bin/env node
// `npm run bench [-- --json]`: the bench is TypeScript, run through tsx's loader like the CLI.
// `--runtime image` (the default) measures the node on the Node.js the container image runs,
// made ready here, before the run and its time limit start (tools/test/image-runtime.mjs: some
// minutes the first time, cached after); `--runtime current` on the Node.js running this.
import { register } from 'tsx/esm/api';
import { imageRuntime } from '../test/image-runtime.mjs';

const position = process.argv.indexOf('--runtime');
const runtime = position < 0 ? 'image' : process.argv[position + 1];
if (runtime !== 'image' && runtime !== 'current') {
  process.stderr.write('bench: --runtime takes image or current\n');
  process.exit(2);
}
if (runtime === 'image') {
  try {
    // On stderr: with --json, stdout holds the report alone.
    const { node, app } = imageRuntime('bench', (line) => process.stderr.write(`[bench runtime] ${line}\n`));
    process.env.LEDGER_NODE_BENCH_NODE = node;
    process.env.LEDGER_NODE_BENCH_APP = app;
  } catch (error) {
    process.stderr.write(`bench: the image's Node.js is not ready: ${error.message} (--runtime current measures on this one)\n`);
    process.exit(1);
  }
}
register();
await import('./bench.ts');
