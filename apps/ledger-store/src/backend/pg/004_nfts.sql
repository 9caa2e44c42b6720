-- The NFT index (the buckets nftTransaction and nftState of the key-value layout,
-- storage/buckets.ts), as PgLedgerBackend reads and writes it: derived by the writer from each
-- ledger's NFToken transactions (libs/chain nft-index.ts), written and removed with the ledger.
-- A store written before this migration holds no entries for its earlier ledgers.

-- The transactions that touched each NFToken (Clio's nft_history).
CREATE TABLE nft_transactions (
  nft_id bytea NOT NULL CHECK (octet_length(nft_id) = 32),
  ledger_index bigint NOT NULL,
  tx_index bigint NOT NULL,
  PRIMARY KEY (nft_id, ledger_index, tx_index)
);

-- Each NFToken as each ledger that changed it left it (Clio's nft_info): its owner, whether
-- burned, its URI (empty for none).
CREATE TABLE nft_states (
  nft_id bytea NOT NULL CHECK (octet_length(nft_id) = 32),
  ledger_index bigint NOT NULL,
  owner_account_id bytea NOT NULL CHECK (octet_length(owner_account_id) = 20),
  burned boolean NOT NULL,
  uri bytea NOT NULL,
  PRIMARY KEY (nft_id, ledger_index)
);
