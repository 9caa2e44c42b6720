/**
 * The CLI entry this process runs: the bundle's ledger-node.mjs (the `ledger-node` command of a
 * checkout, which names the bundle in argv[1] before it loads it, and the container image), or
 * apps/node/bin/ledger-node-sources.js (the sources through tsx, as the tests run them). The
 * supervisor's services and `account`'s transient keystore are forked from it, so a child runs the
 * same code, the same way, as its parent. Only a process started as the CLI forks, so argv[1] is that entry.
 */
export function cliEntry(): string {
  const entry = process.argv[1];
  if (entry === undefined) throw new Error('ledger-node: no entry script in process.argv');
  return entry;
}
