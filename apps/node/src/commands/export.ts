/**
 * `ledger-node export FILE|-`: every ledger of the store the flags select, written as a ledger
 * stream (apps/ledger-store/src/transfer/format.ts) to FILE or stdout. The store is opened in this
 * process by the ledger-store's transfer module, offline.
 */
import { FlagError, type ParsedFlags } from '@ledger-node/config';
import { loadTransfer } from '../services';
import { reportFailure } from './transfer-errors';

export const exportHelp = `Usage: ledger-node export FILE|- [store flags] [-chain xrpl|jingtum]

Writes every ledger of a store to FILE (or to stdout with -), in ascending order: each ledger's
header, its transactions and their metadata, and the evidence that proved it when it has one (the
signed validations with the validator lists and manifests they were checked against), as a ledger
stream (format 1, docs/operating.md "Moving a store") that \`ledger-node import\` verifies and
stores.

The store is selected by the flags the node uses:
  -data_dir DIR [-database_name NAME]      RocksDB (default: .data in the working directory, node.db)
  -store postgres://[USER@]HOST[:PORT]/DB  PostgreSQL (or -store_read for a reader);
                                           password from -store_password_file, PGPASSWORD or PGPASSFILE
  -chain xrpl|jingtum                      the chain the store holds, recorded in the stream (default: xrpl)

export opens the store itself, offline: stop the node first. A RocksDB store in use by a running
node is refused (RocksDB admits one process), and export says so. A PostgreSQL store is only read,
as a -store_read reader reads it, whichever flag names it: export takes no lock, and may read a
replica, or the database while its ledger-store runs.

Not in the stream: the account state (the state download and each ledger's state changes) and
the account index. import derives the index again from the verified ledgers; the node's sync
downloads the account state once when it first runs on the imported store.

FILE is written as FILE.partial and renamed once complete; an existing FILE is refused.
Progress (ledgers done/total, ledgers/s) goes to stderr every few seconds.
Exit status: 0 exported; 1 the store could not be read; 2 bad arguments.
`;

export async function runExportCommand(rest: string[], flags: ParsedFlags): Promise<number> {
  const [destination, ...extra] = rest;
  if (destination === undefined) throw new FlagError('export needs the file to write (or - for stdout): ledger-node export FILE');
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see ledger-node export --help)`);
  const { runExport } = await loadTransfer();
  try {
    const totals = await runExport(flags, destination, { log: (line) => process.stderr.write(`${line}\n`) });
    process.stderr.write(`export: ${totals.ledgerCount} ledgers with ${totals.transactionCount} transactions written to ${destination === '-' ? 'stdout' : destination}\n`);
    return 0;
  } catch (error) {
    return reportFailure('export', error);
  }
}
