/** What the live follower and backfill share: where verified ledgers come from and where they go. */
import type { ChainProfile } from '@ledger-node/chain';
import type { Logger } from '@ledger-node/telemetry';
import type { IngestCounts } from './ingest';
import type { StoredChain } from './store/stored-chain';
import type { SyncHealth } from './sync-health';
import type { LedgerFetcher, VerificationCounter } from './verify/verified-fetch';

export interface LedgerPipeline {
  fetcher: LedgerFetcher;
  chain: StoredChain;
  profile: ChainProfile;
  logger: Logger;
  failures: VerificationCounter;
  /** Index failures and a stop, for the status. */
  health: SyncHealth;
  /** Ledgers stored, counted by source (live or backfill). */
  ingest: IngestCounts;
}
