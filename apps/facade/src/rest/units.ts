/** Drops as a decimal amount of the native unit ("1234567" drops → "1.234567"). */
export function dropsToUnits(drops: string, dropsPerUnit: bigint): string {
  const value = BigInt(drops);
  const whole = value / dropsPerUnit;
  const fraction = (value % dropsPerUnit).toString().padStart(dropsPerUnit.toString().length - 1, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}
