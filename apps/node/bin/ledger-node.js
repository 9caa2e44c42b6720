#!/usr/bin/env node
// The ledger-node CLI runs its TypeScript sources through tsx's loader: no build step after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
