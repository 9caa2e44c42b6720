/**
 * rippled `feature` as it answers a non-admin client (Feature.cpp, AmendmentTable::getJson): every
 * amendment the server knows, by id, with its `name`, whether the server `supported` it and whether
 * the validated ledger has it `enabled` (its Amendments object); `majority` from the object's
 * Majorities. `feature: <name or id>` answers one. A non-admin client never sees `vetoed` and may
 * not set it (noPermission).
 *
 * The known amendments are rippled's features.macro (develop, 2025): XRPL_FEATURE(X) is named X,
 * XRPL_FIX(X) fixX; retired ones stay known and supported. An amendment's id is the SHA-512Half of
 * its name (rippled Feature.cpp). An enabled amendment the table does not know is listed without a
 * name and unsupported, as rippled's table adds it.
 */
import { createHash } from 'node:crypto';
import { RpcError } from './errors';
import type { JsonObject } from './protocol';

/** Active amendments, newest first, with rippled's Supported flag. */
const ACTIVE: ReadonlyArray<[name: string, supported: boolean]> = [
  ['fixPseudoAccountOwnership', true],
  ['fixCleanup3_4_0', true],
  ['Sponsor', true],
  ['BatchV1_1', true],
  ['LendingProtocolV1_1', true],
  ['ConfidentialTransfer', true],
  ['fixCleanup3_3_0', true],
  ['fixCleanup3_2_0', true],
  ['MPTokensV2', false],
  ['fixCleanup3_1_3', true],
  ['LendingProtocol', true],
  ['PermissionDelegationV1_1', true],
  ['fixDirectoryLimit', true],
  ['fixIncludeKeyletFields', true],
  ['DynamicMPT', true],
  ['fixTokenEscrowV1', true],
  ['fixPriceOracleOrder', true],
  ['fixMPTDeliveredAmount', true],
  ['fixAMMClawbackRounding', true],
  ['TokenEscrow', true],
  ['fixEnforceNFTokenTrustlineV2', true],
  ['fixAMMv1_3', true],
  ['PermissionedDEX', true],
  ['SingleAssetVault', true],
  ['fixPayChanCancelAfter', true],
  ['fixInvalidTxFlags', true],
  ['fixFrozenLPTokenTransfer', true],
  ['DeepFreeze', true],
  ['PermissionedDomains', true],
  ['DynamicNFT', true],
  ['Credentials', true],
  ['AMMClawback', true],
  ['fixAMMv1_2', true],
  ['MPTokensV1', true],
  ['fixNFTokenPageLinks', true],
  ['fixInnerObjTemplate2', true],
  ['fixEnforceNFTokenTrustline', true],
  ['fixReducedOffersV2', true],
  ['NFTokenMintOffer', true],
  ['fixAMMv1_1', true],
  ['fixPreviousTxnID', true],
  ['fixXChainRewardRounding', true],
  ['fixEmptyDID', true],
  ['PriceOracle', true],
  ['fixFillOrKill', true],
  ['DID', true],
  ['XChainBridge', true],
  ['AMM', true],
  ['XRPFees', true],
  ['fixRemoveNFTokenAutoTrustLine', true],
];

/** Retired amendments: enabled long ago, their old code removed; still known and supported. */
const RETIRED: readonly string[] = [
  ...['1201', '1368', '1373', '1512', '1513', '1515', '1523', '1528', '1543', '1571', '1578', '1623', '1781'].map((number) => `fix${number}`),
  ...[
    'AmendmentMajorityCalc',
    'AMMOverflowOffer',
    'CheckThreading',
    'DisallowIncomingV1',
    'InnerObjTemplate',
    'MasterKeyAsRegularKey',
    'NonFungibleTokensV1_2',
    'NFTokenRemint',
    'NFTokenReserve',
    'PayChanRecipientOwnerDir',
    'QualityUpperBound',
    'ReducedOffersV1',
    'RmSmallIncreasedQOffers',
    'STAmountCanonicalize',
    'TakerDryOfferRemoval',
    'TrustLinesToSelf',
    'UniversalNumber',
  ].map((name) => `fix${name}`),
  'Checks',
  'CheckCashMakesTrustLine',
  'Clawback',
  'CryptoConditions',
  'CryptoConditionsSuite',
  'DeletableAccounts',
  'DepositAuth',
  'DepositPreauth',
  'DisallowIncoming',
  'Escrow',
  'EnforceInvariants',
  'ExpandedSignerList',
  'FeeEscalation',
  'Flow',
  'FlowCross',
  'FlowSortStrands',
  'HardenedValidations',
  'ImmediateOfferKilled',
  'MultiSign',
  'MultiSignReserve',
  'NegativeUNL',
  'NonFungibleTokensV1_1',
  'PayChan',
  'RequireFullyCanonicalSig',
  'SortedDirectories',
  'TicketBatch',
  'TickSize',
  'TrustSetAuth',
];

