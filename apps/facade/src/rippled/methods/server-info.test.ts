import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { fee } from './fee';
import { serverInfo, serverState } from './server-info';
import { request, STATE_LEDGER, TestChain, withFeeSettings, type FixtureLedger } from './test-context';

const fixture = readFixture<FixtureLedger>(STATE_LEDGER);
const xrpl = getProfile('xrpl');

const withFees = (ledger: FixtureLedger) => withFeeSettings(ledger, { baseFee: 10n, reserveBase: 1_000_000n, reserveIncrement: 200_000n });

describe('server_info', () => {
  it('reports the stored range, the newest validated ledger with its fees, and "full" while sync is level', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [withFees(fixture)] });
    const { info } = (await serverInfo(request({}), chain.context)) as { info: Record<string, any> };
    expect(info).toMatchObject({ complete_ledgers: '38129', server_state: 'full', load_factor: 1, peers: 1, build_version: expect.any(String) });
    expect(info.validated_ledger).toMatchObject({ seq: 38129, hash: fixture.ledger.ledger_hash, base_fee_xrp: 0.00001, reserve_base_xrp: 1, reserve_inc_xrp: 0.2 });
    expect(info.network_id).toBeUndefined();
  });

  it('states the -network_id given, in server_info and server_state alike', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [fixture], networkId: 1 });
    expect(((await serverInfo(request({}), chain.context)) as { info: Record<string, any> }).info.network_id).toBe(1);
    expect(((await serverState(request({}), chain.context)) as { state: Record<string, any> }).state.network_id).toBe(1);
  });

  it('falls back to the profile fees when the ledger holds no FeeSettings, and names the sync state', async () => {
    const syncing = new TestChain({ profile: xrpl, ledgers: [fixture], sync: { syncing: true } });
    const { info } = (await serverInfo(request({}), syncing.context)) as { info: Record<string, any> };
    expect(info.server_state).toBe('syncing');
    expect(info.validated_ledger.base_fee_xrp).toBe(Number(xrpl.baseFee) / 1e6);
    // Level with the upstream, but the account state of the validated ledger cannot be read yet: not full.
    const stateless = new TestChain({ profile: xrpl, ledgers: [fixture], sync: { stateReady: false, stateNotReady: 'the account state download is not complete' } });
    expect(((await serverInfo(request({}), stateless.context)) as { info: Record<string, any> }).info.server_state).toBe('syncing');
    const offline = new TestChain({ profile: xrpl, ledgers: [fixture], sync: { upstreamConnected: false } });
    expect(((await serverInfo(request({}), offline.context)) as { info: Record<string, any> }).info.server_state).toBe('connected');
  });

  it('server_state gives fees in drops and load factors in units of 256', async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [withFees(fixture)] });
    const { state } = (await serverState(request({}), chain.context)) as { state: Record<string, any> };
    expect(state).toMatchObject({ load_base: 256, load_factor: 256, server_state: 'full' });
    expect(state.validated_ledger).toEqual({ base_fee: 10, close_time: fixture.ledger.close_time, hash: fixture.ledger.ledger_hash, reserve_base: 1000000, reserve_inc: 200000, seq: 38129 });
  });

  it('has no validated_ledger while nothing is stored', async () => {
    const empty = new TestChain({ profile: xrpl, ledgers: [] });
    const { info } = (await serverInfo(request({}), empty.context)) as { info: Record<string, any> };
    expect(info.complete_ledgers).toBe('empty');
    expect(info.validated_ledger).toBeUndefined();
  });
});

describe('fee', () => {
  it("answers the FeeSettings base fee at every level and the ledger after the newest stored one", async () => {
    const chain = new TestChain({ profile: xrpl, ledgers: [withFees(fixture)] });
    expect(await fee(request({}), chain.context)).toMatchObject({
      current_ledger_size: '0',
      current_queue_size: '0',
      drops: { base_fee: '10', minimum_fee: '10', open_ledger_fee: '10', median_fee: '5000' },
      ledger_current_index: 38130,
      levels: { reference_level: '256', minimum_level: '256', open_ledger_level: '256' },
    });
  });

  it('reads the older hex BaseFee of a FeeSettings object', async () => {
    const older = withFees(fixture);
    const settings = older.ledger.accountState.at(-1);
    Object.assign(settings, { BaseFee: '000000000000000C', ReferenceFeeUnits: 10, ReserveBase: 20000000, ReserveIncrement: 5000000 });
    delete settings.BaseFeeDrops;
    delete settings.ReserveBaseDrops;
    delete settings.ReserveIncrementDrops;
    const chain = new TestChain({ profile: xrpl, ledgers: [older] });
    expect(((await fee(request({}), chain.context)).drops as Record<string, string>).base_fee).toBe('12');
  });
});
