import { buildInfo } from '@ledger-node/telemetry';

/** `ledger-node version` and `ledger-node --version`: the build's version, its git commit and the Node.js that runs it. */
export function versionText(): string {
  const info = buildInfo();
  return `ledger-node ${info.version}\ncommit: ${info.commit}\nnode: ${info.nodeVersion} (${process.platform}-${process.arch})\n`;
}
