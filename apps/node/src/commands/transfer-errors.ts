/** How export and import end: bad arguments stop the CLI with exit 2 (main.ts); anything else is reported here with exit 1. */
import { FlagError } from '@ledger-node/config';
import { isLedgerNodeError } from '@ledger-node/errors';

/** Prints `<command>: <message>` on stderr and answers exit code 1; rethrows a bad-argument error for main.ts (exit 2). */
export function reportFailure(command: string, error: unknown): number {
  if (error instanceof FlagError || (isLedgerNodeError(error) && error.kind === 'invalid_params')) throw error;
  process.stderr.write(`${command}: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
