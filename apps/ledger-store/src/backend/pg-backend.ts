/**
 * The LedgerStore backend over PostgreSQL (the `pg` client, one pool): one table per key bucket of
 * the key-value layout (schema in pg/, applied at open), the same semantics as KvLedgerBackend, and
 * every write one transaction: a ledger with all its rows and the bookkeeping after it, or nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { describeDatabase, loadPg, type DatabaseHost } from '@ledger-node/postgres';
import { StateChangeKind, type LedgerEvidence, type LedgerWrite, type StateObject, type StateObjectChange } from '@ledger-node/contracts';
import { Internal, isLedgerNodeError, Unavailable } from '@ledger-node/errors';
import type { KeyValue, KvOperation } from '../storage/kv';
import type { LedgerRange } from '../ledgers/ranges';
import { blockOf, firstLedgerOfBlock } from '../repositories/accounts';
import { StateMetaRepository } from '../repositories/stateObjects';
import { StoreMetaRepository } from '../repositories/storeMeta';
import { decodeEvidenceRecord, encodeEvidenceRecord, evidenceOf, evidenceRows } from '../repositories/evidence';
import {
  decodeTransactionGroup,
  decodeTransactionRecord,
  encodeTransactionGroups,
  groupHashes,
  type TransactionGroupRow,
  type TransactionRecordFields,
} from './transaction-record';
import type { AccountHistoryScan, Bookkeeping, LedgerBackend, RangesAfter } from './backend';
import {
  type ChainIdentity,
  accountSides,
  countersAfterAdding,
  countersAfterPruning,
  countersAfterRemoving,
  countersWithoutEvidence,
  countersWithNewVersions,
  hasPreviousImage,
  nftStatesOf,
  nftTransactionsOf,
  STATE_SET_ASIDE,
  sendersOf,
  type AccountTransactionEntry,
  type HistoryPosition,
  IndexDirection,
  type KeyedObject,
  type NftStateEntry,
  type StateDownloadRecord,
  type StateWindow,
  type StoreCounters,
  type StoredHeader,
  type StoredTransaction,
} from './records';

/**
 * The schema, one file per migration, applied in order at open and recorded in schema_migrations;
 * a released migration is never edited (a change is the next file). Each file is named here so
 * that the build copies it beside the bundle (tools/build/build.mjs).
 */
const MIGRATIONS: readonly { version: number; file: URL }[] = [
  { version: 1, file: new URL('./pg/001_initial.sql', import.meta.url) },
  { version: 2, file: new URL('./pg/002_evidence.sql', import.meta.url) },
  { version: 3, file: new URL('./pg/003_compact_transactions.sql', import.meta.url) },
  { version: 4, file: new URL('./pg/004_nfts.sql', import.meta.url) },
  { version: 5, file: new URL('./pg/005_account_numbers.sql', import.meta.url) },
  { version: 6, file: new URL('./pg/006_transaction_groups.sql', import.meta.url) },
];

/**
 * Ledgers per partition of the tables that grow with history (pg/001_initial.sql): about two
 * months of XRP Ledger history each (some 100 GB of transactions at mainnet's rate), small enough
 * to detach, archive or move one at a time. A database keeps the size it was created with.
 */
export const LEDGERS_PER_PARTITION = 1_000_000;
/** The tables of the store, each with its partitions (sizeOnDisk sums them). */
const STORE_TABLES = [
  'ledgers',
  'ledger_hashes',
  'transaction_hashes',
  'transaction_groups',
  'ledger_transactions',
  'accounts',
  'transaction_types',
  'account_ledger_entries',
  'account_sent_by_ledger',
  'account_sent_by_block',
  'state_versions',
  'trust_lines',
  'account_creations',
  'staged_state',
  'ledger_evidence',
  'validator_lists',
  'manifests',
  'nft_transactions',
  'nft_states',
  'store_meta',
  'schema_migrations',
];
/** The store_meta row that records the partitions' size (decimal ASCII). */
const PARTITION_SIZE_RECORD = 'ledgers_per_partition';
/** The store_meta row that records the host (`host:port` of its URL) the last writer wrote through (UTF-8). */
const WRITER_HOST_RECORD = 'writer_host';

const MAX_U32 = 0xffffffff;
/** Bytes of one entry of an account index row: tx index (u32), direction (u8), type number (u16). */
const ACCOUNT_ENTRY_BYTES = 7;
/** Account index entries read per query while a history scan runs (the scan stops when its caller does). */
const HISTORY_PAGE = 500;
/** NFT states read per query while a read looks for the newest proven one. */
const NFT_STATES_PAGE = 8;
/** Object keys looked at per query while a state listing fills its page (most exist: about one query per page). */
const LISTING_BATCH_MIN = 64;
/** The upper key bound of a listing with none: above every 32-byte key (a prefix sorts before its extensions). */
const ABOVE_EVERY_KEY = Buffer.alloc(33, 0xff);

/** Where a backend's new sessions go; `find` (a reader of several hosts) finds another host when this one fails. */
interface Route {
  config: pg.ClientConfig;
  name: string | undefined;
  find?: () => Promise<DatabaseHost>;
  finding?: Promise<void>;
}

/** A statement prepared once per connection under its name (pg prepares it at its first use there). */
interface Statement {
  readonly name: string;
  readonly text: string;
}

/**
 * The state lookup rule (repositories/stateObjects.ts) for the object whose key the SQL `key`
 * gives, at ledger Q = $3 in the window from low = $2 to the snapshot ledger $4: the newest version
 * in [low, Q], else the oldest in (Q, snapshot]. One row or none; a NULL blob is a tombstone.
 */
const lookupRule = (key: string) => `
  SELECT blob FROM (
    (SELECT blob, 0 AS preference FROM state_versions
      WHERE object_key = ${key} AND ledger_index >= $2 AND ledger_index <= $3 ORDER BY ledger_index DESC LIMIT 1)
    UNION ALL
    (SELECT blob, 1 AS preference FROM state_versions
      WHERE object_key = ${key} AND ledger_index > $3 AND ledger_index <= $4 ORDER BY ledger_index LIMIT 1)
  ) AS candidates ORDER BY preference LIMIT 1`;

/** The number of the account whose id the SQL `id` gives (no row: an account the index never named). */
const accountNumber = (id: string) => `SELECT account_number FROM accounts WHERE account_id = ${id}`;

/** The account index rows of account $1 in ledgers $2 to $3, inclusive, in ledger `order`, at most $4. */
const accountLedgers = (order: string) => `
  SELECT ledger_index, entries FROM account_ledger_entries
  WHERE account_number = (${accountNumber('$1')}) AND ledger_index >= $2 AND ledger_index <= $3
  ORDER BY ledger_index ${order} LIMIT $4`;

/** The condition that picks the group of ledger `ledger` holding tx index `txIndex` (the one with the greatest first tx index at or below it). */
const GROUP_AT = (ledger: string, txIndex: string) => `ledger_index = ${ledger} AND first_tx_index <= ${txIndex} ORDER BY first_tx_index DESC LIMIT 1`;

