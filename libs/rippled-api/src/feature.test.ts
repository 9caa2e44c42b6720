import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { RpcError } from './errors';
import { amendmentId, amendmentsStateOf, featureAnswer } from './feature';
import type { JsonObject } from './protocol';

/** The mainnet Amendments object as EnableAmendment 2B09DC01 left it (ledger 56043009). */
function recordedAmendments(): JsonObject {
  const tx = readFixture<JsonObject>('xrpl/corpus/transactions/EnableAmendment-2B09DC01.json');
  const nodes = (tx.meta as JsonObject).AffectedNodes as JsonObject[];
  const modified = nodes.map((node) => node.ModifiedNode as JsonObject | undefined).find((node) => node?.LedgerEntryType === 'Amendments')!;
  return modified.FinalFields as JsonObject;
}

const MULTI_SIGN = '4C97EBA926031A7CF7D7B36FDE3ED66DDA5421192D63DE53FFB46E43B9DC8373';
const FLOW = '740352F2412A9909880C23A559FCECEDA3BE2126FED62FC7660D628A06927F11';

function errorOf(params: JsonObject): string | undefined {
  try {
    featureAnswer(params, amendmentsStateOf(recordedAmendments()));
    return undefined;
  } catch (error) {
    if (error instanceof RpcError) return `${error.token}: ${error.message}`;
    throw error;
  }
}

describe('feature (non-admin)', () => {
  const state = amendmentsStateOf(recordedAmendments());

  it("names an amendment by the SHA-512Half of its name, as rippled's ids are made", () => {
    expect(amendmentId('MultiSign')).toBe(MULTI_SIGN);
    expect(amendmentId('Flow')).toBe(FLOW);
  });

  it('lists every known amendment, enabled as the Amendments object says, without vetoed', () => {
    const { features } = featureAnswer({}, state) as { features: Record<string, JsonObject> };
    expect(features[MULTI_SIGN]).toEqual({ enabled: true, name: 'MultiSign', supported: true });
    expect(features[amendmentId('AMM')]).toEqual({ enabled: false, name: 'AMM', supported: true });
    expect(features[amendmentId('MPTokensV2')]).toEqual({ enabled: false, name: 'MPTokensV2', supported: false });
    expect(Object.values(features).some((amendment) => 'vetoed' in amendment)).toBe(false);
    expect(Object.keys(features)).toEqual([...Object.keys(features)].sort());
    // Every id the ledger enables is listed, known or not.
    for (const id of recordedAmendments().Amendments as string[]) expect(features[id]?.enabled).toBe(true);
  });

  it('adds the close time at which an amendment gained its majority', () => {
    const { features } = featureAnswer({}, state) as { features: Record<string, JsonObject> };
    expect(features['157D2D480E006395B76F948E3E07A45A05FE10230D88A7993C71F97AE4B1F2D1']?.majority).toBe(644544780);
    expect(featureAnswer({ feature: '157D2D480E006395B76F948E3E07A45A05FE10230D88A7993C71F97AE4B1F2D1' }, state).majority).toBe(644544780);
  });

  it('answers one amendment by name or by id', () => {
    expect(featureAnswer({ feature: 'Flow' }, state)).toEqual({ [FLOW]: { enabled: true, name: 'Flow', supported: true } });
    expect(featureAnswer({ feature: FLOW.toLowerCase() }, state)).toEqual({ [FLOW]: { enabled: true, name: 'Flow', supported: true } });
    expect(featureAnswer({ feature: 'AMM' }, amendmentsStateOf(undefined))).toEqual({ [amendmentId('AMM')]: { enabled: false, name: 'AMM', supported: true } });
  });

  it("answers rippled's errors: unknown feature, vetoed from a non-admin, a non-string feature", () => {
    expect(errorOf({ feature: 'AllTheThings' })).toBe('badFeature: Feature unknown or invalid.');
    expect(errorOf({ feature: 'AB'.repeat(32) })).toBe('badFeature: Feature unknown or invalid.');
    expect(errorOf({ feature: 'Flow', vetoed: true })).toBe("noPermission: You don't have permission for this command.");
    expect(errorOf({ feature: 7 })).toBe('invalidParams: Invalid parameters.');
  });
});
