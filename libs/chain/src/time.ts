import { InvalidParams } from '@ledger-node/errors';

/** Seconds from the Unix epoch to the Ripple epoch, 2000-01-01T00:00:00Z. */
export const RIPPLE_EPOCH_OFFSET = 946684800;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function toDate(closeTime: number): Date {
  if (!Number.isSafeInteger(closeTime) || closeTime < 0 || closeTime > 0xffffffff) {
    throw new InvalidParams(`close time must be a u32 of seconds since the Ripple epoch, got ${closeTime}`, 'closeTime');
  }
  return new Date((closeTime + RIPPLE_EPOCH_OFFSET) * 1000);
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/** rippled `to_string(NetClock::time_point)`: 'YYYY-Mon-DD HH:MM:SS' in UTC. */
export function closeTimeHuman(closeTime: number): string {
  const date = toDate(closeTime);
  return (
    `${date.getUTCFullYear()}-${MONTHS[date.getUTCMonth()]}-${pad2(date.getUTCDate())} ` +
    `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}`
  );
}

/** ISO 8601 with a numeric UTC offset, as the account-history `date` field: '2015-01-14T18:27:10+00:00'. */
export function rippleTimeToIso(closeTime: number): string {
  return toDate(closeTime).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Seconds since the Ripple epoch for a Unix time in milliseconds (rounded down). */
export function unixMsToRippleTime(unixMs: number): number {
  return Math.floor(unixMs / 1000) - RIPPLE_EPOCH_OFFSET;
}