const SQL = {
  header: { name: 'header', text: 'SELECT ledger_index, header, ledger_hash, transaction_count FROM ledgers WHERE ledger_index = $1' },
  headers: { name: 'headers', text: 'SELECT ledger_index, header, ledger_hash, transaction_count FROM ledgers WHERE ledger_index = ANY($1::bigint[])' },
  headersBetween: {
    name: 'headers_between',
    text: 'SELECT ledger_index, header, ledger_hash, transaction_count FROM ledgers WHERE ledger_index >= $1 AND ledger_index <= $2 ORDER BY ledger_index LIMIT $3',
  },
  ledgerIndexOfHash: { name: 'ledger_index_of_hash', text: 'SELECT ledger_index FROM ledger_hashes WHERE ledger_hash = $1' },
  ledgerGroupHashes: { name: 'ledger_group_hashes', text: 'SELECT first_tx_index, hashes FROM transaction_groups WHERE ledger_index = $1 ORDER BY first_tx_index' },
  groupHashes: { name: 'group_hashes', text: `SELECT first_tx_index, hashes FROM transaction_groups WHERE ${GROUP_AT('$1', '$2')}` },
  // The groups that hold a transaction whose hash starts as one of $1 does, each once: per position
  // one index probe in the one partition it names (LIMIT keeps the lookup per position, so that no
  // plan scans every partition to hash-join them), then each group's row.
  transactionGroups: {
    name: 'transaction_groups',
    text: `WITH located AS (SELECT DISTINCT position FROM transaction_hashes WHERE hash_prefix = ANY($1::bigint[])),
      groups AS (
        SELECT DISTINCT found.ledger_index, found.first_tx_index FROM located CROSS JOIN LATERAL (
          SELECT ledger_index, first_tx_index FROM transaction_groups
          WHERE ${GROUP_AT('(located.position >> 32) + 2147483648', 'located.position & 4294967295')}
        ) AS found
      )
      SELECT groups.ledger_index, groups.first_tx_index, stored.hashes, stored.record FROM groups CROSS JOIN LATERAL (
        SELECT hashes, record FROM transaction_groups WHERE ledger_index = groups.ledger_index AND first_tx_index = groups.first_tx_index LIMIT 1
      ) AS stored`,
  },
  // Rows written before pg/006_transaction_groups.sql: read where no group holds what was asked.
  ungroupedHashes: { name: 'ungrouped_hashes', text: 'SELECT hash FROM ledger_transactions WHERE ledger_index = $1 ORDER BY tx_index' },
  ungroupedHashAt: { name: 'ungrouped_hash_at', text: 'SELECT hash FROM ledger_transactions WHERE ledger_index = $1 AND tx_index = $2' },
  ungroupedTransactions: {
    name: 'ungrouped_transactions',
    text: `SELECT stored.hash, stored.ledger_index, stored.tx_index, stored.engine_result, stored.transaction_type, stored.record, stored.plain_tx_blob, stored.plain_meta_blob
      FROM (SELECT DISTINCT position FROM transaction_hashes WHERE hash_prefix = ANY($1::bigint[])) AS located CROSS JOIN LATERAL (
        SELECT hash, ledger_index, tx_index, engine_result, transaction_type, record, plain_tx_blob, plain_meta_blob FROM ledger_transactions
        WHERE ledger_index = (located.position >> 32) + 2147483648 AND tx_index = located.position & 4294967295 LIMIT 1
      ) AS stored
      WHERE stored.hash = ANY($2::bytea[])`,
  },
  // An account's rows between two ledgers (inclusive): the account's number, then one index range in
  // its key; the ledger bounds let the planner skip partitions outside them, and the order by ledger
  // reads the partitions one after another, stopping at the limit.
  accountLedgersForward: { name: 'account_ledgers_forward', text: accountLedgers('') },
  accountLedgersBackward: { name: 'account_ledgers_backward', text: accountLedgers('DESC') },
  transactionTypes: { name: 'transaction_types', text: 'SELECT type_number, name FROM transaction_types' },
  nftHistoryForward: {
    name: 'nft_history_forward',
    text: `SELECT ledger_index, tx_index FROM nft_transactions
      WHERE nft_id = $1 AND (ledger_index, tx_index) >= ($2, $3) AND (ledger_index, tx_index) <= ($4, $5)
      ORDER BY ledger_index, tx_index LIMIT $6`,
  },
  nftHistoryBackward: {
    name: 'nft_history_backward',
    text: `SELECT ledger_index, tx_index FROM nft_transactions
      WHERE nft_id = $1 AND (ledger_index, tx_index) >= ($2, $3) AND (ledger_index, tx_index) <= ($4, $5)
      ORDER BY ledger_index DESC, tx_index DESC LIMIT $6`,
  },
  nftStatesAtOrBelow: {
    name: 'nft_states_at_or_below',
    text: `SELECT ledger_index, owner_account_id, burned, uri FROM nft_states WHERE nft_id = $1 AND ledger_index <= $2 ORDER BY ledger_index DESC LIMIT $3`,
  },
  sentUpTo: {
    name: 'sent_up_to',
    text: `WITH account AS (${accountNumber('$1')})
      SELECT ((SELECT coalesce(sum(sent), 0) FROM account_sent_by_block WHERE account_number = (SELECT account_number FROM account) AND block < $2)
      + (SELECT coalesce(sum(sent), 0) FROM account_sent_by_ledger WHERE account_number = (SELECT account_number FROM account) AND ledger_index >= $3 AND ledger_index <= $4))::bigint AS sent`,
  },
  accountCreatedAtOrBelow: {
    name: 'account_created_at_or_below',
    text: 'SELECT ledger_index FROM account_creations WHERE account_id = $1 AND ledger_index <= $2 ORDER BY ledger_index DESC LIMIT 1',
  },
  trustLineKeys: { name: 'trust_line_keys', text: 'SELECT object_key FROM trust_lines WHERE account_id = $1 ORDER BY object_key' },
  stateObjectAt: { name: 'state_object_at', text: lookupRule('$1') },
  // Each object key of the array $1 with its object at $3 (NULL: it does not exist there).
  stateObjectsByKey: {
    name: 'state_objects_by_key',
    text: `SELECT asked.object_key, found.blob
      FROM unnest($1::bytea[]) AS asked (object_key)
      LEFT JOIN LATERAL (${lookupRule('asked.object_key')}) AS found ON true`,
  },
  // The next object keys after $1 and below $6, each with its object at $3 (NULL: it does not exist there).
  stateObjectsAt: {
    name: 'state_objects_at',
    text: `SELECT keys.object_key, found.blob
      FROM (SELECT DISTINCT object_key FROM state_versions WHERE object_key > $1 AND object_key < $6 ORDER BY object_key LIMIT $5) AS keys
      LEFT JOIN LATERAL (${lookupRule('keys.object_key')}) AS found ON true
      ORDER BY keys.object_key`,
  },
  anyObjectBetween: { name: 'any_object_between', text: 'SELECT EXISTS (SELECT 1 FROM state_versions WHERE object_key > $1 AND object_key < $2) AS found' },
  stagedStateObjects: {
    name: 'staged_state_objects',
    text: 'SELECT object_key, blob FROM staged_state WHERE object_key > $1 AND object_key < $3 ORDER BY object_key LIMIT $2',
  },
  ledgerEvidence: { name: 'ledger_evidence', text: 'SELECT record FROM ledger_evidence WHERE ledger_index = $1' },
  evidencedBetween: { name: 'evidenced_between', text: 'SELECT ledger_index FROM ledger_evidence WHERE ledger_index >= $1 AND ledger_index <= $2 ORDER BY ledger_index' },
  // Each list (manifest) of the keys $1, $2, in the order asked; NULL for a key not stored.
  validatorLists: {
    name: 'validator_lists',
    text: `SELECT stored.document FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS asked (publisher_key, sequence, position)
      LEFT JOIN validator_lists AS stored ON stored.publisher_key = asked.publisher_key AND stored.sequence = asked.sequence ORDER BY asked.position`,
  },
  manifests: {
    name: 'manifests',
    text: `SELECT stored.manifest FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS asked (master_key, sequence, position)
      LEFT JOIN manifests AS stored ON stored.master_key = asked.master_key AND stored.sequence = asked.sequence ORDER BY asked.position`,
  },
  storeMeta: { name: 'store_meta', text: 'SELECT name, value FROM store_meta' },
  // The store's tables with their partitions, indexes and TOAST (not the catalogs, nor other schemas' tables).
  sizeOnDisk: {
    name: 'size_on_disk',
    text: `SELECT coalesce(sum(pg_total_relation_size(tree.relid)), 0)::bigint AS bytes
      FROM unnest($1::text[]) AS tables (name), pg_partition_tree(to_regclass(quote_ident(tables.name))) AS tree`,
  },
  partitionSize: { name: 'partition_size', text: `SELECT convert_from(value, 'UTF8')::bigint AS ledgers FROM store_meta WHERE name = '${PARTITION_SIZE_RECORD}'` },

  // ---- writes: one statement per table per write, its rows as arrays ----

  coverPartitions: { name: 'cover_partitions', text: 'SELECT ledger_partitions_cover($1, $2, $3)' },
  // Above the epoch every earlier writer raised, on this server or on a primary whose last raises a
  // standby promoted since never received: the clock's microseconds, never reached again by an
  // earlier writer's epoch + 1.
  raiseWriterEpoch: {
    name: 'raise_writer_epoch',
    text: `UPDATE writer_epoch SET epoch = greatest(epoch + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) WHERE id = 1 RETURNING epoch::text AS epoch`,
  },
  // The host the writer before wrote through, replaced by this one's ('' when unknown).
  swapWriterHost: {
    name: 'swap_writer_host',
    text: `WITH previous AS (SELECT convert_from(value, 'UTF8') AS host FROM store_meta WHERE name = '${WRITER_HOST_RECORD}'),
      recorded AS (INSERT INTO store_meta (name, value) VALUES ('${WRITER_HOST_RECORD}', convert_to($1::text, 'UTF8')) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value)
      SELECT (SELECT host FROM previous) AS host`,
  },
  checkWriter: { name: 'check_writer', text: 'SELECT ledger_writer_check($1)' },
  putLedger: {
    name: 'put_ledger',
    text: `INSERT INTO ledgers (ledger_index, ledger_hash, header, transaction_count) VALUES ($1, $2, $3, $4)
      ON CONFLICT (ledger_index) DO UPDATE SET ledger_hash = EXCLUDED.ledger_hash, header = EXCLUDED.header, transaction_count = EXCLUDED.transaction_count`,
  },
  putLedgerEvidence: {
    name: 'put_ledger_evidence',
    text: 'INSERT INTO ledger_evidence (ledger_index, record) VALUES ($1, $2) ON CONFLICT (ledger_index) DO UPDATE SET record = EXCLUDED.record',
  },
  // A list or manifest is stored once: the same key is the same signed document.
  putValidatorLists: {
    name: 'put_validator_lists',
    text: `INSERT INTO validator_lists (publisher_key, sequence, document) SELECT * FROM unnest($1::bytea[], $2::bigint[], $3::bytea[]) ON CONFLICT (publisher_key, sequence) DO NOTHING`,
  },
  putManifests: {
    name: 'put_manifests',
    text: `INSERT INTO manifests (master_key, sequence, manifest) SELECT * FROM unnest($1::bytea[], $2::bigint[], $3::bytea[]) ON CONFLICT (master_key, sequence) DO NOTHING`,
  },
  putLedgerHash: {
    name: 'put_ledger_hash',
    text: 'INSERT INTO ledger_hashes (ledger_hash, ledger_index) VALUES ($1, $2) ON CONFLICT (ledger_hash) DO UPDATE SET ledger_index = EXCLUDED.ledger_index',
  },
  putTransactionGroups: {
    name: 'put_transaction_groups',
    text: `INSERT INTO transaction_groups (ledger_index, first_tx_index, hashes, record)
      SELECT $1, first_tx_index, hashes, record FROM unnest($2::bigint[], $3::bytea[], $4::bytea[]) AS rows (first_tx_index, hashes, record)
      ON CONFLICT (ledger_index, first_tx_index) DO UPDATE SET hashes = EXCLUDED.hashes, record = EXCLUDED.record`,
  },
  putTransactionHashes: {
    name: 'put_transaction_hashes',
    text: `INSERT INTO transaction_hashes (hash_prefix, position) SELECT hash_prefix, ledger_position($2, tx_index) FROM unnest($1::bigint[], $3::bigint[]) AS rows (hash_prefix, tx_index)
      ON CONFLICT (hash_prefix, position) DO NOTHING`,
  },
  // The numbers of accounts and transaction types not numbered yet (before the rows that name them).
  putAccounts: {
    name: 'put_accounts',
    text: `INSERT INTO accounts (account_id) SELECT DISTINCT asked.account_id FROM unnest($1::bytea[]) AS asked (account_id)
      WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.account_id = asked.account_id) ORDER BY 1 ON CONFLICT (account_id) DO NOTHING`,
  },
  putTransactionTypes: {
    name: 'put_transaction_types',
    text: `INSERT INTO transaction_types (name) SELECT DISTINCT asked.name FROM unnest($1::text[]) AS asked (name)
      WHERE asked.name <> '' AND NOT EXISTS (SELECT 1 FROM transaction_types AS types WHERE types.name = asked.name) ORDER BY 1 ON CONFLICT (name) DO NOTHING`,
  },
  putAccountTransactions: {
    name: 'put_account_transactions',
    text: `INSERT INTO account_ledger_entries (account_number, ledger_index, entries)
      SELECT accounts.account_number, $2, string_agg(account_entry(rows.tx_index, rows.direction, types.type_number), ''::bytea ORDER BY rows.tx_index)
      FROM unnest($1::bytea[], $3::bigint[], $4::smallint[], $5::text[]) AS rows (account_id, tx_index, direction, transaction_type)
        JOIN accounts ON accounts.account_id = rows.account_id
        LEFT JOIN transaction_types AS types ON types.name = rows.transaction_type
      GROUP BY accounts.account_number
      ON CONFLICT (account_number, ledger_index) DO UPDATE SET entries = EXCLUDED.entries`,
  },
  putNftTransactions: {
    name: 'put_nft_transactions',
    text: `INSERT INTO nft_transactions (nft_id, ledger_index, tx_index) SELECT nft_id, $2, tx_index FROM unnest($1::bytea[], $3::bigint[]) AS rows (nft_id, tx_index)
      ON CONFLICT (nft_id, ledger_index, tx_index) DO NOTHING`,
  },
  putNftStates: {
    name: 'put_nft_states',
    text: `INSERT INTO nft_states (nft_id, ledger_index, owner_account_id, burned, uri)
      SELECT nft_id, $2, owner_account_id, burned, uri FROM unnest($1::bytea[], $3::bytea[], $4::boolean[], $5::bytea[]) AS rows (nft_id, owner_account_id, burned, uri)
      ON CONFLICT (nft_id, ledger_index) DO UPDATE SET owner_account_id = EXCLUDED.owner_account_id, burned = EXCLUDED.burned, uri = EXCLUDED.uri`,
  },
  putSent: {
    name: 'put_sent',
    text: `INSERT INTO account_sent_by_ledger (account_number, ledger_index, sent)
      SELECT accounts.account_number, $2, rows.sent FROM unnest($1::bytea[], $3::bigint[]) AS rows (account_id, sent) JOIN accounts ON accounts.account_id = rows.account_id
      ON CONFLICT (account_number, ledger_index) DO UPDATE SET sent = EXCLUDED.sent`,
  },
  addSentToBlocks: {
    name: 'add_sent_to_blocks',
    text: `INSERT INTO account_sent_by_block (account_number, block, sent)
      SELECT accounts.account_number, $2, rows.sent FROM unnest($1::bytea[], $3::bigint[]) AS rows (account_id, sent) JOIN accounts ON accounts.account_id = rows.account_id
      ON CONFLICT (account_number, block) DO UPDATE SET sent = account_sent_by_block.sent + EXCLUDED.sent`,
  },
  // Of the keys $1, those with a version at ledger $2; of the keys $3, those with one at the ledger before.
  versionsStoredAt: {
    name: 'versions_stored_at',
    text: `SELECT (SELECT count(*) FROM state_versions WHERE ledger_index = $2 AND object_key = ANY($1::bytea[])) AS stored,
      (SELECT count(*) FROM state_versions WHERE ledger_index = $2 - 1 AND object_key = ANY($3::bytea[])) AS stored_before`,
  },
  putVersions: {
    name: 'put_versions',
    text: `INSERT INTO state_versions (object_key, ledger_index, blob) SELECT object_key, $2, blob FROM unnest($1::bytea[], $3::bytea[]) AS rows (object_key, blob)
      ON CONFLICT (object_key, ledger_index) DO UPDATE SET blob = EXCLUDED.blob`,
  },
  // A before-image is never written over a version stored at its ledger (that ledger's own after-image).
  putVersionsUnlessStored: {
    name: 'put_versions_unless_stored',
    text: `INSERT INTO state_versions (object_key, ledger_index, blob) SELECT object_key, $2, blob FROM unnest($1::bytea[], $3::bytea[]) AS rows (object_key, blob)
      ON CONFLICT (object_key, ledger_index) DO NOTHING`,
  },
  putTrustLines: {
    name: 'put_trust_lines',
    text: `INSERT INTO trust_lines (account_id, object_key) SELECT * FROM unnest($1::bytea[], $2::bytea[]) ON CONFLICT (account_id, object_key) DO NOTHING`,
  },
  putAccountCreations: {
    name: 'put_account_creations',
    text: `INSERT INTO account_creations (account_id, ledger_index) SELECT account_id, $2 FROM unnest($1::bytea[]) AS rows (account_id)
      ON CONFLICT (account_id, ledger_index) DO NOTHING`,
  },
  putStoreMeta: {
    name: 'put_store_meta',
    text: `INSERT INTO store_meta (name, value) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
  },
  deleteLedger: { name: 'delete_ledger', text: 'DELETE FROM ledgers WHERE ledger_index = $1' },
  deleteLedgerEvidence: { name: 'delete_ledger_evidence', text: 'DELETE FROM ledger_evidence WHERE ledger_index = $1' },
  deleteLedgerHash: { name: 'delete_ledger_hash', text: 'DELETE FROM ledger_hashes WHERE ledger_hash = $1 AND ledger_index = $2' },
  // A hash lookup belongs to the ledger that holds its transaction (the same hash in another ledger is another row).
  deleteTransactionHashes: {
    name: 'delete_transaction_hashes',
    text: `DELETE FROM transaction_hashes AS located USING unnest($1::bigint[], $3::bigint[]) AS gone (hash_prefix, tx_index)
      WHERE located.hash_prefix = gone.hash_prefix AND located.position = ledger_position($2, gone.tx_index)`,
  },
  deleteTransactionGroups: { name: 'delete_transaction_groups', text: 'DELETE FROM transaction_groups WHERE ledger_index = $1' },
  deleteLedgerTransactions: { name: 'delete_ledger_transactions', text: 'DELETE FROM ledger_transactions WHERE ledger_index = $1' },
  deleteAccountTransactions: {
    name: 'delete_account_transactions',
    text: `DELETE FROM account_ledger_entries AS entries USING accounts
      WHERE accounts.account_id = ANY($1::bytea[]) AND entries.account_number = accounts.account_number AND entries.ledger_index = $2`,
  },
  deleteNftTransactions: {
    name: 'delete_nft_transactions',
    text: `DELETE FROM nft_transactions AS entries USING unnest($1::bytea[], $3::bigint[]) AS gone (nft_id, tx_index)
      WHERE entries.nft_id = gone.nft_id AND entries.ledger_index = $2 AND entries.tx_index = gone.tx_index`,
  },
  deleteNftStates: { name: 'delete_nft_states', text: 'DELETE FROM nft_states WHERE nft_id = ANY($1::bytea[]) AND ledger_index = $2' },
  deleteSent: {
    name: 'delete_sent',
    text: 'DELETE FROM account_sent_by_ledger WHERE account_number IN (SELECT account_number FROM accounts WHERE account_id = ANY($1::bytea[])) AND ledger_index = $2',
  },
  subtractSentFromBlocks: {
    name: 'subtract_sent_from_blocks',
    text: `UPDATE account_sent_by_block AS blocks SET sent = greatest(0, blocks.sent - gone.sent)
      FROM unnest($1::bytea[], $3::bigint[]) AS gone (account_id, sent) JOIN accounts ON accounts.account_id = gone.account_id
      WHERE blocks.account_number = accounts.account_number AND blocks.block = $2`,
  },
  putStaged: {
    name: 'put_staged',
    text: `INSERT INTO staged_state (object_key, blob) SELECT * FROM unnest($1::bytea[], $2::bytea[]) ON CONFLICT (object_key) DO UPDATE SET blob = EXCLUDED.blob`,
  },
  clearStaged: { name: 'clear_staged', text: 'DELETE FROM staged_state' },
  clearStateVersions: { name: 'clear_state_versions', text: 'DELETE FROM state_versions' },
  clearAccountCreations: { name: 'clear_account_creations', text: 'DELETE FROM account_creations' },
  stagedNotStoredAt: {
    name: 'staged_not_stored_at',
    text: `SELECT count(*) AS new_versions FROM staged_state AS staged
      WHERE NOT EXISTS (SELECT 1 FROM state_versions AS stored WHERE stored.object_key = staged.object_key AND stored.ledger_index = $1)`,
  },
  promoteStaged: {
    name: 'promote_staged',
    text: `INSERT INTO state_versions (object_key, ledger_index, blob) SELECT object_key, $1, blob FROM staged_state
      ON CONFLICT (object_key, ledger_index) DO UPDATE SET blob = EXCLUDED.blob`,
  },
} satisfies Record<string, Statement>;

interface HeaderRow {
  ledger_index: string;
  header: Buffer;
  ledger_hash: Buffer;
  transaction_count: string;
}

interface GroupHashesRow {
  first_tx_index: string;
  hashes: Buffer;
}

interface GroupRow extends GroupHashesRow {
  ledger_index: string;
  record: Buffer;
}

/** A row of ledger_transactions (written before pg/006_transaction_groups.sql). */
interface UngroupedRow {
  hash: Buffer;
  ledger_index: string;
  tx_index: string;
  /** Written since pg/003_compact_transactions.sql: the rest of the transaction (transaction-record.ts). */
  record: Buffer | null;
  /** Written before it. */
  engine_result: string | null;
  transaction_type: string | null;
  plain_tx_blob: Buffer | null;
  plain_meta_blob: Buffer | null;
}

/** A row's result, type, blob and metadata: from its record, or (written before pg/003_compact_transactions.sql) its columns. */
function recordOf(row: UngroupedRow, location: string): TransactionRecordFields {
  if (row.record !== null) return decodeTransactionRecord(row.record, `transaction ${row.hash.toString('hex').toUpperCase()} in ${location}`);
  const { engine_result: engineResult, transaction_type: transactionType, plain_tx_blob: txBlob, plain_meta_blob: metaBlob } = row;
  if (engineResult === null || transactionType === null || txBlob === null || metaBlob === null) {
    throw new Internal(`transaction ${row.hash.toString('hex').toUpperCase()} in ${location} has neither a record nor its columns`);
  }
  return { engineResult, transactionType, txBlob, metaBlob };
}

const headerOf = (row: HeaderRow): StoredHeader => ({
  ledgerIndex: Number(row.ledger_index),
  header: row.header,
  ledgerHash: row.ledger_hash,
  transactionCount: Number(row.transaction_count),
});

/**
 * The rows of an overwriting put, the last of each key kept: a key-value batch applies puts in
 * order, and one INSERT … ON CONFLICT DO UPDATE may not touch a row twice.
 */
function lastPerKey<Row>(rows: readonly Row[], keyOf: (row: Row) => Buffer): Row[] {
  return [...new Map(rows.map((row) => [keyOf(row).toString('hex'), row])).values()];
}

/** A tombstone (no bytes) is NULL. */
const blobOrNull = (blob: Buffer | undefined): Buffer | null => (blob === undefined || blob.length === 0 ? null : blob);

// ---- bookkeeping: store_meta rows in the key-value layout's record encoding ----

/** A bookkeeping record's row name: its key's name (storage/buckets.ts namedKey: the bucket byte, then the ASCII name). */
const metaName = (key: Buffer) => key.subarray(1).toString('ascii');

/**
 * The repositories that encode and decode the bookkeeping records, over the store_meta rows read
 * (a record is read by its key; nothing else is asked), so that the encodings stay defined once.
 */
function metaRecords(rows: ReadonlyMap<string, Buffer>): { storeMeta: StoreMetaRepository; stateMeta: StateMetaRepository } {
  const byNameOnly = (): never => {
    throw new Internal('store_meta rows are read by name only');
  };
  const records: KeyValue = {
    get: async (key) => rows.get(metaName(key)),
    getMany: async (keys) => keys.map((key) => rows.get(metaName(key))),
    batch: byNameOnly,
    entries: byNameOnly,
    sizeOnDisk: byNameOnly,
    close: async () => undefined,
  };
  return { storeMeta: new StoreMetaRepository(records), stateMeta: new StateMetaRepository(records) };
}

/** The encoders of the bookkeeping records (they read nothing). */
const META = metaRecords(new Map());

function metaRow(operation: KvOperation): { name: string; value: Buffer } {
  if (operation.type !== 'put') throw new Internal('a bookkeeping record is put, never deleted');
  return { name: metaName(operation.key), value: operation.value };
}

// ---- errors and names ----

/**
 * A failure as the caller should hear it: a full disk, or a server that cannot be reached or
 * ended the session, is Unavailable (retried; it passes once the operator fixed it); anything
 * else is passed on as it is. Messages name the store by its location, which holds no password.
 */
function storeFailure(error: unknown, location: string): unknown {
  if (isLedgerNodeError(error) || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  // A write on a host that is a standby now, or was made read-only: the primary is elsewhere.
  if (code === '25006') return new Unavailable(`${location} takes no writes on this host any more (a standby, or read-only): ${error.message}`);
  if (code === '53100') return new Unavailable(`disk full: ${location} cannot write (${error.message})`);
  if (code === 'LN001') return new Unavailable(`${location}: ${error.message}; this ledger-store no longer writes`);
  const unreachable =
    (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P') || ['53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code))) ||
    /Connection terminated|not queryable|timeout exceeded when trying to connect/i.test(error.message);
  return unreachable ? new Unavailable(`${location} cannot be reached: ${error.message}`) : error;
}

/** `the PostgreSQL database at postgres://user:***@host:port/name`: the target, never its password. */
export function describeTarget(connection: pg.PoolConfig | string): string {
  const target = typeof connection === 'string' ? connection : connection.connectionString;
  if (target !== undefined) return describeDatabase(target);
  const { user = '', password, host = 'localhost', port = 5432, database = user } = connection as pg.PoolConfig;
  const credentials = `${user}${password === undefined ? '' : ':***'}`;
  return `the PostgreSQL database at postgres://${credentials}${credentials ? '@' : ''}${host}:${port}/${database}`;
}

export class PgLedgerBackend implements LedgerBackend {
  private closed: Promise<void> | undefined;
  /** The writer epoch this process raised (fence); undefined until it did. */
  private writerEpoch: string | undefined;
  /** First ledgers of the partitions this process has written or created (each table has them all). */
  private readonly knownPartitions = new Set<number>();

  /** Transaction type names by number (transaction_types), as far as this process has read them. */
  private readonly typeNames = new Map<number, string>();

  /** The host the previous writer wrote through (store_meta `writer_host`) when this one fenced, if another than this one's. */
  private movedFrom: string | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
    /** The database's partition size (store_meta `ledgers_per_partition`). */
    readonly ledgersPerPartition: number,
    /** Where new sessions go: the host found at open, or (a reader that may move) found again since. */
    private readonly route: Route,
  ) {}

  /** The host this backend's sessions go to (`host:port`), when known. */
  get host(): string | undefined {
    return this.route.name;
  }

  /**
   * A reader whose host cannot be reached looks for another among its database's hosts (once at a
   * time): its next sessions go there. A writer never moves (its sessions stay where its lock is).
   */
  private rerouteAfter(failure: unknown): void {
    const { route } = this;
    if (route.find === undefined || route.finding || !(failure instanceof Unavailable) || /disk full/.test(failure.message)) return;
    route.finding = route
      .find()
      .then((host) => {
        route.config = host.config;
        route.name = host.name;
      })
      .catch(() => undefined)
      .finally(() => (route.finding = undefined));
  }

  /**
   * The host the writer before this one wrote through, when it was another than this one's (the
   * database's primary moved: a failover), as this process's fence found it; else undefined.
   */
  get primaryMovedFrom(): string | undefined {
    return this.movedFrom;
  }

  /**
   * Connects and brings the schema up to date (the migrations not yet applied, in order, under an
   * advisory lock: several processes may open one database at once). With `readOnly` (a reader,
   * typically on a replica) nothing is migrated or written: the schema must be there, every
   * session refuses writes. A database that cannot be reached, migrated or read is refused with the
   * reason, the pool ended. `ledgersPerPartition` (tests) sizes a new database's partitions; a
   * database created with another size is refused.
   */
  static async open(
    connection: pg.PoolConfig | string,
    location = describeTarget(connection),
    options: {
      readOnly?: boolean;
      ledgersPerPartition?: number;
      /** The host `connection` names (`host:port`). */
      host?: string;
      /** A reader of several hosts: finds one again when this one cannot be reached. */
      findHost?: () => Promise<DatabaseHost>;
    } = {},
  ): Promise<PgLedgerBackend> {
    const { ledgersPerPartition } = options;
    if (ledgersPerPartition !== undefined && !(Number.isSafeInteger(ledgersPerPartition) && ledgersPerPartition > 0)) {
      throw new Internal(`ledgersPerPartition must be a positive integer, not ${ledgersPerPartition}`);
    }
    // Pipelined: a write's statements go out together (Pipeline below).
    const config: pg.PoolConfig = { ...(typeof connection === 'string' ? { connectionString: connection } : connection), pipeline: true };
    // The server itself refuses a reader's writes: each of its sessions starts read-only.
    if (options.readOnly) config.options = [config.options, '-c default_transaction_read_only=on'].filter(Boolean).join(' ');
    const { Client, Pool } = await loadPg();
    const route: Route = { config: typeof connection === 'string' ? {} : connection, name: options.host, find: options.readOnly ? options.findHost : undefined };
    // Each new session connects to the route's host as it is then (a reader's moves after a failure).
    if (route.find !== undefined) {
      config.Client = class extends Client {
        constructor(settings: pg.ClientConfig) {
          // The pool keeps the password as a property a spread does not copy.
          super({ ...settings, password: settings.password, host: route.config.host, port: route.config.port });
        }
      } as unknown as pg.PoolConfig['Client'];
    }
    const pool = new Pool(config);
    // An idle connection that breaks (the server restarted, an administrator ended it) leaves the
    // pool by itself and the next query opens another; unheard, its error would end the process.
    pool.on('error', () => undefined);
    let partitionSize: number | void;
    try {
      partitionSize = await inTransaction<number | void>(pool, options.readOnly ? PgLedgerBackend.requireSchema : (client) => migrate(client, ledgersPerPartition));
    } catch (error) {
      await pool.end();
      throw new Error(`cannot open ${location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    // A reader creates no partitions: the size is the writer's business.
    return new PgLedgerBackend(pool, location, partitionSize ?? LEDGERS_PER_PARTITION, route);
  }

  /**
   * Runs `work`'s statements in one transaction, pipelined: committed whole once every statement
   * succeeded, or rolled back and thrown as the caller should hear it.
   */
  private async transaction<T>(work: (pipeline: Pipeline) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const pipeline = new Pipeline(client);
        if (this.writerEpoch !== undefined) pipeline.query(SQL.checkWriter, [this.writerEpoch]);
        let result: T;
        try {
          result = await work(pipeline);
        } catch (error) {
          // A statement `work` awaited failed: the first that failed says why (the rest were aborted).
          await pipeline.answered();
          throw error;
        }
        await pipeline.answered();
        return result;
      });
    } catch (error) {
      throw storeFailure(error, this.location);
    }
  }

  /**
   * A write of rows at `ledgerIndex` (and before-images at the ledger before it): the partitions
   * holding them are created first in the same transaction where this process has not seen them
   * yet, so that a write rolled back leaves none behind.
   */
  /**
   * Makes this process the writer of the database (it holds the writer lock): raises the writer
   * epoch, after any write of an earlier writer still in flight, and checks it in each write from
   * now on, so that no write of an earlier writer lands after this one read the bookkeeping.
   */
  async fence(): Promise<void> {
    this.writerEpoch = undefined;
    const host = this.host ?? '';
    const { epoch, previousHost } = await this.transaction(async (pipeline) => {
      const raised = pipeline.query<{ epoch: string }>(SQL.raiseWriterEpoch, []);
      const previous = pipeline.query<{ host: string | null }>(SQL.swapWriterHost, [host]);
      return { epoch: (await raised).rows[0]!.epoch, previousHost: (await previous).rows[0]?.host ?? undefined };
    });
    this.writerEpoch = epoch;
    this.movedFrom = previousHost !== undefined && previousHost !== '' && host !== '' && previousHost !== host ? previousHost : undefined;
  }

  private async writeCovering<T>(ledgerIndexes: readonly number[], work: (pipeline: Pipeline) => Promise<T>): Promise<T> {
    const first = Math.max(0, Math.min(...ledgerIndexes) - 1);
    const last = Math.max(...ledgerIndexes);
    const partitions: number[] = [];
    for (let partition = first - (first % this.ledgersPerPartition); partition <= last; partition += this.ledgersPerPartition) partitions.push(partition);
    const missing = partitions.some((partition) => !this.knownPartitions.has(partition));
    const result = await this.transaction((pipeline) => {
      if (missing) pipeline.query(SQL.coverPartitions, [first, last, this.ledgersPerPartition]);
      return work(pipeline);
    });
    // Committed: they exist.
    for (const partition of partitions) this.knownPartitions.add(partition);
    return result;
  }

  private async read<Row extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>({ ...statement, values })).rows;
    } catch (error) {
      const failure = storeFailure(error, this.location);
      this.rerouteAfter(failure);
      throw failure;
    }
  }

  async bookkeeping(): Promise<Bookkeeping> {
    const rows = await this.read<{ name: string; value: Buffer }>(SQL.storeMeta, []);
    const { storeMeta, stateMeta } = metaRecords(new Map(rows.map((row) => [row.name, row.value])));
    const [formatVersion, completeRanges, unprovenRanges, counters, stateRanges, download, chainIdentity] = await Promise.all([
      storeMeta.formatVersion(),
      storeMeta.ranges(),
      storeMeta.unprovenRanges(),
      storeMeta.counters(),
      stateMeta.stateRanges(),
      stateMeta.download(),
      storeMeta.chainIdentity(),
    ]);
    return { formatVersion, completeRanges, unprovenRanges, counters, stateRanges, download, chainIdentity };
  }

  recordFormatVersion(version: number): Promise<void> {
    return this.transaction(async (pipeline) => putMeta(pipeline, [META.storeMeta.formatVersionOperation(version)]));
  }

  recordChainIdentity(identity: ChainIdentity): Promise<void> {
    return this.transaction(async (pipeline) => putMeta(pipeline, [META.storeMeta.chainIdentityOperation(identity)]));
  }

  // ---- writes ----

  async addLedgers(writes: readonly LedgerWrite[], after: RangesAfter & { stateRanges?: LedgerRange[] }, counters: StoreCounters): Promise<StoreCounters> {
    // Compressed before the transaction opens: its connection is not held meanwhile.
    const groups = await Promise.all(writes.map((write) => encodeTransactionGroups(write.transactions)));
    return this.writeCovering(
      writes.map((write) => write.ledgerIndex),
      async (pipeline) => {
        // Each ledger's account index entries and senders, worked out once for every statement that needs them.
        const entries = writes.map(accountEntriesOf);
        const senders = writes.map(sendersOf);
        putNumbers(pipeline, writes, entries.flat());
        // Statements run in order in one transaction: each ledger's version count sees the rows of those before it.
        const newVersions = writes.map((write, position) => {
          const counted = countNewVersions(pipeline, write.ledgerIndex, write.stateChanges);
          putLedgerRows(pipeline, write, { groups: groups[position]!, entries: entries[position]!, senders: senders[position]! });
          putStateChanges(pipeline, write.ledgerIndex, write.stateChanges);
          return counted;
        });
        addSentToBlocks(
          pipeline,
          writes.map((write, position) => ({ ledgerIndex: write.ledgerIndex, senders: senders[position]! })),
        );
        // The bookkeeping needs the counts, sent first and answered while the rows above are written.
        let next = counters;
        for (const [position, write] of writes.entries()) next = countersAfterAdding(next, write, await newVersions[position]!);
        putMeta(pipeline, [...META.storeMeta.rangesOperations(after), META.storeMeta.countersOperation(next), ...(after.stateRanges ? [META.stateMeta.stateRangesOperation(after.stateRanges)] : [])]);
        return next;
      },
    );
  }

  recordRanges(after: Required<RangesAfter>): Promise<void> {
    return this.transaction(async (pipeline) => putMeta(pipeline, META.storeMeta.rangesOperations(after)));
  }

  removeLedger(write: LedgerWrite, stored: StoredHeader, after: RangesAfter & { stateSetAside?: boolean }, counters: StoreCounters): Promise<StoreCounters> {
    const { ledgerIndex } = write;
    return this.transaction(async (pipeline) => {
      pipeline.query(SQL.deleteLedger, [stored.ledgerIndex]);
      const evidenceRemoved = pipeline.query(SQL.deleteLedgerEvidence, [stored.ledgerIndex]);
      pipeline.query(SQL.deleteLedgerHash, [stored.ledgerHash, stored.ledgerIndex]);
      if (write.transactions.length > 0) {
        pipeline.query(SQL.deleteTransactionHashes, [write.transactions.map((tx) => hashPrefix(tx.hash)), ledgerIndex, write.transactions.map((tx) => tx.txIndex)]);
        pipeline.query(SQL.deleteTransactionGroups, [ledgerIndex]);
        pipeline.query(SQL.deleteLedgerTransactions, [ledgerIndex]);
        // Each account's row of the ledger, however many of its transactions name the account (ANY).
        const accounts = accountEntriesOf(write).map((entry) => entry.accountId);
        pipeline.query(SQL.deleteAccountTransactions, [accounts, ledgerIndex]);
        const nftEntries = nftTransactionsOf(write);
        if (nftEntries.length > 0) pipeline.query(SQL.deleteNftTransactions, [nftEntries.map((entry) => entry.nftId), ledgerIndex, nftEntries.map((entry) => entry.txIndex)]);
        const nftStates = nftStatesOf(write);
        if (nftStates.length > 0) pipeline.query(SQL.deleteNftStates, [nftStates.map((state) => state.nftId), ledgerIndex]);
        const senders = sendersOf(write);
        pipeline.query(SQL.deleteSent, [senders.map((sender) => sender.accountId), ledgerIndex]);
        pipeline.query(SQL.subtractSentFromBlocks, [senders.map((sender) => sender.accountId), blockOf(ledgerIndex), senders.map((sender) => sender.sent)]);
      }
      const next = countersWithoutEvidence(countersAfterRemoving(counters, write), (await evidenceRemoved).rowCount ?? 0);
      putMeta(pipeline, [
        ...META.storeMeta.rangesOperations(after),
        META.storeMeta.countersOperation(next),
        ...(after.stateSetAside ? [META.stateMeta.stateRangesOperation([]), META.stateMeta.downloadOperation(STATE_SET_ASIDE)] : []),
      ]);
      return next;
    });
  }

  addStateChanges(ledgerIndex: number, changes: readonly StateObjectChange[], after: { stateRanges: LedgerRange[] }, counters: StoreCounters): Promise<StoreCounters> {
    return this.writeCovering([ledgerIndex], async (pipeline) => {
      const newVersions = countNewVersions(pipeline, ledgerIndex, changes);
      putStateChanges(pipeline, ledgerIndex, changes);
      const next = countersWithNewVersions(counters, await newVersions);
      putMeta(pipeline, [META.stateMeta.stateRangesOperation(after.stateRanges), META.storeMeta.countersOperation(next)]);
      return next;
    });
  }

  stageStateObjects(objects: readonly StateObject[], download: StateDownloadRecord): Promise<void> {
    return this.transaction(async (pipeline) => {
      if (objects.length > 0) {
        const staged = lastPerKey(objects, (object) => object.key);
        pipeline.query(SQL.putStaged, [staged.map((object) => object.key), staged.map((object) => object.blob)]);
        putTrustLines(pipeline, objects);
      }
      putMeta(pipeline, [META.stateMeta.downloadOperation(download)]);
    });
  }

  recordDownload(download: StateDownloadRecord): Promise<void> {
    return this.transaction(async (pipeline) => putMeta(pipeline, [META.stateMeta.downloadOperation(download)]));
  }

  async clearStagedState(): Promise<void> {
    await this.transaction(async (pipeline) => pipeline.query(SQL.clearStaged, []));
  }

  /**
   * One transaction for the whole download (where the key-value backend writes pages of 4096):
   * the server moves the rows itself, and the download is complete exactly when its versions are in.
   */
  promoteStagedState(download: StateDownloadRecord, counters: StoreCounters): Promise<StoreCounters> {
    return this.writeCovering([download.ledgerIndex], async (pipeline) => {
      const cleared = download.staleVersions ? pipeline.query(SQL.clearStateVersions, []) : undefined;
      if (download.staleVersions) pipeline.query(SQL.clearAccountCreations, []);
      const counted = pipeline.query<{ new_versions: string }>(SQL.stagedNotStoredAt, [download.ledgerIndex]);
      pipeline.query(SQL.promoteStaged, [download.ledgerIndex]);
      pipeline.query(SQL.clearStaged, []);
      const removed = BigInt((await cleared)?.rowCount ?? 0);
      const next = countersWithNewVersions(countersAfterPruning(counters, [], removed), BigInt((await counted).rows[0]!.new_versions));
      putMeta(pipeline, [META.storeMeta.countersOperation(next), META.stateMeta.downloadOperation({ ...download, complete: true, staleVersions: false })]);
      return next;
    });
  }

  // ---- reads ----

  async header(ledgerIndex: number): Promise<StoredHeader | undefined> {
    const [row] = await this.read<HeaderRow>(SQL.header, [ledgerIndex]);
    return row && headerOf(row);
  }

  async headers(ledgerIndexes: number[]): Promise<StoredHeader[]> {
    if (ledgerIndexes.length === 0) return [];
    const rows = await this.read<HeaderRow>(SQL.headers, [ledgerIndexes]);
    const byIndex = new Map(rows.map((row) => [Number(row.ledger_index), headerOf(row)]));
    return ledgerIndexes.flatMap((ledgerIndex) => byIndex.get(ledgerIndex) ?? []);
  }

  async ledgerIndexOfHash(ledgerHash: Buffer): Promise<number | undefined> {
    const [row] = await this.read<{ ledger_index: string }>(SQL.ledgerIndexOfHash, [ledgerHash]);
    return row && Number(row.ledger_index);
  }

  async headersBetween(first: number, last: number, limit?: number): Promise<StoredHeader[]> {
    return (await this.read<HeaderRow>(SQL.headersBetween, [first, last, limit ?? null])).map(headerOf);
  }

  async ledgerTransactionHashes(ledgerIndex: number): Promise<Buffer[]> {
    const groups = await this.read<GroupHashesRow>(SQL.ledgerGroupHashes, [ledgerIndex]);
    if (groups.length === 0) return (await this.read<{ hash: Buffer }>(SQL.ungroupedHashes, [ledgerIndex])).map((row) => row.hash);
    return groups.flatMap((group) => this.hashesOf(ledgerIndex, group).map((entry) => entry.hash));
  }

  async transactionHashAt(ledgerIndex: number, txIndex: number): Promise<Buffer | undefined> {
    const [group] = await this.read<GroupHashesRow>(SQL.groupHashes, [ledgerIndex, txIndex]);
    if (group) return this.hashesOf(ledgerIndex, group).find((entry) => entry.txIndex === txIndex)?.hash;
    const [row] = await this.read<{ hash: Buffer }>(SQL.ungroupedHashAt, [ledgerIndex, txIndex]);
    return row?.hash;
  }

  private hashesOf(ledgerIndex: number, group: GroupHashesRow): { txIndex: number; hash: Buffer }[] {
    return groupHashes(Number(group.first_tx_index), group.hashes, `ledger ${ledgerIndex} at tx ${group.first_tx_index} in ${this.location}`);
  }

  async evidencedBetween(first: number, last: number): Promise<number[]> {
    return (await this.read<{ ledger_index: string | number }>(SQL.evidencedBetween, [first, last])).map((row) => Number(row.ledger_index));
  }

  async ledgerEvidence(ledgerIndex: number): Promise<LedgerEvidence | undefined> {
    const [row] = await this.read<{ record: Buffer }>(SQL.ledgerEvidence, [ledgerIndex]);
    if (!row) return undefined;
    const record = decodeEvidenceRecord(row.record);
    const [lists, manifests] = await Promise.all([
      this.read<{ document: Buffer | null }>(SQL.validatorLists, [record.lists.map((key) => key.publisherKey), record.lists.map((key) => key.sequence)]),
      this.read<{ manifest: Buffer | null }>(SQL.manifests, [record.manifests.map((key) => key.masterKey), record.manifests.map((key) => key.sequence)]),
    ]);
    return evidenceOf(
      record,
      lists.map((row) => row.document ?? undefined),
      manifests.map((row) => row.manifest ?? undefined),
    );
  }

  async transactions(hashes: Buffer[]): Promise<(StoredTransaction | undefined)[]> {
    if (hashes.length === 0) return [];
    const asked = new Set(hashes.map((hash) => hash.toString('hex')));
    const prefixes = [...new Set(hashes.map(hashPrefix))];
    const found = new Map<string, StoredTransaction>();
    // A hash stored in two ledgers is read from the later one, as the key-value layout overwrites.
    const keep = (tx: StoredTransaction) => {
      const key = tx.hash.toString('hex');
      const kept = found.get(key);
      if (kept === undefined || comparePositions(kept, tx) < 0) found.set(key, tx);
    };
    for (const group of await this.read<GroupRow>(SQL.transactionGroups, [prefixes])) {
      const ledgerIndex = Number(group.ledger_index);
      const entries = this.hashesOf(ledgerIndex, group);
      // Its prefix matched; its whole hash may not (another transaction's hash starts the same).
      if (!entries.some((entry) => asked.has(entry.hash.toString('hex')))) continue;
      const where = `ledger ${ledgerIndex} at tx ${group.first_tx_index} in ${this.location}`;
      const records = decodeTransactionGroup(group.record, entries.length, where);
      entries.forEach((entry, position) => {
        if (asked.has(entry.hash.toString('hex'))) keep({ hash: Buffer.from(entry.hash), ledgerIndex, txIndex: entry.txIndex, ...records[position]! });
      });
    }
    const missing = hashes.filter((hash) => !found.has(hash.toString('hex')));
    if (missing.length > 0) {
      for (const row of await this.read<UngroupedRow>(SQL.ungroupedTransactions, [[...new Set(missing.map(hashPrefix))], missing])) {
        keep({ hash: row.hash, ledgerIndex: Number(row.ledger_index), txIndex: Number(row.tx_index), ...recordOf(row, this.location) });
      }
    }
    return hashes.map((hash) => found.get(hash.toString('hex')));
  }

  async *accountTransactionEntries(accountId: Buffer, scan: AccountHistoryScan): AsyncIterable<AccountTransactionEntry> {
    const bounds = scanBounds(scan);
    if (!bounds) return;
    const { low, high } = bounds;
    let [fromLedger, toLedger] = [low.ledgerIndex, high.ledgerIndex];
    let remaining = scan.limit ?? Number.POSITIVE_INFINITY;
    // Page by page of rows (a ledger each), each page continuing after the last ledger read.
    while (remaining > 0) {
      const pageSize = Math.min(remaining, HISTORY_PAGE);
      const rows = await this.read<{ ledger_index: string; entries: Buffer }>(scan.reverse ? SQL.accountLedgersBackward : SQL.accountLedgersForward, [
        accountId,
        fromLedger,
        toLedger,
        pageSize,
      ]);
      for (const row of rows) {
        const ledgerIndex = Number(row.ledger_index);
        const entries = await this.accountEntries(ledgerIndex, row.entries);
        for (const entry of scan.reverse ? entries.reverse() : entries) {
          const position = { ledgerIndex, txIndex: entry.txIndex };
          if (comparePositions(position, low) < 0 || comparePositions(position, high) > 0) continue;
          yield { accountId, ledgerIndex, ...entry };
          if (--remaining === 0) return;
        }
      }
      if (rows.length < pageSize) return;
      const last = Number(rows.at(-1)!.ledger_index);
      if (scan.reverse ? last === 0 : last === MAX_U32) return;
      if (scan.reverse) toLedger = last - 1;
      else fromLedger = last + 1;
    }
  }

  /** An account index row's entries in tx index order (account_entry in pg/006_transaction_groups.sql), each type by name. */
  private async accountEntries(ledgerIndex: number, packed: Buffer): Promise<Omit<AccountTransactionEntry, 'accountId' | 'ledgerIndex'>[]> {
    const entries: Omit<AccountTransactionEntry, 'accountId' | 'ledgerIndex'>[] = [];
    for (let offset = 0; offset + ACCOUNT_ENTRY_BYTES <= packed.length; offset += ACCOUNT_ENTRY_BYTES) {
      const direction = packed[offset + 4];
      if (direction !== IndexDirection.in && direction !== IndexDirection.out) {
        throw new Internal(`the account index of ledger ${ledgerIndex} in ${this.location} cannot be read: direction ${direction} is neither in (1) nor out (2)`);
      }
      const typeNumber = packed.readUInt16BE(offset + 5);
      entries.push({ txIndex: packed.readUInt32BE(offset), direction, transactionType: typeNumber === 0 ? undefined : await this.typeName(typeNumber) });
    }
    return entries;
  }

  /** A transaction type's name by its number, read again when a number is new to this process (another writer's). */
  private async typeName(typeNumber: number): Promise<string> {
    if (!this.typeNames.has(typeNumber)) {
      for (const row of await this.read<{ type_number: number; name: string }>(SQL.transactionTypes, [])) this.typeNames.set(row.type_number, row.name);
    }
    const name = this.typeNames.get(typeNumber);
    if (name === undefined) throw new Internal(`the account index in ${this.location} names transaction type ${typeNumber}, which transaction_types does not`);
    return name;
  }

  async *nftTransactionEntries(nftId: Buffer, scan: AccountHistoryScan): AsyncIterable<HistoryPosition> {
    for await (const row of this.positionScan<{ ledger_index: string; tx_index: string }>(SQL.nftHistoryForward, SQL.nftHistoryBackward, nftId, scan)) {
      yield { ledgerIndex: Number(row.ledger_index), txIndex: Number(row.tx_index) };
    }
  }

  /** Read a few at a time: a read at a ledger needs the newest, one skipping unproven ledgers a few more. */
  async *nftStatesAtOrBelow(nftId: Buffer, ledgerIndex: number): AsyncIterable<NftStateEntry> {
    let below = ledgerIndex;
    for (;;) {
      const rows = await this.read<{ ledger_index: string; owner_account_id: Buffer; burned: boolean; uri: Buffer }>(SQL.nftStatesAtOrBelow, [nftId, below, NFT_STATES_PAGE]);
      for (const row of rows) {
        yield { nftId, ledgerIndex: Number(row.ledger_index), ownerAccountId: row.owner_account_id, burned: row.burned, uri: row.uri };
      }
      const last = rows.at(-1);
      if (rows.length < NFT_STATES_PAGE || !last || Number(last.ledger_index) === 0) return;
      below = Number(last.ledger_index) - 1;
    }
  }

  /**
   * The rows of an index keyed (key, ledger, tx index) between the scan's bounds, page by page
   * (keyset: each page continues after the last position read), so that a scan its caller stops
   * early reads little more than it used.
   */
  private async *positionScan<Row extends { ledger_index: string; tx_index: string }>(
    forward: Statement,
    backward: Statement,
    key: Buffer,
    scan: AccountHistoryScan,
  ): AsyncIterable<Row> {
    const bounds = scanBounds(scan);
    if (!bounds) return;
    let { low, high } = bounds;
    let remaining = scan.limit ?? Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      const pageSize = Math.min(remaining, HISTORY_PAGE);
      const rows = await this.read<Row>(scan.reverse ? backward : forward, [key, low.ledgerIndex, low.txIndex, high.ledgerIndex, high.txIndex, pageSize]);
      yield* rows;
      if (rows.length < pageSize) return;
      remaining -= rows.length;
      const last = { ledgerIndex: Number(rows.at(-1)!.ledger_index), txIndex: Number(rows.at(-1)!.tx_index) };
      const next = scan.reverse ? positionBefore(last) : positionAfter(last);
      if (!next) return;
      if (scan.reverse) high = next;
      else low = next;
    }
  }

  async sentUpTo(accountId: Buffer, ledgerIndex: number): Promise<bigint> {
    const block = blockOf(ledgerIndex);
    const [row] = await this.read<{ sent: string }>(SQL.sentUpTo, [accountId, block, firstLedgerOfBlock(block), ledgerIndex]);
    return BigInt(row.sent);
  }

  async accountCreatedAtOrBelow(accountId: Buffer, ledgerIndex: number): Promise<number | undefined> {
    const [row] = await this.read<{ ledger_index: string }>(SQL.accountCreatedAtOrBelow, [accountId, ledgerIndex]);
    return row && Number(row.ledger_index);
  }

  async trustLineKeys(accountId: Buffer): Promise<Buffer[]> {
    return (await this.read<{ object_key: Buffer }>(SQL.trustLineKeys, [accountId])).map((row) => row.object_key);
  }

  async stateObjectAt(objectKey: Buffer, ledgerIndex: number, window: StateWindow): Promise<Buffer | undefined> {
    const [row] = await this.read<{ blob: Buffer | null }>(SQL.stateObjectAt, [objectKey, window.low, ledgerIndex, window.snapshotLedgerIndex]);
    return row?.blob ?? undefined;
  }

  /** One query for every key (each distinct key sent once). */
  async stateObjectsByKey(objectKeys: readonly Buffer[], ledgerIndex: number, window: StateWindow): Promise<(Buffer | undefined)[]> {
    if (objectKeys.length === 0) return [];
    const distinct = [...new Map(objectKeys.map((objectKey) => [objectKey.toString('hex'), objectKey])).values()];
    const rows = await this.read<{ object_key: Buffer; blob: Buffer | null }>(SQL.stateObjectsByKey, [distinct, window.low, ledgerIndex, window.snapshotLedgerIndex]);
    const found = new Map(rows.map((row) => [row.object_key.toString('hex'), row.blob ?? undefined]));
    return objectKeys.map((objectKey) => found.get(objectKey.toString('hex')));
  }

  /**
   * As StateObjectRepository.listAt: the first `limit` objects existing at the ledger after
   * `afterKey` and below `beforeKey`, and the last one's key to continue after when any object key
   * of that range follows it.
   */
  async stateObjectsAt(
    ledgerIndex: number,
    window: StateWindow,
    afterKey: Buffer | undefined,
    limit: number,
    beforeKey?: Buffer,
  ): Promise<{ objects: KeyedObject[]; nextAfterKey: Buffer | undefined }> {
    const objects: KeyedObject[] = [];
    const below = beforeKey ?? ABOVE_EVERY_KEY;
    let cursor = afterKey ?? Buffer.alloc(0);
    for (;;) {
      const batch = Math.max(limit - objects.length, LISTING_BATCH_MIN);
      const rows = await this.read<{ object_key: Buffer; blob: Buffer | null }>(SQL.stateObjectsAt, [cursor, window.low, ledgerIndex, window.snapshotLedgerIndex, batch, below]);
      for (const [position, row] of rows.entries()) {
        if (row.blob === null) continue;
        objects.push({ key: row.object_key, blob: row.blob });
        if (objects.length < limit) continue;
        const keysFollow = position < rows.length - 1 || (rows.length === batch && (await this.read<{ found: boolean }>(SQL.anyObjectBetween, [row.object_key, below]))[0].found);
        return { objects, nextAfterKey: keysFollow ? row.object_key : undefined };
      }
      if (rows.length < batch) return { objects, nextAfterKey: undefined };
      cursor = rows.at(-1)!.object_key;
    }
  }

  async stagedStateObjects(afterKey: Buffer | undefined, limit: number, beforeKey?: Buffer): Promise<KeyedObject[]> {
    const rows = await this.read<{ object_key: Buffer; blob: Buffer }>(SQL.stagedStateObjects, [afterKey ?? Buffer.alloc(0), limit, beforeKey ?? ABOVE_EVERY_KEY]);
    return rows.map((row) => ({ key: row.object_key, blob: row.blob }));
  }

  async sizeOnDisk(): Promise<number> {
    const [row] = await this.read<{ bytes: string }>(SQL.sizeOnDisk, [STORE_TABLES]);
    return Number(row.bytes);
  }

  close(): Promise<void> {
    this.closed ??= this.pool.end();
    return this.closed;
  }

  /**
   * A reader's check at open: every migration this release knows is applied (a replica gets its
   * schema from the primary's migration files, never from a reader), else the reason, naming what to do.
   */
  private static async requireSchema(client: pg.PoolClient): Promise<void> {
    const found = await client.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
    if (!found.rows[0]?.present) {
      throw new Error('it holds no ledger-node schema (no schema_migrations table): a reader (-store_read) creates none; apply the migrations where the writer (-store) writes and replicate them here');
    }
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
    const missing = MIGRATIONS.filter((migration) => !applied.has(migration.version)).map((migration) => path.basename(fileURLToPath(migration.file)));
    if (missing.length > 0) {
      throw new Error(`its schema lacks the migrations ${missing.join(', ')} this release reads with: a reader (-store_read) applies none; start the writer (-store) of this release, and replicate its schema here`);
    }
  }
}

/** Runs `work` in one transaction on one connection of the pool: committed whole, or rolled back and thrown. */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection lost between two statements is reported here rather than to nobody (which ends the process).
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A failed ROLLBACK means the connection is gone, and the server rolls back the transaction itself.
    broken ??= await client.query('ROLLBACK').then(
      () => undefined,
      (rollbackFailure: Error) => rollbackFailure,
    );
    throw error;
  } finally {
    client.off('error', onError);
    // A broken connection is closed, not given back to the pool.
    client.release(broken);
  }
}

/**
 * Applies the migrations the database lacks, in order, in the caller's transaction, under the
 * schema lock; answers the database's partition size, recorded by its first open (`requested`, or
 * LEDGERS_PER_PARTITION) and refused when another size is requested later.
 */
async function migrate(client: pg.PoolClient, requested: number | undefined): Promise<number> {
  // Taken before anything is read: a second process opening a new database waits, then finds it migrated.
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('ledger-node schema_migrations'))`);
  await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
  // A version this release does not know (a later release's) is left as it is: the store format
  // version, checked at open, says whether this release can read the store.
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    await client.query(readFileSync(migration.file, 'utf8'));
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, path.basename(fileURLToPath(migration.file))]);
  }
  await client.query(`INSERT INTO store_meta (name, value) VALUES ($1, convert_to($2::text, 'UTF8')) ON CONFLICT (name) DO NOTHING`, [
    PARTITION_SIZE_RECORD,
    String(requested ?? LEDGERS_PER_PARTITION),
  ]);
  const recorded = Number((await client.query<{ ledgers: string }>(SQL.partitionSize)).rows[0]!.ledgers);
  if (requested !== undefined && requested !== recorded) {
    throw new Error(`its partitions hold ${recorded} ledgers each, not the ${requested} asked for: a database keeps the partition size it was created with`);
  }
  return recorded;
}

