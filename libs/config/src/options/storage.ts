import { integerFlag, stringFlag, type FlagGroup } from '../flag';
import { readSecretLine } from '../secrets';
import { shownStoreUrl, storeUrlProblem } from '../store';
import { fileCheck } from './shared';

export const storageOptions: FlagGroup = {
  title: 'Storage',
  flags: [
    stringFlag({
      name: 'store',
      description:
        'PostgreSQL database the ledger-store writes, instead of RocksDB in -data_dir: postgres://[USER@]HOST[:PORT]/DATABASE, or a primary and its standbys as libpq lists them, postgres://[USER@]HOST1:PORT1,HOST2:PORT2/DATABASE (writers use the host that is the writable primary, and find the new one after a failover) (password from -store_password_file or PGPASSWORD/PGPASSFILE, never in the URL); one ledger-store writes at a time, holding its writer lock, and a second waits as a standby and takes over; sync and submission given it are elected the same way, each by a lock of its own',
      default: undefined,
      defaultLabel: 'RocksDB in -data_dir/-database_name',
      valueName: 'URL',
      check: storeUrlProblem,
      shown: shownStoreUrl,
    }),
    stringFlag({
      name: 'store_read',
      description:
        'PostgreSQL database (typically a replica) this ledger-store only reads: it takes no writes and reports the ledgers that database holds; given several hosts (HOST1:PORT1,HOST2:PORT2), it reads the first its target_session_attrs admits (any, the default; read-write, read-only, primary, standby, prefer-standby)',
      default: undefined,
      defaultLabel: 'none',
      valueName: 'URL',
      check: storeUrlProblem,
      shown: shownStoreUrl,
    }),
    integerFlag({
      name: 'ledger_history',
      description:
        'Newest ledgers the ledger-store keeps (RocksDB only): the lowest are removed in the background, a small batch at a time, and sync backfills no lower than the tip minus N plus one; 0 keeps every ledger',
      default: 0,
      defaultLabel: '0 (every ledger)',
      min: 0,
      max: 4_294_967_295,
      valueName: 'N',
    }),
    stringFlag({
      name: 'store_password_file',
      description: 'File whose first line is the password for -store or -store_read (mode 0600 or 0400)',
      default: undefined,
      defaultLabel: 'PGPASSWORD or PGPASSFILE',
      valueName: 'FILE',
      // Its permission bits are checked where it is read (-secret_group_read may come later on the command line).
      check: fileCheck((file) => readSecretLine(file, 'store_password_file')),
    }),
  ],
};
