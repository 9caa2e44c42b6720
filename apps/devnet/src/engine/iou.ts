/** Issued-currency arithmetic (rippled STAmount, libs/chain) and the rate forms the rules use. */
import { IouValue } from '@ledger-node/chain';

export { IouValue, IouValueError } from '@ledger-node/chain';

/** A transfer rate or quality as rippled stores it: parts per billion (1e9 = 1:1). */
export const QUALITY_ONE = 1_000_000_000;

/** The rate as an issued value (rippled `detail::as_amount(Rate)`). */
export function rateValue(ratePerBillion: number): IouValue {
  return IouValue.of(BigInt(ratePerBillion), -9);
}
