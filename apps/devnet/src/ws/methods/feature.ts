/** rippled `feature` for a non-admin client: the known amendments, enabled as the validated ledger's Amendments object says. */
import { keylet } from '@ledger-node/chain';
import { amendmentsStateOf, featureAnswer } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

export const feature: MethodHandler = ({ request, source }) => {
  const validated = source.validatedLedger();
  // rippled answers before its first validated ledger too, with nothing enabled.
  const ledgerIndex = validated?.header.ledgerIndex;
  const amendments = ledgerIndex !== undefined && source.holdsState(ledgerIndex) ? source.stateEntry(keylet.amendments(), ledgerIndex)?.json : undefined;
  return featureAnswer(request, amendmentsStateOf(amendments));
};
