import type { Metadata, ServiceDefinition } from '@grpc/grpc-js';

/** A generated service definition (ts-proto `outputServices=grpc-js`). */
export type AnyService = ServiceDefinition;

export type RequestOf<M> = M extends { requestDeserialize(bytes: Buffer): infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseDeserialize(bytes: Buffer): infer Res } ? Res : never;
/** How a method streams: a bidirectional stream, a server stream, or one request and one answer. */
type Shape<M> = M extends { requestStream: true; responseStream: true } ? 'bidi' : M extends { responseStream: true } ? 'server' : 'unary';

export interface CallContext {
  readonly metadata: Metadata;
  /** Aborted when the caller cancels or its deadline passes. */
  readonly signal: AbortSignal;
  /** Who the work is for, when the first service named it (call-scope.ts). */
  readonly caller?: string;
}

/**
 * Service handlers are plain async functions: return a value (or yield values) or throw one of our
 * errors. A bidirectional stream's handler reads the requests as they come and yields its answers.
 */
export type Handlers<S extends AnyService> = {
  [K in keyof S]: Shape<S[K]> extends 'bidi'
    ? (requests: AsyncIterable<RequestOf<S[K]>>, context: CallContext) => AsyncIterable<ResponseOf<S[K]>>
    : Shape<S[K]> extends 'server'
      ? (request: RequestOf<S[K]>, context: CallContext) => AsyncIterable<ResponseOf<S[K]>>
      : (request: RequestOf<S[K]>, context: CallContext) => Promise<ResponseOf<S[K]>>;
};

export interface CallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  metadata?: Metadata;
  signal?: AbortSignal;
}

/** A bidirectional stream's client end: requests sent in order, their answers read in order. */
export interface DuplexCall<Req, Res> {
  send(request: Req): void;
  /** No more requests: the server answers those sent and ends the stream. */
  end(): void;
  /** Ends the stream at once; reading the answers stops quietly. */
  cancel(): void;
  /** The answers; fails with our typed error when the stream does. */
  readonly responses: AsyncIterable<Res>;
}

/** A typed promise-based client: one async method per RPC; server streams are async iterables, bidirectional ones a DuplexCall. */
export type Client<S extends AnyService> = {
  [K in keyof S]: Shape<S[K]> extends 'bidi'
    ? (options?: CallOptions) => DuplexCall<RequestOf<S[K]>, ResponseOf<S[K]>>
    : Shape<S[K]> extends 'server'
      ? (request: RequestOf<S[K]>, options?: CallOptions) => AsyncIterable<ResponseOf<S[K]>>
      : (request: RequestOf<S[K]>, options?: CallOptions) => Promise<ResponseOf<S[K]>>;
};
