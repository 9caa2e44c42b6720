/** The chain's fees as a ledger's FeeSettings object states them (rippled Fees / XRPFees). */
import { keylet, type ChainProfile } from '@ledger-node/chain';
import { RpcError, type FeeSchedule, type JsonObject } from '@ledger-node/rippled-api';
import type { StateView } from './state';

function drops(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  // UInt64 fields print as hex (BaseFee); drops amounts as decimal text (BaseFeeDrops).
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  return undefined;
}

function hexDrops(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^[0-9A-Fa-f]{1,16}$/.test(value) ? BigInt(`0x${value}`) : undefined;
}

/**
 * The fees of a FeeSettings object: the XRPFees fields (…Drops) when present, else the older
 * BaseFee (hex UInt64), ReserveBase and ReserveIncrement; the profile's fees for a chain whose
 * ledgers hold no FeeSettings.
 */
export function feeScheduleOf(settings: JsonObject | undefined, profile: Pick<ChainProfile, 'baseFee' | 'reserveBase' | 'reserveIncrement'>): FeeSchedule {
  return {
    baseFee: drops(settings?.BaseFeeDrops) ?? hexDrops(settings?.BaseFee) ?? profile.baseFee,
    reserveBase: drops(settings?.ReserveBaseDrops) ?? drops(settings?.ReserveBase) ?? profile.reserveBase,
    reserveIncrement: drops(settings?.ReserveIncrementDrops) ?? drops(settings?.ReserveIncrement) ?? profile.reserveIncrement,
  };
}

/** The fees in force at the view's ledger; the profile's when the store does not hold that ledger's state. */
export async function feesAt(state: StateView, profile: ChainProfile): Promise<FeeSchedule> {
  try {
    const settings = await state.readOne(keylet.feeSettings());
    return feeScheduleOf(settings?.json, profile);
  } catch (error) {
    if (error instanceof RpcError && error.token === 'notSupported') return feeScheduleOf(undefined, profile);
    throw error;
  }
}
