/**
 * Engine result codes. Names and numbers come from the chain's definitions table
 * (`TRANSACTION_RESULTS`), never from a hard-coded XRPL list: on Jingtum the native-currency
 * results are spelled with `SWT` (`tecNO_DST_INSUF_SWT`, `temBAD_SEND_SWT_MAX`).
 *
 * Rules name a result by its XRPL spelling with `%N` in place of the native code
 * (`tecNO_DST_INSUF_%N`); `ResultCatalog` resolves that against the chain's table.
 */
import type { XrplDefinitionsBase } from 'ripple-binary-codec';

export interface EngineResult {
  token: string;
  code: number;
  message: string;
}

/** Every result the engine can produce, with rippled's `transResultInfo` description. */
const DESCRIPTIONS = {
  tesSUCCESS: 'The transaction was applied. Only final in a validated ledger.',
  tecPATH_DRY: 'Path could not send partial amount.',
  tecPATH_PARTIAL: 'Path could not send full amount.',
  tecUNFUNDED_PAYMENT: 'Insufficient %N balance to send.',
  tecNO_DST: 'Destination does not exist. Send %N to create it.',
  'tecNO_DST_INSUF_%N': 'Destination does not exist. Too little %N sent to create it.',
  tecNO_LINE_INSUF_RESERVE: 'No such line. Too little reserve to create it.',
  tecINSUF_RESERVE_LINE: 'Insufficient reserve to add trust line.',
  tecNO_LINE_REDUNDANT: "Can't set non-existent line to default.",
  tecDST_TAG_NEEDED: 'A destination tag is required.',
  tecNO_PERMISSION: 'No permission to perform requested operation.',
  tecNEED_MASTER_KEY: 'The operation requires the use of the Master Key.',
  tecNO_ALTERNATIVE_KEY: 'The operation would remove the ability to sign transactions with the account.',
  tecNO_REGULAR_KEY: 'Regular key is not set.',
  tecOWNERS: 'Non-zero owner count.',
  tecINSUFF_FEE: 'Insufficient balance to pay fee.',
  tecDIR_FULL: 'Can not add entry to full directory.',
  tecINTERNAL: 'An internal error has occurred during processing.',
  tecINSUFFICIENT_RESERVE: 'Insufficient reserve to complete requested operation.',
  tecUNFUNDED_OFFER: 'Insufficient balance to fund created offer.',
  tecKILLED: 'No funds transferred and no offer created.',
  tecNO_ISSUER: 'Issuer account does not exist.',
  tecNO_LINE: 'No such line.',
  tecNO_AUTH: 'Not authorized to hold asset.',
  tecINSUF_RESERVE_OFFER: 'Insufficient reserve to create offer.',
  tecFROZEN: 'Asset is frozen.',
  tecEXPIRED: 'Expiration time is passed.',
  tefBAD_LEDGER: 'Ledger in unexpected state.',
  tefPAST_SEQ: 'This sequence number has already passed.',
  tefMAX_LEDGER: 'Ledger sequence too high.',
  tefALREADY: 'The exact transaction was already in this ledger.',
  tefBAD_AUTH: "Transaction's public key is not authorized.",
  tefBAD_AUTH_MASTER: 'Auth for unclaimed account needs correct master key.',
  tefMASTER_DISABLED: 'Master key is disabled.',
  tefNO_TICKET: 'Ticket is not in ledger.',
  tefWRONG_PRIOR: 'This previous transaction does not match.',
  tefNO_AUTH_REQUIRED: 'Auth is not required.',
  tefINTERNAL: 'Internal error.',
  tefBAD_SIGNATURE: 'A signature is provided for a non-signer.',
  tefBAD_QUORUM: 'Signatures provided do not meet the quorum.',
  tefNOT_MULTI_SIGNING: 'Account has no appropriate list of multi-signers.',
  terPRE_SEQ: 'Missing/inapplicable prior transaction.',
  terQUEUED: 'Held until escalated fee drops.',
  terPRE_TICKET: 'Ticket is not yet in ledger.',
  terNO_ACCOUNT: 'The source account does not exist.',
  terINSUF_FEE_B: "Account balance can't pay fee.",
  telINSUF_FEE_P: 'Fee insufficient.',
  telNO_DST_PARTIAL: 'Partial payment to create account not allowed.',
  telBAD_PUBLIC_KEY: 'Public key is not valid.',
  telBAD_DOMAIN: 'Domain too long.',
  telBAD_PATH_COUNT: 'Malformed: Too many paths.',
  temMALFORMED: 'Malformed transaction.',
  temINVALID: 'The transaction is ill-formed.',
  temBAD_AMOUNT: 'Malformed: Bad amount.',
  temBAD_FEE: 'Invalid fee, negative or not %N.',
  temBAD_SIGNATURE: 'Malformed: Bad signature.',
  temBAD_SRC_ACCOUNT: 'Malformed: Bad source account.',
  temBAD_CURRENCY: 'Malformed: Bad currency.',
  temBAD_LIMIT: 'Limits must be non-negative.',
  temBAD_TRANSFER_RATE: 'Malformed: Transfer rate must be >= 1.0 and <= 2.0',
  temBAD_TICK_SIZE: 'Malformed: Tick size out of range.',
  temDST_NEEDED: 'Destination not specified.',
  temDST_IS_SRC: 'Destination may not be source.',
  temREDUNDANT: 'The transaction is redundant.',
  temBAD_OFFER: 'Malformed: Bad offer.',
  temBAD_EXPIRATION: 'Malformed: Bad expiration.',
  temBAD_SEQUENCE: 'Malformed: Sequence is not in the past.',
  temBAD_ISSUER: 'Malformed: Bad issuer.',
  temUNKNOWN: 'The transaction requires logic that is not implemented yet.',
  temDISABLED: 'The transaction requires logic that is currently disabled.',
  temINVALID_FLAG: 'The transaction has an invalid flag.',
  temBAD_WEIGHT: 'Malformed: Weight must be a positive value.',
  temBAD_SIGNER: 'Malformed: No signer may duplicate account or other signers.',
  temBAD_QUORUM: 'Malformed: Quorum is unreachable.',
  temSEQ_AND_TICKET: 'Transaction contains a TicketSequence and a non-zero Sequence.',
  'temBAD_SEND_%N_MAX': 'Malformed: Send max is not allowed for %N to %N.',
  'temBAD_SEND_%N_PATHS': 'Malformed: Paths are not allowed for %N to %N.',
  'temBAD_SEND_%N_PARTIAL': 'Malformed: Partial payment is not allowed for %N to %N.',
  'temBAD_SEND_%N_LIMIT': 'Malformed: Limit quality is not allowed for %N to %N.',
  'temBAD_SEND_%N_NO_DIRECT': 'Malformed: No Ripple direct is not allowed for %N to %N.',
} as const;