/** Puts bookkeeping records (an overwrite each). */
function putMeta(pipeline: Pipeline, operations: KvOperation[]): void {
  const rows = operations.map(metaRow);
  pipeline.query(SQL.putStoreMeta, [rows.map((row) => row.name), rows.map((row) => row.value)]);
}

function putTrustLines(pipeline: Pipeline, objects: readonly { key: Buffer; ownerAccountIds: Buffer[] }[]): void {
  const members = objects.flatMap((object) => object.ownerAccountIds.map((owner) => ({ owner, key: object.key })));
  if (members.length === 0) return;
  pipeline.query(SQL.putTrustLines, [members.map((member) => member.owner), members.map((member) => member.key)]);
}

/** The changes whose before-image is written at the previous ledger (none at ledgers 0 and 1). */
const withPrevious = (ledgerIndex: number, changes: readonly StateObjectChange[]) => changes.filter((change) => hasPreviousImage(ledgerIndex, change));

/** The numbers of the accounts and transaction types the writes' index rows name (pg/005_account_numbers.sql), sent before those rows. */
function putNumbers(pipeline: Pipeline, writes: readonly LedgerWrite[], entries: readonly AccountEntry[]): void {
  const transactions = writes.flatMap((write) => write.transactions);
  if (transactions.length === 0) return;
  pipeline.query(SQL.putAccounts, [entries.map((entry) => entry.accountId)]);
  pipeline.query(SQL.putTransactionTypes, [transactions.map((tx) => tx.transactionType)]);
}

