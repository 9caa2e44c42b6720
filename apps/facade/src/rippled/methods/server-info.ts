/**
 * rippled `server_info` and `server_state` from the store and sync's status. The node follows the
 * network through its upstream rather than through peers and consensus: `server_state` is "full"
 * while sync is level with the upstream's validated ledger, "syncing" while it catches up, and
 * "connected" when it does not follow (no upstream connection, sync stopped, or -sync=false); load factors are 1.
 * `network_id` is the node's -network_id, left out when none is given.
 */
import { LedgerTag, TxDetail, type GetStatusResponse, type GetSyncStatusResponse } from '@ledger-node/contracts';
import { formatRanges, serverInfoValidatedLedger, serverStateValidatedLedger, serverTime, validatorListFields, type FeeSchedule, type JsonObject, type TrustFacts, type ValidatedLedgerInput } from '@ledger-node/rippled-api';
import type { RippledContext, RippledMethod } from '../method';
import { feesAt } from './fees';
import { resolvedOf } from './ledgers';
import { StateView } from './state';

/** Reported as the server's version; rippled-style so that clients parsing it see a release number. */
export const NODE_BUILD_VERSION = '2.4.0-ledger-node';

export function serverStateOf(sync: GetSyncStatusResponse | undefined, syncEnabled: boolean): 'full' | 'syncing' | 'connected' {
  // Stopped (the upstream's chain is not the stored one, or the store takes no ledger): following nothing.
  if (!syncEnabled || !sync || !sync.upstreamConnected || sync.stopped !== undefined) return 'connected';
  // rippled says full when it can answer for its validated ledger: its account state included.
  return sync.syncing || !sync.stateReady ? 'syncing' : 'full';
}

interface ServerFacts {
  status: GetStatusResponse;
  sync: GetSyncStatusResponse | undefined;
  validated: { ledger: ValidatedLedgerInput; fees: FeeSchedule } | undefined;
}

async function gather(context: RippledContext): Promise<ServerFacts> {
  const [status, sync, record] = await Promise.all([
    context.queries.status(),
    context.syncEnabled ? context.syncStatus.status().catch(() => undefined) : Promise.resolve(undefined),
    context.queries.ledger({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, TxDetail.NONE),
  ]);
  if (!record) return { status, sync, validated: undefined };
  const ledger = resolvedOf(record);
  const fees = await feesAt(new StateView(context, ledger.header.ledgerIndex), context.profile);
  return { status, sync, validated: { ledger: { ledgerIndex: ledger.header.ledgerIndex, hash: ledger.hash, closeTime: ledger.header.closeTime }, fees } };
}

function commonFields(facts: ServerFacts, context: RippledContext, nowMs: number): JsonObject {
  return {
    ...(context.networkId === undefined ? {} : { network_id: context.networkId }),
    build_version: NODE_BUILD_VERSION,
    complete_ledgers: formatRanges(facts.status.completeRanges),
    hostid: 'ledger-node',
    io_latency_ms: 1,
    jq_trans_overflow: '0',
    last_close: { converge_time_s: 0, proposers: 0 },
    peers: facts.sync?.upstreamConnected ? 1 : 0,
    server_state: serverStateOf(facts.sync, context.syncEnabled),
    time: serverTime(new Date(nowMs)),
    uptime: Math.floor(process.uptime()),
    ...validatorListFields(trustFacts(facts.sync), nowMs),
  };
}

/** What sync trusts, as server_info states it: the earliest expiration among the publishers' lists, unknown while one is not had. */
function trustFacts(sync: GetSyncStatusResponse | undefined): TrustFacts | undefined {
  const trust = sync?.validatorList;
  if (!trust) return undefined;
  const had = trust.publishers.every((publisher) => publisher.expiration !== undefined);
  const expiration = had && trust.publishers.length > 0 ? Math.min(...trust.publishers.map((publisher) => publisher.expiration!)) : undefined;
  return { publishers: trust.publishers.length, ...(expiration === undefined ? {} : { expiration }), ...(trust.quorum === undefined ? {} : { quorum: trust.quorum }) };
}

export const serverInfo: RippledMethod = async (_request, context) => {
  const facts = await gather(context);
  const nowMs = Date.now();
  const info: JsonObject = { ...commonFields(facts, context, nowMs), load_factor: 1 };
  if (facts.validated) info.validated_ledger = serverInfoValidatedLedger(facts.validated.ledger, facts.validated.fees, context.profile, nowMs);
  return { info };
};

export const serverState: RippledMethod = async (_request, context) => {
  const facts = await gather(context);
  const state: JsonObject = { ...commonFields(facts, context, Date.now()), load_base: 256, load_factor: 256 };
  if (facts.validated) state.validated_ledger = serverStateValidatedLedger(facts.validated.ledger, facts.validated.fees);
  return { state };
};
