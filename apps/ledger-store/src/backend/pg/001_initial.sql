-- The LedgerStore tables (store format 1), as PgLedgerBackend (../pg-backend.ts) reads and writes them.
-- They hold what the buckets of the key-value layout hold (storage/buckets.ts), with the same keys.
-- Ledger and transaction indexes are u32: bigint columns. Bytes compare bytewise (bytea), so key
-- order is the key-value layout's order.
--
-- What grows with history is partitioned by ledger index (RANGE): ledgers, ledger_transactions,
-- account_transactions, account_sent and state_versions. Each partition holds a fixed run of
-- ledgers (store_meta 'ledgers_per_partition', recorded when the database is first opened), named
-- <table>_<first ledger>, and is created by the write that first needs it (ledger_partitions_cover),
-- so that old history can be detached, archived or moved to other storage a partition at a time,
-- and every read by ledger touches only the partitions its ledgers are in. A partitioned table's
-- primary key includes the ledger index: the lookups by hash are small unpartitioned tables
-- (ledger_hashes, transactions) that point into them.

-- Ledger headers.
CREATE TABLE ledgers (
  ledger_index bigint NOT NULL CHECK (ledger_index BETWEEN 0 AND 4294967295),
  ledger_hash bytea NOT NULL CHECK (octet_length(ledger_hash) = 32),
  -- The binary header as rippled serializes it (118 bytes, without the 'LWR\0' prefix).
  header bytea NOT NULL,
  transaction_count bigint NOT NULL,
  PRIMARY KEY (ledger_index)
) PARTITION BY RANGE (ledger_index);

-- Ledger hash → index: one row per stored ledger.
CREATE TABLE ledger_hashes (
  ledger_hash bytea PRIMARY KEY,
  ledger_index bigint NOT NULL
);

-- Transaction hash → where its record is (a row of ledger_transactions). A hash stored again (in
-- another ledger) points at the later one, as the key-value layout overwrites its record.
CREATE TABLE transactions (
  hash bytea PRIMARY KEY CHECK (octet_length(hash) = 32),
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL
);

-- The transactions of each ledger in tx index order, each with its record.
CREATE TABLE ledger_transactions (
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL,
  hash bytea NOT NULL,
  engine_result text NOT NULL,
  transaction_type text NOT NULL,
  tx_blob bytea NOT NULL,
  meta_blob bytea NOT NULL,
  PRIMARY KEY (ledger_index, tx_index)
) PARTITION BY RANGE (ledger_index);

-- The transactions that touch each account: direction 1 in, 2 out (common.v1.Direction); the
-- transaction type so that type filters page through the index alone (NULL: not recorded).
CREATE TABLE account_transactions (
  account_id bytea NOT NULL CHECK (octet_length(account_id) = 20),
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL,
  direction smallint NOT NULL CHECK (direction IN (1, 2)),
  transaction_type text,
  PRIMARY KEY (account_id, ledger_index, tx_index)
) PARTITION BY RANGE (ledger_index);

-- Transactions each account sent in each ledger, and per block of 2^16 ledgers (block =
-- ledger_index >> 16), so that a count up to a ledger sums the blocks below and one block's ledgers
-- (repositories/accounts.ts).
CREATE TABLE account_sent (
  account_id bytea NOT NULL,
  ledger_index bigint NOT NULL,
  sent bigint NOT NULL,
  PRIMARY KEY (account_id, ledger_index)
) PARTITION BY RANGE (ledger_index);

CREATE TABLE account_sent_blocks (
  account_id bytea NOT NULL,
  block bigint NOT NULL,
  sent bigint NOT NULL,
  PRIMARY KEY (account_id, block)
);

-- Versioned state objects: the object after ledger_index, NULL when it does not exist then (a
-- tombstone). The lookup rule is repositories/stateObjects.ts's.
CREATE TABLE state_versions (
  object_key bytea NOT NULL CHECK (octet_length(object_key) = 32),
  ledger_index bigint NOT NULL,
  blob bytea,
  PRIMARY KEY (object_key, ledger_index)
) PARTITION BY RANGE (ledger_index);

-- Which trust lines each account is a side of (never removed; the versions say whether a line exists).
CREATE TABLE trust_lines (
  account_id bytea NOT NULL,
  object_key bytea NOT NULL,
  PRIMARY KEY (account_id, object_key)
);

-- Ledgers that created each account's AccountRoot.
CREATE TABLE account_creations (
  account_id bytea NOT NULL,
  ledger_index bigint NOT NULL,
  PRIMARY KEY (account_id, ledger_index)
);

-- The running state download's pages, read by nothing but the downloader until promoted.
CREATE TABLE staged_state (
  object_key bytea PRIMARY KEY,
  blob bytea NOT NULL
);

-- The bookkeeping records, one row each, named and encoded as the key-value layout names and
-- encodes them (repositories/storeMeta.ts, StateMetaRepository in repositories/stateObjects.ts):
-- format_version, complete_ranges, counters, state_ranges, download; and ledgers_per_partition
-- (decimal ASCII), the partitions' size, which a database keeps for its life.
CREATE TABLE store_meta (
  name text PRIMARY KEY,
  value bytea NOT NULL
);

-- Creates, in each partitioned table, the partitions of `ledgers_per_partition` ledgers that hold
-- ledgers first_ledger..last_ledger and are missing. Called inside the write that needs them, so
-- that a write rolled back leaves none; under a transaction lock, so that two sessions never race
-- to create one.
CREATE FUNCTION ledger_partitions_cover(first_ledger bigint, last_ledger bigint, ledgers_per_partition bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  parent text;
  partition_first bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('ledger-node partitions'));
  FOR partition_first IN
    SELECT partition_number * ledgers_per_partition FROM generate_series(first_ledger / ledgers_per_partition, last_ledger / ledgers_per_partition) AS partition_number
  LOOP
    FOREACH parent IN ARRAY ARRAY['ledgers', 'ledger_transactions', 'account_transactions', 'account_sent', 'state_versions'] LOOP
      IF to_regclass(quote_ident(parent || '_' || partition_first)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
          parent || '_' || partition_first, parent, partition_first, partition_first + ledgers_per_partition);
      END IF;
    END LOOP;
  END LOOP;
END
$$;

-- The writer epoch. A ledger-store that becomes the writer (it holds the writer lock) raises it;
-- each write of the writer checks, first, that the epoch is still the one it raised, holding the row
-- until it commits. So a write of an earlier writer still in flight at a takeover either commits
-- before the new writer raises the epoch (which waits for it) and reads the bookkeeping, or fails.
CREATE TABLE writer_epoch (
  id smallint PRIMARY KEY CHECK (id = 1),
  epoch bigint NOT NULL
);
INSERT INTO writer_epoch VALUES (1, 0);

CREATE FUNCTION ledger_writer_check(expected bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM writer_epoch WHERE id = 1 AND epoch = expected FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'another ledger-store took over as the writer' USING ERRCODE = 'LN001';
  END IF;
END
$$;
