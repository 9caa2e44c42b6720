import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { readFixture } from '@ledger-node/test-utils';
import type { Clients } from '../clients';
import { ledgerClosedText } from '../rippled/streams';
import { STATE_LEDGER, TestChain, withFeeSettings, type FixtureLedger } from '../rippled/methods/test-context';
import { CatchUpBudget, ClientCatchUps } from './catch-up';
import { LedgerFollower } from './follower';

const xrpl = getProfile('xrpl');
const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const logger = createLogger('follower-test', 'silent');
/** Fees unlike the profile's, as a FeeSettings object may state them after a fee vote. */
const voted = { baseFee: 12n, reserveBase: 10_000_000n, reserveIncrement: 2_000_000n };

/** A follower over a chain of the one fixture ledger; it is only read from, never started. */
function followerOf(chain: TestChain): LedgerFollower {
  return new LedgerFollower({} as Clients, chain.context.queries, xrpl, logger, { maxResumeLedgers: 256, budget: new CatchUpBudget(100), clients: new ClientCatchUps() });
}

describe('the stream follower', () => {
  it('reads each ledger with the fees its FeeSettings object states, and the ledger stream says them', async () => {
    const follower = followerOf(new TestChain({ profile: xrpl, ledgers: [withFeeSettings(fixture, voted)] }));
    const ledger = (await follower.ledger(38129))!;
    expect(ledger.fees).toEqual(voted);
    expect(JSON.parse(ledgerClosedText(ledger, { profile: xrpl, networkId: 0 }))).toMatchObject({
      type: 'ledgerClosed',
      ledger_index: 38129,
      fee_base: 12,
      fee_ref: 12,
      reserve_base: 10_000_000,
      reserve_inc: 2_000_000,
      network_id: 0,
    });
  });

  it("takes the profile's fees for a ledger whose state the store does not hold", async () => {
    const follower = followerOf(new TestChain({ profile: xrpl, ledgers: [withFeeSettings(fixture, voted)], stateHeld: () => false }));
    expect((await follower.ledger(38129))!.fees).toEqual({ baseFee: xrpl.baseFee, reserveBase: xrpl.reserveBase, reserveIncrement: xrpl.reserveIncrement });
  });
});
