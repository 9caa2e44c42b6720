#!/usr/bin/env node
// The ledger-node CLI from its TypeScript sources, through tsx's loader, with no build: what the
// tests run (libs/test-utils `cliEntry`), so that they exercise the sources as they are. The
// `ledger-node` command (ledger-node.js) and the container image run the bundle of `npm run build`.
import { register } from 'tsx/esm/api';

register();
await import('../src/launch.ts');
