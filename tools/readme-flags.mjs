#!/usr/bin/env node
// Rewrites the flags table in docs/operating.md from the flag declarations (libs/config): `node --import tsx tools/readme-flags.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { flagGroups, renderFlagTable } from '@ledger-node/config';

const document = 'docs/operating.md';
const text = readFileSync(document, 'utf8');
const table = /\| Flag \| Meaning \| Default \|\n\|---\|---\|---\|\n(\|.*\|\n)*/;
if (!table.test(text)) throw new Error(`${document} has no flags table to replace`);
writeFileSync(document, text.replace(table, `${renderFlagTable(flagGroups)}\n`));