/** A ledger's account index entries: each side of each transaction, with its place and type. */
const accountEntriesOf = (write: LedgerWrite) =>
  write.transactions.flatMap((tx) => accountSides(tx).map((side) => ({ ...side, txIndex: tx.txIndex, transactionType: tx.transactionType })));
type AccountEntry = ReturnType<typeof accountEntriesOf>[number];

/** Transactions an account sent in a ledger (sendersOf). */
type Sender = ReturnType<typeof sendersOf>[number];

/** The first 8 bytes of a transaction hash as a bigint, its key in transaction_hashes (pg/006_transaction_groups.sql's transaction_hash_prefix). */
const hashPrefix = (hash: Uint8Array): string => Buffer.from(hash.buffer, hash.byteOffset, 8).readBigInt64BE(0).toString();

/** A ledger's header, transactions (in groups), account and NFT index entries and sent counts. */
function putLedgerRows(
  pipeline: Pipeline,
  write: LedgerWrite,
  { groups, entries, senders }: { groups: readonly TransactionGroupRow[]; entries: readonly AccountEntry[]; senders: readonly Sender[] },
): void {
  const { ledgerIndex, transactions } = write;
  pipeline.query(SQL.putLedger, [ledgerIndex, write.ledgerHash, write.headerBlob, transactions.length]);
  pipeline.query(SQL.putLedgerHash, [write.ledgerHash, ledgerIndex]);
  if (write.evidence) putEvidence(pipeline, ledgerIndex, write.evidence);
  if (transactions.length === 0) return;
  pipeline.query(SQL.putTransactionGroups, [
    ledgerIndex,
    groups.map((group) => group.firstTxIndex),
    groups.map((group) => group.hashes),
    groups.map((group) => group.record),
  ]);
  pipeline.query(SQL.putTransactionHashes, [transactions.map((tx) => hashPrefix(tx.hash)), ledgerIndex, transactions.map((tx) => tx.txIndex)]);
  pipeline.query(SQL.putAccountTransactions, [
    entries.map((entry) => entry.accountId),
    ledgerIndex,
    entries.map((entry) => entry.txIndex),
    entries.map((entry) => entry.direction),
    entries.map((entry) => entry.transactionType),
  ]);
  const nftEntries = nftTransactionsOf(write);
  if (nftEntries.length > 0) pipeline.query(SQL.putNftTransactions, [nftEntries.map((entry) => entry.nftId), ledgerIndex, nftEntries.map((entry) => entry.txIndex)]);
  const nftStates = nftStatesOf(write);
  if (nftStates.length > 0) {
    pipeline.query(SQL.putNftStates, [
      nftStates.map((state) => state.nftId),
      ledgerIndex,
      nftStates.map((state) => state.ownerAccountId),
      nftStates.map((state) => state.burned),
      nftStates.map((state) => state.uri),
    ]);
  }
  pipeline.query(SQL.putSent, [senders.map((sender) => sender.accountId), ledgerIndex, senders.map((sender) => sender.sent)]);
}

