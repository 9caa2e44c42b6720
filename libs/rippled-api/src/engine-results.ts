/**
 * Engine result codes and messages for transactions read back from closed ledgers (stream
 * messages): the code comes from the profile's definitions table (Jingtum numbers some results
 * differently), the message from rippled's TER table.
 */
import type { ChainProfile } from '@ledger-node/chain';

/**
 * rippled TER.cpp messages of the results a validated ledger can hold (tes and tec), with `%N` in
 * place of the native currency code: Jingtum spells those results and messages with SWT.
 */
const messages: Record<string, string> = {
  tesSUCCESS: 'The transaction was applied. Only final in a validated ledger.',
  tecCLAIM: 'Fee claimed. Sequence used. No action.',
  tecDIR_FULL: 'Can not add entry to full directory.',
  tecFAILED_PROCESSING: 'Failed to correctly process transaction.',
  tecINSUF_RESERVE_LINE: 'Insufficient reserve to add trust line.',
  tecINSUF_RESERVE_OFFER: 'Insufficient reserve to create offer.',
  tecNO_DST: 'Destination does not exist. Send %N to create it.',
  'tecNO_DST_INSUF_%N': 'Destination does not exist. Too little %N sent to create it.',
  tecNO_LINE_INSUF_RESERVE: 'No such line. Too little reserve to create it.',
  tecNO_LINE_REDUNDANT: "Can't set non-existent line to default.",
  tecPATH_DRY: 'Path could not send partial amount.',
  tecPATH_PARTIAL: 'Path could not send full amount.',
  tecNO_ALTERNATIVE_KEY: 'The operation would remove the ability to sign transactions with the account.',
  tecNO_REGULAR_KEY: 'Regular key is not set.',
  tecUNFUNDED: 'Not enough %N to satisfy the reserve requirement.',
  tecUNFUNDED_OFFER: 'Insufficient balance to fund created offer.',
  tecUNFUNDED_PAYMENT: 'Insufficient %N balance to send.',
  tecOWNERS: 'Non-zero owner count.',
  tecNO_ISSUER: 'Issuer account does not exist.',
  tecNO_AUTH: 'Not authorized to hold asset.',
  tecNO_LINE: 'No such line.',
  tecINSUFF_FEE: 'Insufficient balance to pay fee.',
  tecFROZEN: 'Asset is frozen.',
  tecNO_TARGET: 'Target account does not exist.',
  tecNO_PERMISSION: 'No permission to perform requested operation.',
  tecNO_ENTRY: 'No matching entry found.',
  tecINSUFFICIENT_RESERVE: 'Insufficient reserve to complete requested operation.',
  tecNEED_MASTER_KEY: 'The operation requires the use of the Master Key.',
  tecDST_TAG_NEEDED: 'A destination tag is required.',
  tecINTERNAL: 'An internal error has occurred during processing.',
  tecEXPIRED: 'Expiration time is passed.',
  tecDUPLICATE: 'Ledger object already exists.',
  tecKILLED: 'No funds transferred and no offer created.',
};

export interface EngineResult {
  engine_result: string;
  engine_result_code: number;
  engine_result_message: string;
}

/** The result fields rippled prints for a result token, e.g. `tecPATH_DRY` → 128. */
export function engineResultOf(profile: ChainProfile, token: string): EngineResult {
  let code: number;
  try {
    code = profile.definitions.transactionResult.from(token).ordinal;
  } catch (error) {
    throw new Error(`unknown transaction result ${token} for chain ${profile.id}`, { cause: error });
  }
  const native = profile.nativeCurrency;
  const message = messages[token] ?? messages[token.replace(`_${native}`, '_%N')];
  return { engine_result: token, engine_result_code: code, engine_result_message: message?.replaceAll('%N', native) ?? token };
}
