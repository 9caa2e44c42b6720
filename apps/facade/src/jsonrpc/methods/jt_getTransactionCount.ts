import { z } from 'zod';
import { OutOfRange } from '@ledger-node/errors';
import { accountIdOf } from '../../accounts/address';
import { defineMethod, param } from '../method';
import { accountAddress, stateBlockSelector } from '../params';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_getTransactionCount = defineMethod({
  name: 'jt_getTransactionCount',
  summary: 'The number of validated transactions the account sent (its Account field) up to and including a ledger.',
  params: [
    param('address', accountAddress, 'DATA, account address'),
    param('block', stateBlockSelector, 'QUANTITY or TAG: ledger number, ledger hash, or current, validated, closed'),
  ],
  result: z.number().int().nonnegative(),
  errors: ['outOfRange'],
  examples: [{ name: 'the sender of mainnet ledger 38129\'s payment', params: [ledger38129.sender, '38129'], result: rpcExamples.senderSentCount }],
  async handler([address, ledger], { queries, profile }) {
    const count = await queries.accountSentCount(accountIdOf(address, profile), ledger);
    if (!count.coversAccountLifetime) {
      // A count over part of an account's life would be silently wrong.
      throw new OutOfRange(
        `stored history starts at ledger ${count.earliestStoredLedgerIndex}, after account ${address} was created: its transaction count is unknown`,
        { earliest_stored_ledger: count.earliestStoredLedgerIndex, ledger_index: count.ledgerIndex },
      );
    }
    return Number(count.sentCount);
  },
});