export type ResultToken = keyof typeof DESCRIPTIONS;

/**
 * Older rippled-derived tables lack some newer results; the code an older server returned for
 * the same situation stands in (rippled ≤ 0.80 answered `tecNO_REGULAR_KEY` where it now says
 * `tecNO_ALTERNATIVE_KEY`).
 */
const STAND_INS: Partial<Record<ResultToken, ResultToken>> = {
  tecNO_ALTERNATIVE_KEY: 'tecNO_REGULAR_KEY',
  temBAD_TICK_SIZE: 'temMALFORMED',
  temSEQ_AND_TICKET: 'temMALFORMED',
  tefNO_TICKET: 'temMALFORMED',
  terPRE_TICKET: 'temMALFORMED',
  telBAD_DOMAIN: 'temMALFORMED',
  telBAD_PATH_COUNT: 'temMALFORMED',
  temBAD_WEIGHT: 'temMALFORMED',
  temBAD_SIGNER: 'temMALFORMED',
  temBAD_QUORUM: 'temMALFORMED',
  tefBAD_SIGNATURE: 'tefBAD_AUTH',
  tefBAD_QUORUM: 'tefBAD_AUTH',
  tefNOT_MULTI_SIGNING: 'tefBAD_AUTH',
  tecINSUFFICIENT_RESERVE: 'tecINSUF_RESERVE_LINE',
};

export class ResultCatalog {
  private readonly resolved = new Map<ResultToken, EngineResult>();

  constructor(definitions: XrplDefinitionsBase, nativeCurrency: string) {
    const codeOf = (name: string): number | undefined => definitions.transactionResult.from(name)?.ordinal;
    const spell = (text: string) => text.replaceAll('%N', nativeCurrency);
    for (const token of Object.keys(DESCRIPTIONS) as ResultToken[]) {
      let chosen: ResultToken = token;
      let code = codeOf(spell(chosen));
      while (code === undefined && STAND_INS[chosen] !== undefined) {
        chosen = STAND_INS[chosen]!;
        code = codeOf(spell(chosen));
      }
      if (code === undefined) {
        throw new Error(`the chain's definitions table has no result '${spell(token)}'`);
      }
      this.resolved.set(token, { token: spell(chosen), code, message: spell(DESCRIPTIONS[chosen]) });
    }
  }

  get(token: ResultToken): EngineResult {
    return this.resolved.get(token)!;
  }
}

export function isTesSuccess(result: EngineResult): boolean {
  return result.code === 0;
}

/** tec: claimed — the fee is charged and the sequence consumed, nothing else changes. */
export function isTecClaim(result: EngineResult): boolean {
  return result.code >= 100;
}

/** ter: retry — held and applied again later (rippled `isTerRetry`). */
export function isTerRetry(result: EngineResult): boolean {
  return result.code >= -99 && result.code < 0;
}