/**
 * The writes' sent counts added to their blocks: one row update per account and block for the whole
 * batch, where one per ledger left each row's earlier versions behind (64 dead rows an account in a
 * batch of 64 ledgers) until a vacuum.
 */
function addSentToBlocks(pipeline: Pipeline, ledgers: readonly { ledgerIndex: number; senders: readonly Sender[] }[]): void {
  const blocks = new Map<number, Map<string, Sender>>();
  for (const { ledgerIndex, senders } of ledgers) {
    let block = blocks.get(blockOf(ledgerIndex));
    if (!block) blocks.set(blockOf(ledgerIndex), (block = new Map()));
    for (const sender of senders) {
      const key = sender.accountId.toString('hex');
      const sum = block.get(key);
      if (sum) sum.sent += sender.sent;
      else block.set(key, { ...sender });
    }
  }
  for (const [block, sums] of blocks) {
    if (sums.size === 0) continue;
    const senders = [...sums.values()];
    pipeline.query(SQL.addSentToBlocks, [senders.map((sender) => sender.accountId), block, senders.map((sender) => sender.sent)]);
  }
}

/** A ledger's evidence record, and the lists and manifests it names unless stored. */
function putEvidence(pipeline: Pipeline, ledgerIndex: number, evidence: LedgerEvidence): void {
  const { record, lists, manifests } = evidenceRows(evidence);
  pipeline.query(SQL.putLedgerEvidence, [ledgerIndex, encodeEvidenceRecord(record)]);
  if (lists.length > 0) pipeline.query(SQL.putValidatorLists, [lists.map(({ key }) => key.publisherKey), lists.map(({ key }) => key.sequence), lists.map((list) => list.document)]);
  if (manifests.length > 0) pipeline.query(SQL.putManifests, [manifests.map(({ key }) => key.masterKey), manifests.map(({ key }) => key.sequence), manifests.map((manifest) => manifest.manifest)]);
}

