/**
 * One error hierarchy for every service. Services throw these; libs/grpc maps them to gRPC
 * status codes and back; the facade maps them to JSON-RPC and HTTP errors.
 */
export type ErrorKind =
  | 'invalid_params'
  | 'not_found'
  | 'not_synced'
  | 'out_of_range'
  | 'account_not_found'
  | 'no_local_account'
  | 'upstream_unavailable'
  | 'rejected'
  | 'unauthorized'
  | 'unavailable'
  | 'conflict'
  | 'unimplemented'
  | 'rate_limited'
  | 'not_validated'
  | 'internal';

export interface ErrorDetails {
  /** Parameter or field the error is about, when there is one. */
  readonly param?: string;
  /** Extra machine-readable data safe to show to a caller (never secrets). */
  readonly data?: Record<string, unknown>;
}

export class LedgerNodeError extends Error {
  readonly kind: ErrorKind;
  readonly details: ErrorDetails;

  constructor(kind: ErrorKind, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.kind = kind;
    this.details = details;
  }
}

export class InvalidParams extends LedgerNodeError {
  constructor(message: string, param?: string, data?: Record<string, unknown>) {
    super('invalid_params', message, { param, data });
  }
}

export class NotFound extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('not_found', message, { data });
  }
}

export class NotSynced extends LedgerNodeError {
  constructor(message = 'the node has not synced any ledger yet', data?: Record<string, unknown>) {
    super('not_synced', message, { data });
  }
}

export class OutOfRange extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('out_of_range', message, { data });
  }
}

export class AccountNotFound extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('account_not_found', message, { data });
  }
}

export class NoLocalAccount extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('no_local_account', message, { data });
  }
}

export class UpstreamUnavailable extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('upstream_unavailable', message, { data });
  }
}

/** A transaction the network refused, carrying its engine result (e.g. `temBAD_AMOUNT`). */
export class Rejected extends LedgerNodeError {
  constructor(message: string, engineResult: string, data?: Record<string, unknown>) {
    super('rejected', message, { data: { engine_result: engineResult, ...data } });
  }
}

export class Unauthorized extends LedgerNodeError {
  constructor(message: string) {
    super('unauthorized', message);
  }
}

/** A dependency (another service, the store) cannot be reached right now. */
export class Unavailable extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('unavailable', message, { data });
  }
}

export class Conflict extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('conflict', message, { data });
  }
}

/** A caller asked more often than its limit allows; `retry_after_ms` says when it may again. */
export class RateLimited extends LedgerNodeError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('rate_limited', message, { data });
  }
}

/** A sent transaction not in a validated ledger by the time its caller waits for: `data` says its hash and where it stands. */
export class NotValidated extends LedgerNodeError {
  constructor(message: string, data: Record<string, unknown>) {
    super('not_validated', message, { data });
  }
}

/** An operation this version does not offer yet. */
export class NotImplemented extends LedgerNodeError {
  constructor(operation: string) {
    super('unimplemented', `${operation} is not available in this version`);
  }
}

export class Internal extends LedgerNodeError {
  constructor(message = 'internal error', options?: { cause?: unknown }) {
    super('internal', message, {}, options);
  }
}

export function isLedgerNodeError(error: unknown): error is LedgerNodeError {
  return error instanceof LedgerNodeError;
}

const constructors: Record<ErrorKind, (message: string, details: ErrorDetails) => LedgerNodeError> = {
  invalid_params: (m, d) => new InvalidParams(m, d.param, d.data),
  not_found: (m, d) => new NotFound(m, d.data),
  not_synced: (m, d) => new NotSynced(m, d.data),
  out_of_range: (m, d) => new OutOfRange(m, d.data),
  account_not_found: (m, d) => new AccountNotFound(m, d.data),
  no_local_account: (m, d) => new NoLocalAccount(m, d.data),
  upstream_unavailable: (m, d) => new UpstreamUnavailable(m, d.data),
  rejected: (m, d) => new LedgerNodeError('rejected', m, d),
  unauthorized: (m) => new Unauthorized(m),
  unavailable: (m, d) => new Unavailable(m, d.data),
  conflict: (m, d) => new Conflict(m, d.data),
  unimplemented: (m) => new LedgerNodeError('unimplemented', m),
  rate_limited: (m, d) => new RateLimited(m, d.data),
  not_validated: (m, d) => new NotValidated(m, d.data ?? {}),
  internal: (m) => new Internal(m),
};

/** Rebuilds a typed error from its kind (used when an error crosses a process boundary). */
export function errorFromKind(kind: string, message: string, details: ErrorDetails = {}): LedgerNodeError {
  const make = constructors[kind as ErrorKind];
  return make ? make(message, details) : new Internal(message);
}
