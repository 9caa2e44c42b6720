#!/usr/bin/env node
// `npm run audit`: the lockfile checked offline (tools/audit/lockfile.ts), then the registry's
// advisories for it (`npm audit --package-lock-only`), each summed up in a line. Exit 1 when the
// lockfile breaks a rule or a high or critical advisory applies; 2 when the registry does not answer
// the advisory query, so that no one mistakes "not checked" for "clean".
import { register } from 'tsx/esm/api';

register();
await import('./audit.ts');
