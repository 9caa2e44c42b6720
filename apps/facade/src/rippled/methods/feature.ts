/**
 * rippled `feature` for a non-admin client: the known amendments, enabled as the newest validated
 * ledger's Amendments object says (with each majority's close time). The node never votes:
 * `vetoed` is refused as rippled refuses it to a non-admin.
 */
import { keylet } from '@ledger-node/chain';
import { LedgerTag, TxDetail } from '@ledger-node/contracts';
import { amendmentsStateOf, featureAnswer } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { StateView } from './state';

export const feature: RippledMethod = async ({ params }, context) => {
  const record = await context.queries.ledger({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, TxDetail.NONE);
  // rippled answers before its first validated ledger too, with nothing enabled.
  const amendments = record ? await new StateView(context, record.ledgerIndex).readOne(keylet.amendments()) : undefined;
  return featureAnswer(params, amendmentsStateOf(amendments?.json));
};
