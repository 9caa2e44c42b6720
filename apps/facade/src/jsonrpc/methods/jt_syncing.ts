import { defineMethod } from '../method';
import { syncStatusSchema } from '../../format/schemas';

/** SPEC §2.2: the sync status object while the node is behind the upstream by more than one ledger, else false. */
export const jt_syncing = defineMethod({
  name: 'jt_syncing',
  summary: 'The sync status object (startingBlock, currentBlock, highestBlock) while the node catches up; false when in sync or when sync is off.',
  params: [],
  result: syncStatusSchema,
  async handler(_params, { clients, syncEnabled }) {
    if (!syncEnabled) return false as const;
    const status = await clients.sync.getSyncStatus({});
    if (!status.syncing) return false as const;
    return { startingBlock: status.startingLedgerIndex, currentBlock: status.currentLedgerIndex, highestBlock: status.highestLedgerIndex };
  },
});
