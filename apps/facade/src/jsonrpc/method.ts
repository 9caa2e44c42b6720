import { z } from 'zod';
import { InvalidParams } from '@ledger-node/errors';
import type { ChainProfile } from '@ledger-node/chain';
import type { Clients } from '../clients';
import type { SyncStatusCache } from '../sync-status';
import type { Queries } from '../queries/queries';
import type { RenderedJson } from '../queries/rendered-json';
import type { SendLimit } from '../send-limit';
import type { RpcCode } from './protocol';

/** One positional parameter: its name (used in error messages and documents) and schema. */
export interface Param<T = unknown> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
  readonly description: string;
  /** Optional parameters may be left out from the end of the list (their schema supplies the default). */
  readonly optional?: boolean;
}

export type ParamValues<P extends readonly Param[]> = { -readonly [I in keyof P]: P[I] extends Param<infer T> ? T : never };

export interface MethodContext {
  readonly clients: Clients;
  readonly profile: ChainProfile;
  /** False when the node runs with -sync=false (jt_syncing then answers false). */
  readonly syncEnabled: boolean;
  /** Sync's status, asked for in the background. */
  readonly syncStatus: SyncStatusCache;
  /** Most transactions in one history page (-max_page_size). */
  readonly maxPageSize: number;
  /** Every read of the chain: gathered, cached, with the store's errors (queries/queries.ts). */
  readonly queries: Queries;
  /** Each client's allowance of sends (-send_rate). */
  readonly sends: SendLimit;
}

/** A JSON-RPC error by its name in protocol.ts's RpcCode, e.g. `outOfRange` for -32002. */
export type RpcErrorName = keyof typeof RpcCode;

/**
 * What any call may be answered besides its result: bad params, a service of the node that cannot be
 * reached, an answer over -max_response_bytes, an internal error. Signing methods may also be refused
 * (unauthorized). A method lists only the errors beyond these.
 */
export const everyMethodErrors: readonly RpcErrorName[] = ['invalidParams', 'serviceUnavailable', 'responseTooLarge', 'internal'];

/**
 * One call and its answer as they travel (JSON): shown in the OpenRPC document, and checked by the
 * tests against the method's own param and result schemas.
 */
export interface RpcExample {
  readonly name: string;
  readonly params: readonly unknown[];
  readonly result: unknown;
}

/** A JSON-RPC method defined once: params and result schemas plus the handler they type. */
export interface RpcMethod<P extends readonly Param[] = readonly Param[], R = unknown> {
  readonly name: string;
  readonly summary: string;
  readonly params: P;
  readonly result: z.ZodType<R>;
  /** The errors this method answers beyond every method's (everyMethodErrors). */
  readonly errors: readonly RpcErrorName[];
  /** At least one real call and its answer. */
  readonly examples: readonly [RpcExample, ...RpcExample[]];
  /** Signing methods run only for callers the listener trusts (loopback, or a bearer token when one is configured). */
  readonly signing?: boolean;
  /** What one call counts for in a batch's -max_batch, given its raw params, by what it can return (1 when absent). */
  readonly weight?: (params: unknown[], context: MethodContext) => number;
  /** The result, or the same already rendered as JSON (an answer that never changes, from the cache). */
  readonly handler: (params: ParamValues<P>, context: MethodContext) => Promise<R | RenderedJson<R>>;
}

export function defineMethod<const P extends readonly Param[], R>(method: RpcMethod<P, R>): RpcMethod<P, R> {
  return method;
}

export function param<T>(name: string, schema: z.ZodType<T>, description: string, options: { optional?: boolean } = {}): Param<T> {
  return { name, schema, description, optional: options.optional };
}

/** Checks positional params against a method's list; the error names the parameter and the expected form. */
export function parseParams<P extends readonly Param[]>(method: RpcMethod<P, unknown>, params: unknown[]): ParamValues<P> {
  const required = method.params.filter((p) => !p.optional).length;
  if (params.length < required || params.length > method.params.length) {
    const expected = required === method.params.length ? `${required}` : `${required} to ${method.params.length}`;
    throw new InvalidParams(
      `${method.name} takes ${expected} parameter(s) (${method.params.map((p) => p.name).join(', ') || 'none'}), got ${params.length}`,
    );
  }
  return method.params.map((spec, position) => {
    const result = spec.schema.safeParse(params[position]);
    if (!result.success) {
      const reason = result.error.issues[0]?.message ?? 'invalid value';
      throw new InvalidParams(`invalid parameter ${position + 1} (${spec.name}): ${reason}`, spec.name);
    }
    return result.data;
  }) as ParamValues<P>;
}
