#!/usr/bin/env node
// Rewrites the flags table in README.md from the flag declarations (libs/config): `node --import tsx tools/readme-flags.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { flagGroups, renderFlagTable } from '@ledger-node/config';

const readme = readFileSync('README.md', 'utf8');
const table = /\| Flag \| Meaning \| Default \|\n\|---\|---\|---\|\n(\|.*\|\n)*/;
if (!table.test(readme)) throw new Error('README.md has no flags table to replace');
writeFileSync('README.md', readme.replace(table, `${renderFlagTable(flagGroups)}\n`));
