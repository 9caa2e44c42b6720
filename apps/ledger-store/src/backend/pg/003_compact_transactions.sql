-- Each transaction's engine result, type, signed blob and metadata as one compressed record
-- (apps/ledger-store/src/backend/transaction-record.ts: a codec byte, then the fields deflated).
-- PostgreSQL compresses only rows over about 2 kB, and a transaction's row is some 800 bytes: its
-- blob and metadata were kept as they are, most of the store's bytes. Compressed together (the
-- accounts a transaction names recur in its metadata) they take about two thirds.
--
-- Rows written before this migration keep their columns, the blob and metadata renamed
-- plain_tx_blob and plain_meta_blob (so that a release that does not know this migration fails to
-- read the table, loudly, rather than read a transaction without them); every row written from
-- now on has a record and none of those. Rewriting the old rows (ledger-node export, then import
-- into a new database) compresses them too.
ALTER TABLE ledger_transactions RENAME COLUMN tx_blob TO plain_tx_blob;
ALTER TABLE ledger_transactions RENAME COLUMN meta_blob TO plain_meta_blob;
ALTER TABLE ledger_transactions
  ALTER COLUMN engine_result DROP NOT NULL,
  ALTER COLUMN transaction_type DROP NOT NULL,
  ALTER COLUMN plain_tx_blob DROP NOT NULL,
  ALTER COLUMN plain_meta_blob DROP NOT NULL,
  ADD COLUMN record bytea;
