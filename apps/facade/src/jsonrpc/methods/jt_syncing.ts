import { defineMethod } from '../method';
import { syncStatusSchema } from '../../format/schemas';

/**
 * SPEC §2.2: the sync status object while the node is behind the upstream by more than one ledger, else
 * false. While sync cannot store a verified ledger, the object also says so: `status: "stopped at ledger N: <reason>"`.
 */
export const jt_syncing = defineMethod({
  name: 'jt_syncing',
  summary:
    'The sync status object (startingBlock, currentBlock, highestBlock) while the node catches up, with status "stopped at ledger N: <reason>" while a verified ledger cannot be stored; false when in sync or when sync is off.',
  params: [],
  result: syncStatusSchema,
  errors: [],
  examples: [
    { name: 'in sync', params: [], result: false },
    { name: 'catching up', params: [], result: { startingBlock: 38000, currentBlock: 38129, highestBlock: 38400 } },
  ],
  async handler(_params, { syncStatus, syncEnabled }) {
    if (!syncEnabled) return false as const;
    const status = await syncStatus.status();
    if (!status.syncing && status.stopped === undefined) return false as const;
    const progress = { startingBlock: status.startingLedgerIndex, currentBlock: status.currentLedgerIndex, highestBlock: status.highestLedgerIndex };
    // A sync that cannot store ledgers is not in sync, whatever the lag says.
    return status.stopped === undefined ? progress : { ...progress, status: status.stopped };
  },
});
