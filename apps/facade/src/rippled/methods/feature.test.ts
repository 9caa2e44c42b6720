import { describe, expect, it } from 'vitest';
import { getProfile, keylet } from '@ledger-node/chain';
import { amendmentId, type JsonObject } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import { feature } from './feature';
import { request, STATE_LEDGER, TestChain, type FixtureLedger } from './test-context';

const xrpl = getProfile('xrpl');

describe('feature (node)', () => {
  const state = readFixture<FixtureLedger>(STATE_LEDGER);
  const enabled = [amendmentId('MultiSign'), amendmentId('Flow')];
  const amendments = { LedgerEntryType: 'Amendments', Flags: 0, Amendments: enabled, index: keylet.amendments() };
  const chain = new TestChain({ profile: xrpl, ledgers: [{ ledger: { ...state.ledger, accountState: [...state.ledger.accountState, amendments] } }] });

  it("reads what is enabled from the validated ledger's Amendments object", async () => {
    const { features } = (await feature(request({}), chain.context)) as { features: Record<string, JsonObject> };
    expect(features[enabled[0]!]).toEqual({ enabled: true, name: 'MultiSign', supported: true });
    expect(features[amendmentId('AMM')]).toEqual({ enabled: false, name: 'AMM', supported: true });
    expect(await feature(request({ feature: 'Flow' }), chain.context)).toEqual({ [enabled[1]!]: { enabled: true, name: 'Flow', supported: true } });
  });

  it('answers nothing enabled for a ledger without the object', async () => {
    const bare = new TestChain({ profile: xrpl, ledgers: [state] });
    expect(await feature(request({ feature: 'Flow' }), bare.context)).toEqual({ [enabled[1]!]: { enabled: false, name: 'Flow', supported: true } });
  });
});
