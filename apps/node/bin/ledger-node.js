#!/usr/bin/env node
// The ledger-node CLI from its TypeScript sources, through tsx's loader: no build step after
// `npm ci`. The container image runs the same start-up (src/launch.ts) bundled into JavaScript by
// `npm run build` (tools/build/build.mjs), with no loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/launch.ts');
