/** The chain a store holds: recorded with its first ledger, and a store of another chain refused at open. */
import type { Bookkeeping, LedgerBackend } from '../backend/backend';
import type { ChainIdentity } from '../backend/records';
import type { Holdings } from './holdings';

/** The chain a store is opened for: -chain and -network_id. */
export interface ChainOfStore {
  chain: string;
  networkId?: number;
}

export class StoreIdentity {
  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    /** The chain configured (-chain, -network_id): recorded with the first ledger. */
    private readonly configured: ChainOfStore | undefined,
  ) {}

  /** True while the store holds no recorded identity and one is configured: the next ledger stored names it. */
  get unrecorded(): boolean {
    return !this.holdings.chainIdentity && this.configured !== undefined;
  }

  /**
   * Refuses a store that holds another chain than the one configured (-chain, -network_id); a store
   * with ledgers and no identity (written before identities were recorded) is named by its highest.
   */
  async require(bookkeeping: Bookkeeping, configured: ChainOfStore): Promise<void> {
    const recorded = bookkeeping.chainIdentity;
    if (recorded) {
      if (recorded.chain !== configured.chain) {
        throw new Error(`${this.backend.location} holds a ${recorded.chain} chain, not the -chain ${configured.chain} one: give each chain its own -data_dir (or -database_name)`);
      }
      if (recorded.networkId !== undefined && configured.networkId !== undefined && recorded.networkId !== configured.networkId) {
        throw new Error(`${this.backend.location} holds the chain of network ${recorded.networkId}, not of -network_id ${configured.networkId}: give each network its own -data_dir (or -database_name)`);
      }
      return;
    }
    const highest = bookkeeping.completeRanges.at(-1)?.last;
    if (highest === undefined) return;
    const [header] = await this.backend.headers([highest]);
    if (header) await this.record(header.ledgerIndex, header.ledgerHash);
  }

  async record(ledgerIndex: number, ledgerHash: Buffer): Promise<void> {
    const identity: ChainIdentity = { ...this.configured!, ledgerIndex, ledgerHash: Buffer.from(ledgerHash) };
    await this.backend.recordChainIdentity(identity);
    this.holdings.chainIdentity = identity;
  }
}
