/** rippled `server_info` and `server_state`: the node's state and its newest validated ledger. */
import { RIPPLE_EPOCH_OFFSET } from '@ledger-node/chain';
import type { JsonObject } from '../../engine/types';
import { formatRanges, type LedgerSource } from '../ledger-source';
import type { MethodContext, MethodHandler } from './context';

/** Reported as the server's version; rippled-style so that clients parsing it see a release number. */
export const DEVNET_BUILD_VERSION = '2.4.0-ledger-node-devnet';

/** A drops amount as the decimal number of native units rippled prints in server_info (e.g. 0.00001). */
export function nativeUnits(drops: bigint, dropsPerUnit: bigint): number {
  const whole = drops / dropsPerUnit;
  const fraction = (drops % dropsPerUnit).toString().padStart(dropsPerUnit.toString().length - 1, '0').replace(/0+$/, '');
  return Number(fraction ? `${whole}.${fraction}` : `${whole}`);
}

/** rippled's `time` field: '2024-Jan-05 10:01:02.123456 UTC'. */
function serverTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return (
    `${now.getUTCFullYear()}-${months[now.getUTCMonth()]}-${pad(now.getUTCDate())} ` +
    `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}.${pad(now.getUTCMilliseconds() * 1000, 6)} UTC`
  );
}

function ageSeconds(closeTime: number, nowMs: number): number {
  return Math.max(0, Math.floor(nowMs / 1000) - RIPPLE_EPOCH_OFFSET - closeTime);
}

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
    server_state: 'full',
    time: serverTime(new Date(nowMs)),
    uptime: Math.floor((nowMs - context.startedAtMs) / 1000),
    validation_quorum: 0,
  };
}

export const serverInfo: MethodHandler = (context) => {
  const { source } = context;
  const nowMs = Date.now();
  const native = source.profile.nativeCurrency.toLowerCase();
  const perUnit = source.profile.dropsPerUnit;
  const info: JsonObject = { ...commonFields(source, context, nowMs), load_factor: 1 };
  const ledger = source.validatedLedger();
  if (ledger) {
    // rippled names these after the native asset: base_fee_xrp on the XRP Ledger, base_fee_swt on Jingtum.
    info.validated_ledger = {
      age: ageSeconds(ledger.header.closeTime, nowMs),
      [`base_fee_${native}`]: nativeUnits(source.fees.baseFee, perUnit),
      hash: ledger.hash,
      [`reserve_base_${native}`]: nativeUnits(source.fees.reserveBase, perUnit),
      [`reserve_inc_${native}`]: nativeUnits(source.fees.reserveIncrement, perUnit),
      seq: ledger.header.ledgerIndex,
    };
  }
  return { info };
};

export const serverState: MethodHandler = (context) => {
  const { source } = context;
  const nowMs = Date.now();
  const state: JsonObject = { ...commonFields(source, context, nowMs), load_base: 256, load_factor: 256 };
  const ledger = source.validatedLedger();
  if (ledger) {
    state.validated_ledger = {
      base_fee: Number(source.fees.baseFee),
      close_time: ledger.header.closeTime,
      hash: ledger.hash,
      reserve_base: Number(source.fees.reserveBase),
      reserve_inc: Number(source.fees.reserveIncrement),
      seq: ledger.header.ledgerIndex,
    };
  }
  return { state };
};
