/**
 * rippled's RPC errors: token, numeric code and default message (rippled ErrorCodes.h /
 * ErrorCodes.cpp). A handler throws `RpcError`; the server turns it into rippled's error response.
 */
import { isLedgerNodeError } from '@ledger-node/errors';

interface RpcErrorInfo {
  readonly code: number;
  readonly message: string;
}

export const rpcErrors = {
  actMalformed: { code: 35, message: 'Account malformed.' },
  actNotFound: { code: 19, message: 'Account not found.' },
  badFeature: { code: 40, message: 'Feature unknown or invalid.' },
  badIssuer: { code: 41, message: 'Issuer account malformed.' },
  badMarket: { code: 42, message: 'No such market.' },
  channelAmtMalformed: { code: 46, message: 'Payment channel amount is malformed.' },
  channelMalformed: { code: 45, message: 'Payment channel is malformed.' },
  dstActMalformed: { code: 48, message: 'Destination account is malformed.' },
  dstActNotFound: { code: 50, message: 'Destination account not found.' },
  dstAmtMalformed: { code: 51, message: 'Destination amount/currency/issuer is malformed.' },
  dstIsrMalformed: { code: 53, message: 'Destination issuer is malformed.' },
  entryNotFound: { code: 98, message: 'Entry not found.' },
  excessiveLgrRange: { code: 78, message: 'Ledger range exceeds 1000.' },
  highFee: { code: 11, message: 'Current transaction fee exceeds your limit.' },
  internal: { code: 73, message: 'Internal error.' },
  invalidHotWallet: { code: 30, message: 'Invalid hotwallet.' },
  invalidLgrRange: { code: 79, message: 'Ledger range is invalid.' },
  invalidParams: { code: 31, message: 'Invalid parameters.' },
  issueMalformed: { code: 93, message: 'Issue is malformed.' },
  lgrIdxMalformed: { code: 58, message: 'Ledger index malformed.' },
  lgrIdxsInvalid: { code: 57, message: 'Ledger indexes invalid.' },
  lgrNotFound: { code: 21, message: 'Ledger not found.' },
  malformedStream: { code: 71, message: 'Stream malformed.' },
  noClosed: { code: 15, message: 'Closed ledger is unavailable.' },
  noCurrent: { code: 16, message: 'Current ledger is unavailable.' },
  noEvents: { code: 7, message: 'Current transport does not support events.' },
  noNetwork: { code: 17, message: 'Not synced to the network.' },
  noPathRequest: { code: 33, message: 'No pathfinding request in progress.' },
  noPermission: { code: 6, message: "You don't have permission for this command." },
  notImpl: { code: 74, message: 'Not implemented.' },
  notReady: { code: 13, message: 'Not ready to handle this request.' },
  notSupported: { code: 75, message: 'Operation not supported.' },
  notSynced: { code: 18, message: 'Not synced to the network.' },
  objectNotFound: { code: 92, message: 'The requested object was not found.' },
  oracleMalformed: { code: 94, message: 'Oracle request is malformed.' },
  publicMalformed: { code: 62, message: 'Public key is malformed.' },
  slowDown: { code: 10, message: 'You are placing too much load on the server.' },
  srcActMalformed: { code: 65, message: 'Source account is malformed.' },
  srcActNotFound: { code: 67, message: 'Source account not found.' },
  srcCurMalformed: { code: 69, message: 'Source currency is malformed.' },
  srcIsrMalformed: { code: 70, message: 'Source issuer is malformed.' },
  tooBusy: { code: 9, message: 'The server is too busy to help you now.' },
  transactionSigned: { code: 96, message: 'Transaction should not be signed.' },
  txnNotFound: { code: 29, message: 'Transaction not found.' },
  unexpectedLedgerType: { code: 99, message: 'Unexpected ledger type.' },
  unknownCmd: { code: 32, message: 'Unknown method.' },
  wrongNetwork: { code: 4, message: 'Wrong network.' },
} as const satisfies Record<string, RpcErrorInfo>;

export type RpcErrorToken = keyof typeof rpcErrors;

/** A coded rippled error; `message` replaces the default `error_message` when rippled does so. */
export class RpcError extends Error {
  readonly token: RpcErrorToken;
  readonly code: number;
  /** Fields rippled adds beside the error (e.g. `account` and the ledger for actNotFound). */
  readonly extra: Record<string, unknown>;

  constructor(token: RpcErrorToken, message?: string, extra: Record<string, unknown> = {}) {
    super(message ?? rpcErrors[token].message);
    this.name = 'RpcError';
    this.token = token;
    this.code = rpcErrors[token].code;
    this.extra = extra;
  }
}

/**
 * An error rippled reports with a bare token and no code, such as `invalidTransaction` from
 * `submit` (with `error_exception`) or `notStandAlone` from `ledger_accept`.
 */
export class BareRpcError extends Error {
  readonly token: string;
  readonly extra: Record<string, unknown>;

  constructor(token: string, extra: Record<string, unknown> = {}, message?: string) {
    super(message ?? token);
    this.name = 'BareRpcError';
    this.token = token;
    this.extra = extra;
  }
}

/** rippled's `invalidParams` with its usual wording for a missing field. */
export function missingField(name: string): RpcError {
  return new RpcError('invalidParams', `Missing field '${name}'.`);
}

/** rippled's `invalidParams` with its usual wording for a field of the wrong kind or value. */
export function invalidField(name: string, expected?: string): RpcError {
  return new RpcError('invalidParams', expected ? `Invalid field '${name}', not ${expected}.` : `Invalid field '${name}'.`);
}

/** The error fields (`error`, `error_code`, `error_message`, extras) of a thrown value. */
export function errorFields(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof RpcError) {
    return { ...error.extra, error: error.token, error_code: error.code, error_message: error.message };
  }
  if (error instanceof BareRpcError) {
    return { ...error.extra, error: error.token };
  }
  if (isLedgerNodeError(error) && error.kind === 'invalid_params') {
    return { error: 'invalidParams', error_code: rpcErrors.invalidParams.code, error_message: error.message };
  }
  return undefined;
}
