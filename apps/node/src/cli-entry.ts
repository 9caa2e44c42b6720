/**
 * The CLI entry this process runs: apps/node/bin/ledger-node.js from the sources, the bundle's
 * ledger-node.mjs in the image (or the `ledger-node` link to either). The supervisor's services
 * and `account`'s transient keystore are forked from it, so a child runs the same code, the same
 * way, as its parent. Only a process started as the CLI forks, so argv[1] is that entry.
 */
export function cliEntry(): string {
  const entry = process.argv[1];
  if (entry === undefined) throw new Error('ledger-node: no entry script in process.argv');
  return entry;
}