/**
 * The versions putStateChanges will add that are not stored yet: the after-images not stored at the
 * ledger, the before-images not stored at the one before. Send it first: the server runs a
 * pipeline's statements in the order sent, and answers it while the rest is written.
 */
async function countNewVersions(pipeline: Pipeline, ledgerIndex: number, changes: readonly StateObjectChange[]): Promise<bigint> {
  if (changes.length === 0) return 0n;
  const before = withPrevious(ledgerIndex, changes);
  const { rows } = await pipeline.query<{ stored: string; stored_before: string }>(SQL.versionsStoredAt, [changes.map((change) => change.key), ledgerIndex, before.map((change) => change.key)]);
  return BigInt(changes.length) - BigInt(rows[0]!.stored) + BigInt(before.length) - BigInt(rows[0]!.stored_before);
}

/**
 * A ledger's state changes as kv-backend.ts writes them: each object after the ledger at its index,
 * and before it at the previous index unless a version is stored there; trust-line memberships and
 * account creations.
 */
function putStateChanges(pipeline: Pipeline, ledgerIndex: number, changes: readonly StateObjectChange[]): void {
  if (changes.length === 0) return;
  pipeline.query(SQL.putVersions, [changes.map((change) => change.key), ledgerIndex, changes.map((change) => blobOrNull(change.blob))]);
  const before = withPrevious(ledgerIndex, changes);
  if (before.length > 0) {
    pipeline.query(SQL.putVersionsUnlessStored, [before.map((change) => change.key), ledgerIndex - 1, before.map((change) => blobOrNull(change.previousBlob))]);
  }
  putTrustLines(pipeline, changes.map((change) => ({ key: change.key, ownerAccountIds: change.ownerAccountIds })));
  const created = changes.filter((change) => change.kind === StateChangeKind.CREATED && change.accountId.length === 20).map((change) => change.accountId);
  if (created.length > 0) pipeline.query(SQL.putAccountCreations, [created, ledgerIndex]);
}

