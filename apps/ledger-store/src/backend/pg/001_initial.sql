-- The LedgerStore tables (store format 1), as PgLedgerBackend (../pg-backend.ts) reads and writes them.
-- Each table holds what one key bucket of the key-value layout holds (storage/buckets.ts), with the
-- same key as its primary key. Ledger and transaction indexes are u32: bigint columns. Bytes
-- compare bytewise (bytea), so key order is the key-value layout's order.

-- Ledger headers; the unique hash is the hash → index lookup.
CREATE TABLE ledgers (
  ledger_index bigint PRIMARY KEY CHECK (ledger_index BETWEEN 0 AND 4294967295),
  ledger_hash bytea NOT NULL UNIQUE CHECK (octet_length(ledger_hash) = 32),
  -- The binary header as rippled serializes it (118 bytes, without the 'LWR\0' prefix).
  header bytea NOT NULL,
  transaction_count bigint NOT NULL
);

-- Transactions by hash; a hash stored again (in another ledger) is overwritten, as in the key-value layout.
CREATE TABLE transactions (
  hash bytea PRIMARY KEY CHECK (octet_length(hash) = 32),
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL,
  engine_result text NOT NULL,
  transaction_type text NOT NULL,
  tx_blob bytea NOT NULL,
  meta_blob bytea NOT NULL
);

-- The transactions of each ledger in tx index order.
CREATE TABLE ledger_transactions (
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL,
  hash bytea NOT NULL,
  PRIMARY KEY (ledger_index, tx_index)
);

-- The transactions that touch each account: direction 1 in, 2 out (common.v1.Direction); the
-- transaction type so that type filters page through the index alone (NULL: not recorded).
CREATE TABLE account_transactions (
  account_id bytea NOT NULL CHECK (octet_length(account_id) = 20),
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL,
  direction smallint NOT NULL CHECK (direction IN (1, 2)),
  transaction_type text,
  PRIMARY KEY (account_id, ledger_index, tx_index)
);

-- Transactions each account sent in each ledger, and per block of 2^16 ledgers (block =
-- ledger_index >> 16), so that a count up to a ledger sums the blocks below and one block's ledgers
-- (repositories/accounts.ts).
CREATE TABLE account_sent (
  account_id bytea NOT NULL,
  ledger_index bigint NOT NULL,
  sent bigint NOT NULL,
  PRIMARY KEY (account_id, ledger_index)
);

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
);

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
-- format_version, complete_ranges, counters, state_ranges, download.
CREATE TABLE store_meta (
  name text PRIMARY KEY,
  value bytea NOT NULL
);
