/**
 * What a request to an upstream can fail with besides UpstreamUnavailable (@ledger-node/errors),
 * which stays the error of every transport failure: no connection, no answer in time, a closed socket.
 */

/** The server answered a request with an error (rippled `status: "error"`), e.g. `lgrNotFound`, `actNotFound`, `entryNotFound`. */
export class UpstreamRequestError extends Error {
  constructor(
    readonly command: string,
    /** rippled's `error` token. */
    readonly errorCode: string,
    message: string,
    /** rippled's own words (`error_message`, or `error_exception`), when it gave any. */
    readonly errorMessage?: string,
    /** The error answer's fields as the server gave them (id and type taken off), for callers that hand them on. */
    readonly answer: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'UpstreamRequestError';
  }
}

/** A message that did not match the shape the protocol promises. */
export class MalformedUpstreamMessage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedUpstreamMessage';
  }
}