/**
 * The statements of one write, each sent without waiting for the answers before it (the pool's
 * connections are pipelined): a write of a dozen statements costs about one round trip, not a
 * dozen. The server runs them in the order sent; the first failure fails the write.
 */
class Pipeline {
  private readonly sent: Promise<unknown>[] = [];

  constructor(private readonly client: pg.PoolClient) {}

  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<pg.QueryResult<Row>> {
    const answer = this.client.query<Row>({ ...statement, values });
    // Heard here as well: after a failure every later statement fails too, and nothing awaits them one by one.
    answer.catch(() => undefined);
    this.sent.push(answer);
    return answer;
  }

  /** Resolves once every statement sent succeeded; rejects with the first failure. */
  async answered(): Promise<void> {
    await Promise.all(this.sent);
  }
}

/** The position right after `position` in (ledger, tx index) order; undefined after the last one. */
/** The first and last positions a scan may yield, inclusive; undefined when it can yield none. */
function scanBounds(scan: AccountHistoryScan): { low: HistoryPosition; high: HistoryPosition } | undefined {
  let low: HistoryPosition = { ledgerIndex: scan.firstLedger ?? 0, txIndex: 0 };
  let high: HistoryPosition = { ledgerIndex: scan.lastLedger ?? MAX_U32, txIndex: MAX_U32 };
  // Strictly after `after` in the direction of travel is at or beyond the position next to it.
  if (scan.after) {
    const next = scan.reverse ? positionBefore(scan.after) : positionAfter(scan.after);
    if (!next) return undefined;
    if (scan.reverse && comparePositions(next, high) < 0) high = next;
    if (!scan.reverse && comparePositions(next, low) > 0) low = next;
  }
  return comparePositions(low, high) > 0 ? undefined : { low, high };
}

function positionAfter(position: HistoryPosition): HistoryPosition | undefined {
  if (position.txIndex < MAX_U32) return { ledgerIndex: position.ledgerIndex, txIndex: position.txIndex + 1 };
  return position.ledgerIndex < MAX_U32 ? { ledgerIndex: position.ledgerIndex + 1, txIndex: 0 } : undefined;
}

/** The position right before `position`; undefined before the first one. */
function positionBefore(position: HistoryPosition): HistoryPosition | undefined {
  if (position.txIndex > 0) return { ledgerIndex: position.ledgerIndex, txIndex: position.txIndex - 1 };
  return position.ledgerIndex > 0 ? { ledgerIndex: position.ledgerIndex - 1, txIndex: MAX_U32 } : undefined;
}

function comparePositions(a: HistoryPosition, b: HistoryPosition): number {
  return a.ledgerIndex - b.ledgerIndex || a.txIndex - b.txIndex;
}
