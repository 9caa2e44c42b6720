import { z } from 'zod';
import { accountIdOf } from '../../accounts/address';
import { coinEntry } from '../../accounts/balances';
import { accountState } from '../../accounts/state';
import { defineMethod, param } from '../method';
import { accountAddress, stateBlockSelector } from '../params';
import { ledger38129, rpcExamples } from '../../format/examples';

const coinSchema = z.looseObject({
  account: z.string().describe("the trust line's other account"),
  balance: z.string().describe('the balance in units of the currency, a decimal string'),
  currency: z.string(),
  limit: z.string().describe("this account's limit, in units of the currency"),
  limit_peer: z.string().describe("the other account's limit, in units of the currency"),
  quality_in: z.number().int(),
  quality_out: z.number().int(),
});

/** SPEC §2.3 and rule 8: the balances at a stored ledger, and which ledger answered. */
export const jt_getBalance = defineMethod({
  name: 'jt_getBalance',
  summary: "An account's native balance and trust lines at a ledger, with the ledger used (hash, index, validated).",
  params: [
    param('address', accountAddress, 'DATA, account address'),
    param('block', stateBlockSelector, 'QUANTITY or TAG: ledger number, ledger hash, or current, validated, closed'),
  ],
  result: z.object({
    account: z.string(),
    balance: z.string().regex(/^\d+$/).describe('the native balance in drops, an integer as a decimal string'),
    coins: z.array(coinSchema),
    ledger_hash: z.string().regex(/^[0-9A-F]{64}$/),
    ledger_index: z.number().int(),
    validated: z.boolean(),
  }),
  // The balances at a stored (validated) ledger never change: kept once answered for a ledger named
  // by index. A tag is resolved by the store each time (it moves).
  errors: ['outOfRange', 'accountNotFound'],
  examples: [{ name: 'an account with a USD trust line at mainnet ledger 38129', params: [ledger38129.lineHolder, '38129'], result: rpcExamples.balance }],
  async handler([address, ledger], context) {
    const render = async () => {
      const state = await accountState(address, accountIdOf(address, context.profile), ledger, context);
      return {
        account: state.account,
        balance: state.balance,
        coins: state.lines.map((line) => coinEntry(line, context.profile)),
        ledger_hash: state.ledgerHash,
        ledger_index: state.ledgerIndex,
        validated: true,
      };
    };
    if (ledger.selector?.$case !== 'index') return render();
    return (await context.queries.kept(`balance:${address}:${ledger.selector.index}`, render))!;
  },
});
