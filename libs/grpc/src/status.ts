import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { errorFromKind, Internal, isLedgerNodeError, type ErrorKind, type LedgerNodeError } from '@ledger-node/errors';

/** The one mapping between our error kinds and gRPC status codes. */
const codeByKind: Record<ErrorKind, status> = {
  invalid_params: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  not_synced: status.FAILED_PRECONDITION,
  out_of_range: status.OUT_OF_RANGE,
  account_not_found: status.NOT_FOUND,
  no_local_account: status.NOT_FOUND,
  upstream_unavailable: status.UNAVAILABLE,
  rejected: status.FAILED_PRECONDITION,
  unauthorized: status.UNAUTHENTICATED,
  unavailable: status.UNAVAILABLE,
  conflict: status.ALREADY_EXISTS,
  unimplemented: status.UNIMPLEMENTED,
  rate_limited: status.RESOURCE_EXHAUSTED,
  not_validated: status.DEADLINE_EXCEEDED,
  internal: status.INTERNAL,
};

/** For statuses that did not come from one of our services (no kind in the trailers). */
const kindByCode: Partial<Record<status, ErrorKind>> = {
  [status.INVALID_ARGUMENT]: 'invalid_params',
  [status.NOT_FOUND]: 'not_found',
  [status.FAILED_PRECONDITION]: 'not_synced',
  [status.OUT_OF_RANGE]: 'out_of_range',
  [status.UNAVAILABLE]: 'unavailable',
  [status.DEADLINE_EXCEEDED]: 'unavailable',
  [status.CANCELLED]: 'unavailable',
  [status.UNAUTHENTICATED]: 'unauthorized',
  [status.PERMISSION_DENIED]: 'unauthorized',
  [status.ALREADY_EXISTS]: 'conflict',
  [status.UNIMPLEMENTED]: 'unimplemented',
  [status.RESOURCE_EXHAUSTED]: 'rate_limited',
};

const kindKey = 'ln-error-kind';
/** Binary (`-bin`) metadata: details carry callers' text, which ASCII-only metadata could not. */
const detailsKey = 'ln-error-details-bin';

/**
 * Bounds on the error text that crosses gRPC in trailers: HTTP/2 bounds a header list (grpc-js
 * 16 KiB by default: a call whose trailers are larger never completes), and error messages quote
 * callers' text, which may be any length.
 */
const MAX_MESSAGE_CHARS = 1_000;
const MAX_DETAIL_CHARS = 200;
const MAX_DETAIL_ITEMS = 20;

/** `text` cut to `max` code points (never inside a surrogate pair), saying how long it was. */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max).join('')}… (${points.length} characters)`;
}

/** Details with every string shortened and every list and object cut to its first items. */
function boundedDetails(value: unknown): unknown {
  if (typeof value === 'string') return shortened(value, MAX_DETAIL_CHARS);
  if (Array.isArray(value)) return value.slice(0, MAX_DETAIL_ITEMS).map(boundedDetails);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).slice(0, MAX_DETAIL_ITEMS).map(([key, field]) => [shortened(key, MAX_DETAIL_CHARS), boundedDetails(field)]));
  }
  return value;
}

export function statusCodeOf(kind: ErrorKind): status {
  return codeByKind[kind];
}

/**
 * A thrown value as a gRPC status. Our errors keep their kind and details (in trailers);
 * anything else becomes INTERNAL with no detail, so nothing private leaks to a caller.
 */
export function toStatus(error: unknown): Partial<StatusObject> {
  const known: LedgerNodeError = isLedgerNodeError(error) ? error : new Internal();
  const metadata = new Metadata();
  metadata.set(kindKey, known.kind);
  metadata.set(detailsKey, Buffer.from(JSON.stringify(boundedDetails(known.details)), 'utf8'));
  return { code: codeByKind[known.kind], details: shortened(known.message, MAX_MESSAGE_CHARS), metadata };
}

/** Error details as carried between processes (JSON); unreadable details are dropped, not fatal. */
function parseDetails(rawDetails: unknown): object {
  const text = Buffer.isBuffer(rawDetails) ? rawDetails.toString('utf8') : rawDetails;
  if (typeof text !== 'string') return {};
  try {
    return JSON.parse(text) as object;
  } catch {
    return {};
  }
}

/** A failed call's error as one of ours, whichever side made it. */
export function fromStatus(error: Partial<ServiceError>): LedgerNodeError {
  const kind = error.metadata?.get(kindKey)[0];
  const message = error.details || error.message || 'call failed';
  if (typeof kind === 'string') return errorFromKind(kind, message, parseDetails(error.metadata?.get(detailsKey)[0]));
  const fallback = error.code === undefined ? undefined : kindByCode[error.code as status];
  if (fallback === 'unavailable') return errorFromKind('unavailable', `service unavailable: ${message}`);
  return errorFromKind(fallback ?? 'internal', message);
}

/** One failed item of a batched call, as the batch's response carries it (e.g. ledgerstore.proto ItemError). */
export interface ItemErrorFields {
  kind: string;
  message: string;
  detailsJson: string;
}

/** Our error as one item of a batch answer: kind, message and details as a status would carry them. */
export function toItemError(error: LedgerNodeError): ItemErrorFields {
  return { kind: error.kind, message: error.message, detailsJson: JSON.stringify(error.details) };
}

export function fromItemError(item: ItemErrorFields): LedgerNodeError {
  return errorFromKind(item.kind, item.message, parseDetails(item.detailsJson));
}