const HASH256 = /^[0-9A-Fa-f]{64}$/;

/** rippled `featureToName` inverse: an amendment's id is the SHA-512Half of its name. */
export function amendmentId(name: string): string {
  return createHash('sha512').update(name, 'utf8').digest().subarray(0, 32).toString('hex').toUpperCase();
}

interface KnownAmendment {
  name: string;
  supported: boolean;
}

const KNOWN_BY_ID = new Map<string, KnownAmendment>([
  ...ACTIVE.map(([name, supported]): [string, KnownAmendment] => [amendmentId(name), { name, supported }]),
  ...RETIRED.map((name): [string, KnownAmendment] => [amendmentId(name), { name, supported: true }]),
]);
const ID_BY_NAME = new Map([...KNOWN_BY_ID].map(([id, { name }]) => [name, id]));

/** The validated ledger's Amendments object (rippled `keylet::amendments`), or undefined when it has none. */
export interface AmendmentsState {
  enabled: ReadonlySet<string>;
  /** Amendment id → CloseTime (ripple epoch seconds) at which it gained its majority. */
  majorities: ReadonlyMap<string, number>;
}

export function amendmentsStateOf(entry: JsonObject | undefined): AmendmentsState {
  const enabled = new Set<string>();
  const majorities = new Map<string, number>();
  if (entry !== undefined) {
    if (Array.isArray(entry.Amendments)) for (const id of entry.Amendments) if (typeof id === 'string') enabled.add(id.toUpperCase());
    if (Array.isArray(entry.Majorities)) {
      for (const wrapper of entry.Majorities as JsonObject[]) {
        const majority = wrapper?.Majority as JsonObject | undefined;
        if (typeof majority?.Amendment === 'string' && typeof majority.CloseTime === 'number') majorities.set(majority.Amendment.toUpperCase(), majority.CloseTime);
      }
    }
  }
  return { enabled, majorities };
}

/** rippled `injectJson` for a non-admin client: keys in rippled's (sorted) order. */
function amendmentJson(id: string, state: AmendmentsState): JsonObject {
  const known = KNOWN_BY_ID.get(id);
  const json: JsonObject = { enabled: state.enabled.has(id) };
  if (known !== undefined) json.name = known.name;
  json.supported = known?.supported ?? false;
  return json;
}

export function featureAnswer(params: JsonObject, state: AmendmentsState): JsonObject {
  if (params.feature !== undefined && typeof params.feature !== 'string') throw new RpcError('invalidParams');
  if (params.feature === undefined) {
    const ids = new Set([...KNOWN_BY_ID.keys(), ...state.enabled]);
    const features: Record<string, JsonObject> = {};
    for (const id of [...ids, ...state.majorities.keys()].sort()) {
      if (ids.has(id)) features[id] = amendmentJson(id, state);
      const majority = state.majorities.get(id);
      if (majority !== undefined) features[id] = { ...features[id], majority };
    }
    return { features };
  }
  const asked = params.feature;
  const id = ID_BY_NAME.get(asked) ?? (HASH256.test(asked) ? asked.toUpperCase() : undefined);
  if (id === undefined) throw new RpcError('badFeature');
  if (params.vetoed !== undefined) throw new RpcError('noPermission');
  if (!KNOWN_BY_ID.has(id) && !state.enabled.has(id)) throw new RpcError('badFeature');
  const answer: JsonObject = { [id]: amendmentJson(id, state) };
  const majority = state.majorities.get(id);
  // rippled puts a single amendment's majority beside it, not inside.
  if (majority !== undefined) answer.majority = majority;
  return answer;
}
