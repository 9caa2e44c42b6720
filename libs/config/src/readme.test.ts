import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, workspaceRoot } from '@ledger-node/test-utils';
import { allFlags, flagGroups, parseFlags, renderFlagTable } from './index';

const root = workspaceRoot();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
/** Where the flags are documented: the flags table and the example -config file. */
const operating = read('docs/operating.md');
/** The README and every document under docs/, by path from the workspace root. */
const documents = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

/** A Markdown document without its fenced code blocks and inline code: the text links and headings are read from. */
function prose(text: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(line);
  }
  return lines.join('\n').replace(/(`+)[\s\S]*?\1/g, '');
}

/** The anchors of a document's headings, as GitHub makes them: lower case, punctuation dropped, spaces to '-', repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Each relative link of a document (its path from the workspace root, and its text) that names no existing file, or no heading of it. */
function brokenLinks(document: string, text = read(document)): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:: not a file of the repository
    const [file, anchor] = target!.split('#', 2) as [string, string | undefined];
    const linked = file === '' ? document : path.posix.normalize(path.posix.join(path.posix.dirname(document), file));
    if (!existsSync(path.join(root, linked))) {
      broken.push(`${target}: no file ${linked}`);
    } else if (anchor !== undefined && !(linked.endsWith('.md') && anchors(linked === document ? text : read(linked)).has(anchor))) {
      broken.push(`${target}: no heading #${anchor} in ${linked}`);
    }
  }
  return broken;
}

describe('README', () => {
  it('is read in five minutes: at most 300 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('gives the two commands: npm ci && npm start runs the node on the devnet, npm test runs every test', () => {
    expect(readme).toContain('npm ci && npm start     # run the node against an embedded local devnet');
    expect(readme).toContain('npm test                # lint, type check, contract drift check and every test suite');
  });

  it.each(documents)('%s: every relative link names an existing file, and an existing heading of it', (document) => {
    expect(brokenLinks(document)).toEqual([]);
  });

  it('the link check reads anchors as GitHub makes them, and finds a broken link', () => {
    expect(anchors('# Proofs: answers you do not have to trust\n### Verifying a `jt_sign` signature\n## Flags\n## Flags\n```\n# not a heading\n```\n')).toEqual(
      new Set(['proofs-answers-you-do-not-have-to-trust', 'verifying-a-jt_sign-signature', 'flags', 'flags-1']),
    );
    expect(prose('see [a\nstore](#choosing-a-store) and `[x](#y)`\n```\n[z](#w)\n```\n')).toBe('see [a\nstore](#choosing-a-store) and \n');
    const text = '## Here\n[a](#here) [b](#there) [c](none.md) [d](operating.md#flags) [e](operating.md#none) [f](../README.md#a-first-session) [g](https://example.com/#x)\n';
    expect(brokenLinks('docs/api.md', text)).toEqual(['#there: no heading #there in docs/api.md', 'none.md: no file docs/none.md', 'operating.md#none: no heading #none in docs/operating.md']);
  });
});

describe('docs/operating.md', () => {
  it('shows the flags table exactly as the flags are declared', () => {
    expect(operating).toContain(renderFlagTable(flagGroups));
  });

  it('shows an example -config file the flags accept', () => {
    const example = /```toml\n(# ledger-node -config [\s\S]*?)```/.exec(operating)?.[1];
    expect(example).toBeDefined();
    const dir = tempDir('readme-config-');
    try {
      const file = path.join(dir.dir, 'ledger-node.toml');
      writeFileSync(file, example!);
      const { flags } = parseFlags(['-config', file], allFlags, { env: {} });
      expect(flags.origin('rpcport')).toEqual({ kind: 'file', file });
      expect(flags.boolean('rpc')).toBe(true);
    } finally {
      dir.remove();
    }
  });
});
