/**
 * `ledger-node import FILE`: a ledger stream written by `ledger-node export`, every ledger verified
 * (as sync verifies what it fetches) before it is stored in the store the flags select. The store
 * is opened in this process by the ledger-store's transfer module, offline.
 */
import { FlagError, type ParsedFlags } from '@ledger-node/config';
import { loadTransfer } from '../services';
import { reportFailure } from './transfer-errors';

export const importHelp = `Usage: ledger-node import FILE [store flags] [trust flags] [-chain xrpl|jingtum]

Stores the ledgers of a ledger stream written by \`ledger-node export\`, each verified before it is
written, as sync verifies the ledgers it fetches: the header's hash recomputed from its fields,
every transaction's hash from its blob, the transaction tree root from the transactions and their
metadata, each ledger's parent_hash equal to the hash of the ledger before it (in the stream, or
already in the store) and its hash to the parent_hash of a child already in the store; a ledger's
evidence, when the stream carries it, must be that ledger's (each validation a full one of its hash
and index, each list holding the sequence it names) and is stored with it. The account index is
derived again from the verified transactions with sync's indexer.

Every ledger must also be proven the network's, as sync proves what it stores. A run of the stream
(ledgers each the parent of the next) is proven from its highest ledger that carries evidence
downwards: the validations kept with it must verify and reach the quorum of the validators trusted
(the lists of the -validator_list_keys publishers the evidence carries, judged at the ledger's close
time, or the -validators keys; rippled's 80% quorum). A ledger the store holds identically, or
whose child in the store names it as its parent, proves itself and the run below it. Ledgers above
all proof (no evidence, a publisher not trusted, too few validations; a stream from a node that
proved ledgers by agreeing endpoints carries no evidence) are stored unproven, named with the
reason: no read serves them, and they are not exported, until sync, following the network, writes
the ledger above them (which proves them, through the parent links, or removes those it
contradicts). A validation that does not verify refuses the stream.

Trust flags, as the node reads them:
  -validator_list_keys KEY[,KEY]  the publishers trusted (default: the network's, as for sync)
  -validators FILE                validator keys trusted beside any list (a private network)
  -network_id N                   the network whose default publishers are trusted

FILE is read twice: first every ledger is verified and checked against the store, with nothing
written; then each ledger the store does not hold is written, one atomic batch per ledger. A
ledger that does not verify, forged evidence, a cut or corrupt stream, a stream of another chain
than -chain, or a store holding another ledger at one of the stream's indexes stops the import
before anything is written, with an error naming the ledger and what did not match (exit 1). Ledgers the store
already holds identically are skipped: an interrupted import resumes when run again.

The target store is selected by the flags the node uses:
  -data_dir DIR [-database_name NAME]      RocksDB (default: .data in the working directory, node.db)
  -store postgres://[USER@]HOST[:PORT]/DB  PostgreSQL (the writer; -store_read is refused);
                                           password from -store_password_file, PGPASSWORD or PGPASSFILE
  -chain xrpl|jingtum                      must be the stream's chain (default: xrpl)

import opens the store itself, offline: stop the node first. A RocksDB store in use is refused; a
PostgreSQL store is written as its ledger-store writer would, holding the database's writer lock:
a database whose lock a running ledger-store holds is refused at once, a ledger-store started
during the import waits as a standby, and an import that loses the lock stops writing at once.
The stream carries no account state: the node's sync downloads it once when it first runs on the
store, then proves it through the imported history (docs/operating.md "Moving a store").

Progress (ledgers done/total, ledgers/s) goes to stderr every few seconds.
Exit status: 0 imported; 1 the stream was refused or the store could not be written; 2 bad arguments.
`;

export async function runImportCommand(rest: string[], flags: ParsedFlags): Promise<number> {
  const [file, ...extra] = rest;
  if (file === undefined) throw new FlagError('import needs the file to read: ledger-node import FILE');
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see ledger-node import --help)`);
  const { runImport } = await loadTransfer();
  try {
    const summary = await runImport(flags, file, { log: (line) => process.stderr.write(`${line}\n`) });
    const unindexed = summary.unindexedTransactions > 0 ? `; ${summary.unindexedTransactions} transactions stored without account index data (fields this release does not know)` : '';
    process.stderr.write(
      `import: ${summary.ledgerCount} ledgers verified: ${summary.written} written, ${summary.alreadyStored} already stored (skipped); ${summary.transactionCount} transactions${unindexed}\n`,
    );
    for (const { first, last, reason } of summary.unproven) {
      process.stderr.write(
        `import: ${first === last ? `ledger ${first} is` : `ledgers ${first}-${last} are`} stored unproven (${reason}): no read serves ${first === last ? 'it' : 'them'} ` +
          'until sync, following the network, proves them through a ledger that names the highest as its parent (or removes what it contradicts)\n',
      );
    }
    return 0;
  } catch (error) {
    return reportFailure('import', error);
  }
}
