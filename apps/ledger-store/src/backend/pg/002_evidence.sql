-- The evidence that proved each ledger followed live (the buckets ledgerEvidence, validatorList and
-- manifest of the key-value layout, storage/buckets.ts), as PgLedgerBackend reads and writes it.
-- A store without rows here holds ledgers without evidence: the store format stays 1.

-- Each ledger's evidence record, encoded as the key-value layout encodes it
-- (repositories/evidence.ts): its validations and quorum, its lists and manifests by key.
-- Partitioned with the ledgers, and removed with its ledger.
CREATE TABLE ledger_evidence (
  ledger_index bigint NOT NULL,
  record bytea NOT NULL,
  PRIMARY KEY (ledger_index)
) PARTITION BY RANGE (ledger_index);

-- Validator list documents (ledgerstore.proto ValidatorListDocument, encoded) by publisher key and
-- sequence, each once however many ledgers name it; kept when no stored ledger names it any more.
CREATE TABLE validator_lists (
  publisher_key bytea NOT NULL CHECK (octet_length(publisher_key) = 33),
  sequence bigint NOT NULL,
  document bytea NOT NULL,
  PRIMARY KEY (publisher_key, sequence)
);

-- Serialized manifests by master key and sequence, each once, kept as the lists are.
CREATE TABLE manifests (
  master_key bytea NOT NULL CHECK (octet_length(master_key) = 33),
  sequence bigint NOT NULL,
  manifest bytea NOT NULL,
  PRIMARY KEY (master_key, sequence)
);

-- ledger_partitions_cover (001_initial.sql) creates the evidence's partitions beside the others'
-- (in a database written before this migration too: a writer covers each partition it writes to
-- at its first write there).
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
    FOREACH parent IN ARRAY ARRAY['ledgers', 'ledger_transactions', 'account_transactions', 'account_sent', 'state_versions', 'ledger_evidence'] LOOP
      IF to_regclass(quote_ident(parent || '_' || partition_first)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
          parent || '_' || partition_first, parent, partition_first, partition_first + ledgers_per_partition);
      END IF;
    END LOOP;
  END LOOP;
END
$$;
