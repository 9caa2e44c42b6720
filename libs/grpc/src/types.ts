import type { Metadata, ServiceDefinition } from '@grpc/grpc-js';

/** A generated service definition (ts-proto `outputServices=grpc-js`). */
export type AnyService = ServiceDefinition;

export type RequestOf<M> = M extends { requestDeserialize(bytes: Buffer): infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseDeserialize(bytes: Buffer): infer Res } ? Res : never;
type IsServerStream<M> = M extends { responseStream: true } ? true : false;

export interface CallContext {
  readonly metadata: Metadata;
  /** Aborted when the caller cancels or its deadline passes. */
  readonly signal: AbortSignal;
  /** Who the work is for, when the first service named it (call-scope.ts). */
  readonly caller?: string;
}

/** Service handlers are plain async functions: return a value (or yield values) or throw one of our errors. */
export type Handlers<S extends AnyService> = {
  [K in keyof S]: IsServerStream<S[K]> extends true
    ? (request: RequestOf<S[K]>, context: CallContext) => AsyncIterable<ResponseOf<S[K]>>
    : (request: RequestOf<S[K]>, context: CallContext) => Promise<ResponseOf<S[K]>>;
};

export interface CallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  metadata?: Metadata;
  signal?: AbortSignal;
}

/** A typed promise-based client: one async method per RPC; server streams are async iterables. */
export type Client<S extends AnyService> = {
  [K in keyof S]: IsServerStream<S[K]> extends true
    ? (request: RequestOf<S[K]>, options?: CallOptions) => AsyncIterable<ResponseOf<S[K]>>
    : (request: RequestOf<S[K]>, options?: CallOptions) => Promise<ResponseOf<S[K]>>;
};
