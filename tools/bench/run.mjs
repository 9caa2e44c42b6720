#!/usr/bin/env node
// `npm run bench [-- --json]`: the bench is TypeScript, run through tsx's loader like the CLI.
import { register } from 'tsx/esm/api';

register();
await import('./bench.ts');
