/** rippled `server_info` and `server_state`: the node's state and its newest validated ledger. */
import { randomBytes } from 'node:crypto';
import { createChainKeys, encodeNodePublicKey, XRPL_ALPHABET } from '@ledger-node/chain';
import { formatRanges, serverInfoValidatedLedger, serverStateValidatedLedger, serverTime, type JsonObject } from '@ledger-node/rippled-api';
import type { LedgerSource } from '../ledger-source';
import type { MethodContext, MethodHandler } from './context';
import { validatedNegativeUnl } from './devnet-network';

/** Reported as the server's version; rippled-style so that clients parsing it see a release number. */
export const DEVNET_BUILD_VERSION = '2.4.0-ledger-node-devnet';

/** This process's node identity (rippled's `pubkey_node`): new at every start, so that two devnets are two servers. */
const keys = createChainKeys(XRPL_ALPHABET);
const nodeIdentity = keys.deriveKeypair(keys.generateSeed({ entropy: randomBytes(16) })).publicKey;

function commonFields(source: LedgerSource, context: MethodContext, nowMs: number): JsonObject {
  return {
    build_version: DEVNET_BUILD_VERSION,
    complete_ledgers: formatRanges(source.completeRanges()),
    hostid: source.mode === 'live' ? 'devnet' : 'devnet-replay',
    io_latency_ms: 1,
    jq_trans_overflow: '0',
    last_close: { converge_time_s: 0, proposers: 0 },
    network_id: source.networkId,
    peers: 0,
    pubkey_node: encodeNodePublicKey(nodeIdentity, source.profile),
    server_state: 'full',
    time: serverTime(new Date(nowMs)),
    uptime: Math.floor((nowMs - context.startedAtMs) / 1000),
    // rippled ValidatorList::quorum: over the trusted validators the list names, less the negative UNL.
    validation_quorum: context.network.quorum(new Set(validatedNegativeUnl(source)?.disabled ?? [])),
  };
}

export const serverInfo: MethodHandler = (context) => {
  const { source } = context;
  const nowMs = Date.now();
  const info: JsonObject = { ...commonFields(source, context, nowMs), load_factor: 1 };
  const ledger = source.validatedLedger();
  if (ledger) {
    const validated = { ledgerIndex: ledger.header.ledgerIndex, hash: ledger.hash, closeTime: ledger.header.closeTime };
    info.validated_ledger = serverInfoValidatedLedger(validated, source.fees, source.profile, nowMs);
  }
  return { info };
};

export const serverState: MethodHandler = (context) => {
  const { source } = context;
  const nowMs = Date.now();
  const state: JsonObject = { ...commonFields(source, context, nowMs), load_base: 256, load_factor: 256 };
  const ledger = source.validatedLedger();
  if (ledger) {
    state.validated_ledger = serverStateValidatedLedger(
      { ledgerIndex: ledger.header.ledgerIndex, hash: ledger.hash, closeTime: ledger.header.closeTime },
      source.fees,
    );
  }
  return { state };
};
