-- A ledger's transactions in runs of consecutive tx indexes (groups), one row a group of at most
-- one heap page (apps/ledger-store/src/backend/transaction-record.ts): `hashes` names each
-- transaction of the group (its offset from first_tx_index, one byte, and its hash), `record` holds
-- them all deflated together. Each transaction deflated alone in its own row
-- (pg/003_compact_transactions.sql) took some 480 bytes and a row header, key entry and hash
-- column beside it; deflated together they share their field codes, metadata layout and accounts.
-- Each partition keeps its rows inline up to a page (toast_tuple_target 8160, set where
-- ledger_partitions_cover creates it): a group is read with one page, and rows that fill their
-- pages leave none of the space that values split into TOAST chunks leave.
--
-- The hash lookup names each transaction by the first 8 bytes of its hash (a bigint) and its place
-- in history (a position, pg/005_account_numbers.sql): a 16-byte row and key where the 32-byte hash
-- and two bigints were. A read takes the group that holds the position and finds the whole hash in
-- its `hashes` (two transactions whose hashes share 8 bytes each have a row; a hash stored in two
-- ledgers, both: the later one is read).
--
-- Rows of ledger_transactions written before this migration stay and are read as they were; every
-- transaction written from now on is in a group. Their hash lookups are carried over.
--
-- The account index keeps one row per account and ledger, its entries packed in tx index order,
-- where each entry was a row (pg/005_account_numbers.sql): an account a ledger names several times
-- (an issuer on every trust line a payment ripples through, a market maker, an exchange) pays one
-- row header and one key for all of them. The entries of account_history are carried over, and
-- the table dropped.
CREATE TABLE transaction_groups (
  ledger_index bigint NOT NULL,
  first_tx_index bigint NOT NULL CHECK (first_tx_index BETWEEN 0 AND 4294967295),
  hashes bytea NOT NULL CHECK (octet_length(hashes) BETWEEN 33 AND 33 * 256 AND octet_length(hashes) % 33 = 0),
  record bytea NOT NULL,
  PRIMARY KEY (ledger_index, first_tx_index)
) PARTITION BY RANGE (ledger_index);

CREATE TABLE transaction_hashes (
  hash_prefix bigint NOT NULL,
  position bigint NOT NULL,
  PRIMARY KEY (hash_prefix, position)
);

-- The transactions that touch each account in each ledger: per transaction 7 bytes, its tx index
-- (u32), direction (1 in, 2 out: common.v1.Direction) and transaction type number (u16, 0: not
-- recorded), big-endian, in tx index order.
CREATE TABLE account_ledger_entries (
  account_number bigint NOT NULL,
  ledger_index bigint NOT NULL,
  entries bytea NOT NULL CHECK (octet_length(entries) > 0 AND octet_length(entries) % 7 = 0),
  PRIMARY KEY (account_number, ledger_index)
) PARTITION BY RANGE (ledger_index);

-- One entry as account_ledger_entries packs it.
CREATE FUNCTION account_entry(tx_index bigint, direction smallint, type_number smallint) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT substring(int8send(tx_index) FROM 5 FOR 4) || set_byte('\x00'::bytea, 0, direction) || int2send(coalesce(type_number, 0::smallint))
$$;

-- The first 8 bytes of a hash as a bigint (big-endian, two's complement), as the ledger-store writes them.
CREATE FUNCTION transaction_hash_prefix(hash bytea) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT ('x' || encode(substring(hash FROM 1 FOR 8), 'hex'))::bit(64)::bigint $$;

INSERT INTO transaction_hashes (hash_prefix, position)
  SELECT transaction_hash_prefix(hash), ledger_position(ledger_index, tx_index) FROM transactions;
DROP TABLE transactions;

-- The partitions of the tables that grow with history (pg/005_account_numbers.sql), now with
-- transaction_groups (each partition keeping rows of a page inline) and account_ledger_entries.
CREATE OR REPLACE FUNCTION ledger_partitions_cover(first_ledger bigint, last_ledger bigint, ledgers_per_partition bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  parent text;
  partition_first bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('ledger-node partitions'));
  FOR partition_first IN
    SELECT partition_number * ledgers_per_partition FROM generate_series(first_ledger / ledgers_per_partition, last_ledger / ledgers_per_partition) AS partition_number
  LOOP
    FOREACH parent IN ARRAY ARRAY['ledgers', 'ledger_transactions', 'transaction_groups', 'account_ledger_entries', 'account_sent_by_ledger', 'state_versions', 'ledger_evidence'] LOOP
      IF to_regclass(quote_ident(parent || '_' || partition_first)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)%s',
          parent || '_' || partition_first, parent, partition_first, partition_first + ledgers_per_partition,
          CASE WHEN parent = 'transaction_groups' THEN ' WITH (toast_tuple_target = 8160)' ELSE '' END);
      END IF;
    END LOOP;
  END LOOP;
END
$$;

-- The account index written before this migration, carried over.
SELECT ledger_partitions_cover(span.first_ledger, span.last_ledger, convert_from(meta.value, 'UTF8')::bigint)
  FROM (SELECT min((position >> 32) + 2147483648) AS first_ledger, max((position >> 32) + 2147483648) AS last_ledger FROM account_history) AS span, store_meta AS meta
  WHERE meta.name = 'ledgers_per_partition' AND span.first_ledger IS NOT NULL;
INSERT INTO account_ledger_entries (account_number, ledger_index, entries)
  SELECT account_number, (position >> 32) + 2147483648, string_agg(account_entry(position & 4294967295, direction, type_number), ''::bytea ORDER BY position)
  FROM account_history GROUP BY account_number, (position >> 32) + 2147483648;
DROP TABLE account_history;
