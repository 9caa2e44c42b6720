/**
 * The entries of a --help text, by their head (`-rpcport PORT`, `ledger-node devnet [flags]`): an
 * entry is a line `  head  text…` and the lines indented deeper below it that carry the rest of its
 * text wrapped; each text comes back on one line.
 */
export function helpEntries(help: string): Map<string, string> {
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of help.split('\n')) {
    const head = /^ {2}(\S.*?)(?: {2,}(\S.*))?$/.exec(line);
    if (head) {
      current = head[1]!;
      entries.set(current, head[2] ?? '');
    } else if (current !== undefined && /^ {3,}\S/.test(line)) {
      entries.set(current, `${entries.get(current)} ${line.trim()}`.trim());
    } else current = undefined;
  }
  return entries;
}
