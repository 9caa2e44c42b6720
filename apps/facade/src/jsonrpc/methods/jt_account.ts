import { z } from 'zod';
import { Direction } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';
import { accountIdOf } from '../../accounts/address';
import { historyEntry } from '../../accounts/history';
import { defineMethod, param } from '../method';
import { accountAddress } from '../params';
import { ledger38129, rpcExamples } from '../../format/examples';

/** Largest page jt_account returns; also the ceiling of the default "all transactions". */
export const maxHistoryPage = 1000;

/** History entries one call may return per unit of batch weight: a page of 1000 weighs as a block with full transactions. */
const ENTRIES_PER_WEIGHT = 100;

const directions = { in: Direction.IN, out: Direction.OUT, both: Direction.BOTH } as const;

export const jt_account = defineMethod({
  name: 'jt_account',
  summary: `An account's transaction history, a page at a time (at most ${maxHistoryPage} per page).`,
  params: [
    param('address', accountAddress, 'STRING, account address'),
    param('page', z.number({ error: 'expected a page number' }).int('expected a whole page number').min(0, 'expected a page number from 0').max(0xffffffff, 'expected a page number below 2^32').default(0), 'INT, start page (default 0)', { optional: true }),
    param(
      'perPage',
      z.number({ error: 'expected a page size' }).int('expected a whole page size').min(1, 'expected a page size from 1').max(maxHistoryPage, `the page size is at most ${maxHistoryPage}`).optional(),
      `INT, transactions per page (default all, at most ${maxHistoryPage})`,
      { optional: true },
    ),
    param('newestFirst', z.boolean({ error: 'expected true or false' }).default(true), 'BOOL, newest transactions first (default true)', { optional: true }),
    param('direction', z.enum(['in', 'out', 'both'], { error: 'expected "in", "out" or "both"' }).default('both'), 'STRING, in, out or both (default both)', { optional: true }),
  ],
  result: z.array(
    z.looseObject({
      amount: z.string().describe('a native amount in drops (an integer as a decimal string); an issued amount in units of its currency, with currency and issuer beside it'),
      date: z.string().describe("when the transaction's ledger closed, ISO 8601 with a UTC offset"),
      from_address: z.string(),
      hash: z.string(),
      to_address: z.string(),
      type: z.string(),
    }),
  ),
  errors: ['outOfRange'],
  // By the page it may return: perPage when it is a page size, else the whole -max_page_size.
  weight: ([, , perPage], { maxPageSize }) => {
    const size = typeof perPage === 'number' && Number.isInteger(perPage) && perPage >= 1 ? Math.min(perPage, maxPageSize) : maxPageSize;
    return Math.max(1, Math.ceil(size / ENTRIES_PER_WEIGHT));
  },
  examples: [{ name: 'the first page of the sender of mainnet ledger 38129\'s payment', params: [ledger38129.sender, 0, 1], result: [rpcExamples.historyEntry] }],
  async handler([address, page, perPage, newestFirst, direction], { queries, profile, maxPageSize }) {
    if (perPage !== undefined && perPage > maxPageSize) throw new InvalidParams(`invalid parameter 3 (perPage): the page size is at most ${maxPageSize}`, 'perPage');
    const { transactions, marker } = await queries.accountTransactions({
      accountId: accountIdOf(address, profile),
      direction: directions[direction],
      forward: !newestFirst,
      limit: perPage ?? maxPageSize,
      position: { $case: 'page', page },
      ledgerRange: undefined,
      transactionType: '',
    });
    if (perPage === undefined && page === 0 && marker.length > 0) {
      throw new InvalidParams(`account ${address} has more than ${maxPageSize} transactions: give perPage (at most ${maxPageSize}) and page`, 'perPage');
    }
    return transactions.map((record) => historyEntry(record, profile));
  },
});
