/**
 * One chain, one owner: the upstream's validated ledgers must be the stored ones wherever the store
 * holds the same index. An upstream that names another ledger at a stored index (a new devnet, a
 * network reset, an endpoint of another network) holds another chain: sync stops following it and
 * says so (status, /readyz, jt_syncing, server_info, one log line, a metric) instead of answering
 * as in sync beside a chain that is not the upstream's. At each new subscription the upstream's
 * hash at the store's identity ledger (its first anchor) is compared too, so an upstream far ahead
 * of the store is caught before its ledgers reach the stored ones.
 */
import type { Logger } from '@ledger-node/telemetry';
import type { ValidatedLedgerAnnouncement } from '../upstream/upstream';
import type { SyncHealth } from '../sync-health';
import type { StoredChain } from './stored-chain';

export interface ChainCheckOptions {
  chain: Pick<StoredChain, 'ranges' | 'link'>;
  health: Pick<SyncHealth, 'contradicted' | 'agreed' | 'contradiction'>;
  logger: Logger;
  /** The store's identity ledger (its first anchor), when it records one. */
  identity(): Promise<{ ledgerIndex: number; ledgerHash: string } | undefined>;
  /** The upstream's validated hash at an index; undefined when it does not hold that ledger. */
  upstreamHash(ledgerIndex: number): Promise<string | undefined>;
}

const hex = (bytes: Buffer) => bytes.toString('hex').toUpperCase();

/**
 * What becomes of an announced ledger: `follow` it (above the stored ledgers, or the stored one),
 * `contest` the stored ledger with it (another ledger at a stored index of the stored chain: the
 * stored one goes if the announced one is proven), or `ignore` it (another chain).
 */
export type ChainVerdict = 'follow' | 'contest' | 'ignore';

export class ChainCheck {
  constructor(private readonly options: ChainCheckOptions) {}

  /** What becomes of the announced ledger (ChainVerdict). */
  async verdict(announcement: ValidatedLedgerAnnouncement): Promise<ChainVerdict> {
    const { chain, health } = this.options;
    const unlessStopped = (): ChainVerdict => (health.contradiction === undefined ? 'follow' : 'ignore');
    if (!chain.ranges.has(announcement.ledgerIndex)) return unlessStopped();
    const link = await chain.link(announcement.ledgerIndex);
    if (!link) return unlessStopped();
    const stored = hex(link.ledgerHash);
    if (stored === announcement.ledgerHash.toUpperCase()) {
      health.agreed();
      return 'follow';
    }
    // Another ledger at a stored index: another chain, unless the upstream holds the store's identity
    // ledger as stored (then the stored ledger is the one in doubt: the announced one, once proven,
    // replaces it and the stored ledgers linked above it).
    const identity = await this.options.identity();
    const theirs = identity && identity.ledgerIndex !== announcement.ledgerIndex ? await this.options.upstreamHash(identity.ledgerIndex).catch(() => undefined) : undefined;
    if (identity && theirs?.toUpperCase() === identity.ledgerHash) {
      this.options.logger.debug({ ledgerIndex: announcement.ledgerIndex }, `the upstream names ledger ${announcement.ledgerIndex} ${announcement.ledgerHash}, the store holds ${stored}: the stored one goes if the upstream's is proven`);
      return 'contest';
    }
    this.contradicted(announcement.ledgerIndex, stored, announcement.ledgerHash);
    return 'ignore';
  }

  /** At a new subscription: the upstream's ledger at the store's identity ledger must be the stored one. */
  async onSubscribed(): Promise<void> {
    const identity = await this.options.identity();
    if (!identity) return;
    const theirs = await this.options.upstreamHash(identity.ledgerIndex).catch((error: unknown) => {
      this.options.logger.debug({ err: error }, `the upstream's ledger ${identity.ledgerIndex} could not be had to compare chains`);
      return undefined;
    });
    // An upstream that no longer holds that ledger is compared where the ledgers it announces meet the store.
    if (theirs === undefined) return;
    if (theirs.toUpperCase() !== identity.ledgerHash) this.contradicted(identity.ledgerIndex, identity.ledgerHash, theirs);
    else this.options.health.agreed();
  }

  private contradicted(ledgerIndex: number, ours: string, theirs: string): void {
    this.options.health.contradicted(`stored chain is not the upstream's: ledger ${ledgerIndex} is ${ours} here and ${theirs.toUpperCase()} there`);
  }
}
