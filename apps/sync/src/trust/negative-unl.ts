/**
 * The negative UNL a ledger is proven with: as rippled sets it before each consensus round
 * (NetworkOPs::beginConsensus, `prevLedger->negativeUNL()`), the NegativeUNL object of the ledger's
 * parent. It changes only on flag ledgers, so one reading serves every ledger up to the next flag
 * ledger. It is read from the proven state when sync holds the parent's, else from the upstream
 * (`ledger_entry` at the parent's hash): an upstream's word can lower the quorum at most to 60% of
 * the trusted validators, whose own signatures it still cannot forge.
 */
import { FLAG_LEDGER_INTERVAL, keylet, readNegativeUnl, type ChainProfile, type StateTree } from '@ledger-node/chain';
import { UpstreamRequestError, type BinaryLedgerEntryResult } from '@ledger-node/upstream';
import type { NegativeUnlReading } from '../verify/anchor-proof';

export interface NegativeUnlSourceOptions {
  profile: ChainProfile;
  /** The proven state after a ledger, when sync holds it. */
  stateAfter(ledgerIndex: number): StateTree | undefined;
  ledgerEntry(objectKey: string, ledgerHash: string): Promise<BinaryLedgerEntryResult>;
}

const flagPeriod = (ledgerIndex: number) => Math.floor(ledgerIndex / FLAG_LEDGER_INTERVAL);

export class NegativeUnlSource {
  private readonly key = keylet.negativeUnl();
  /** The last reading and the ledger whose state it is. */
  private last: { ledgerIndex: number; reading: NegativeUnlReading } | undefined;

  constructor(private readonly options: NegativeUnlSourceOptions) {}

  async read(ledgerIndex: number, parentHash: string): Promise<NegativeUnlReading> {
    const parent = ledgerIndex - 1;
    if (parent < 1) return { keys: new Set(), source: 'state' };
    const tree = this.options.stateAfter(parent);
    if (tree) return this.remember(parent, { keys: this.decode(tree.get(this.key)), source: 'state' });
    const last = this.last;
    // Between flag ledgers the object stays as it was (rippled Ledger::updateNegativeUNL runs on flag ledgers only).
    if (last && last.ledgerIndex <= parent && flagPeriod(last.ledgerIndex) === flagPeriod(parent)) return last.reading;
    try {
      const entry = await this.options.ledgerEntry(this.key, parentHash);
      return this.remember(parent, { keys: this.decode(Buffer.from(entry.node_binary, 'hex')), source: 'upstream' });
    } catch (error) {
      if (error instanceof UpstreamRequestError && error.errorCode === 'entryNotFound') return this.remember(parent, { keys: new Set(), source: 'upstream' });
      throw error;
    }
  }

  private decode(blob: Buffer | undefined): Set<string> {
    return blob === undefined ? new Set() : readNegativeUnl(this.options.profile, blob);
  }

  private remember(ledgerIndex: number, reading: NegativeUnlReading): NegativeUnlReading {
    this.last = { ledgerIndex, reading };
    return reading;
  }
}
