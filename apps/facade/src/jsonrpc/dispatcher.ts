import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { isLedgerNodeError, Unauthorized } from '@ledger-node/errors';
import { counter, histogram, inCallSpan, type Logger } from '@ledger-node/telemetry';
import { parseParams, type MethodContext, type RpcMethod } from './method';
import { RenderedJson } from '../queries/rendered-json';
import { errorResponse, responseJson, RpcCode, rpcCodeByKind, successResponse, type RpcErrorObject, type RpcId } from './protocol';

export interface DispatcherOptions {
  methods: ReadonlyMap<string, RpcMethod>;
  context: MethodContext;
  logger: Logger;
  /** Most calls one batch may hold, a call weighing what its method's `weight` says (-max_batch). */
  maxBatchLength: number;
  /** Most bytes the answers to one request may take together (-max_response_bytes). */
  maxResponseBytes: number;
  /** A call that takes this long or longer is logged with method, duration and trace id (-slow_ms). */
  slowMs?: number;
}

/** What the HTTP layer knows about the caller. */
export interface CallerContext {
  /** Undefined when the caller may use signing methods; otherwise why not. */
  signingRefusal?: string;
}

const trusted: CallerContext = {};

class RequestError extends Error {
  constructor(readonly rpcError: RpcErrorObject) {
    super(rpcError.message);
  }
}

const rpcCodeNames = new Map<number, string>(Object.entries(RpcCode).map(([name, code]) => [code, name]));

const callMetrics = {
  count: counter('ledger_node_jsonrpc_requests_total', 'JSON-RPC calls by method and outcome (success, or the error code name)', ['method', 'outcome']),
  latency: histogram('ledger_node_jsonrpc_request_duration_seconds', 'JSON-RPC call latency by method and outcome', ['method', 'outcome']),
};

/**
 * The bytes one request's answers may still take; every answer takes its share when it is
 * rendered. Once a result did not fit, the calls not yet run are answered without running them.
 */
class ResponseBudget {
  exhausted = false;

  constructor(private left: number) {}

  /** Takes `bytes` if they fit, and says whether they did. */
  take(bytes: number): boolean {
    if (bytes > this.left) {
      this.exhausted = true;
      return false;
    }
    this.left -= bytes;
    return true;
  }
}

/**
 * Calls of one batch run at once: a batch of the default -max_batch runs whole (its lookups gather
 * into one ledger-store call: reads/batcher.ts), and a batch of thousands, under a raised
 * -max_batch, never becomes thousands of concurrent calls to the services.
 */
export const BATCH_CONCURRENCY = 100;

const isValidId = (id: unknown): id is RpcId =>
  id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/**
 * JSON-RPC 2.0: single calls and batches, notifications (no `id`: no response entry),
 * and every failure as an error object with `status: "error"`.
 */
export class Dispatcher {
  constructor(private readonly options: DispatcherOptions) {}

  /**
   * The response body (JSON text) for a parsed request body; undefined when nothing is to be sent
   * (only notifications). The answers of one request share -max_response_bytes: a result that no
   * longer fits is answered with -32012 instead.
   */
  async handle(body: unknown, caller: CallerContext = trusted): Promise<string | undefined> {
    const budget = new ResponseBudget(this.options.maxResponseBytes);
    if (!Array.isArray(body)) return this.call(body, caller, budget, true);
    const refusal = this.batchRefusal(body);
    if (refusal) return responseJson(errorResponse(null, { code: RpcCode.invalidRequest, message: `invalid request: ${refusal}` }));
    const limit = pLimit(BATCH_CONCURRENCY);
    const responses = await Promise.all(body.map((request) => limit(() => this.call(request, caller, budget, false))));
    const sent = responses.filter((response): response is string => response !== undefined);
    return sent.length > 0 ? `[${sent.join(',')}]` : undefined;
  }

  /** Why a batch is refused as a whole (empty, or heavier than -max_batch), if it is. */
  private batchRefusal(batch: unknown[]): string | undefined {
    if (batch.length === 0) return 'empty batch';
    const limit = this.options.maxBatchLength;
    if (batch.length > limit) return `batch of ${batch.length} calls exceeds the limit of ${limit}`;
    const weight = batch.reduce<number>((sum, request) => sum + this.weightOf(request), 0);
    if (weight > limit) {
      return `batch of ${batch.length} calls weighs ${weight} calls (a block with full transactions, or a page of account history, weighs more than one) and exceeds the limit of ${limit}`;
    }
    return undefined;
  }

  private weightOf(request: unknown): number {
    if (typeof request !== 'object' || request === null) return 1;
    const { method: name, params } = request as { method?: unknown; params?: unknown };
    const method = typeof name === 'string' ? this.options.methods.get(name) : undefined;
    return method?.weight && Array.isArray(params) ? method.weight(params, this.options.context) : 1;
  }

  /**
   * One call as one span (`jsonrpc <method>`, parent of the gRPC calls it makes: the request's own
   * span when the call is `alone` in it, a span of its own in a batch), counted and timed per
   * method and outcome. Only registered method names become labels.
   */
  private async call(request: unknown, caller: CallerContext, budget: ResponseBudget, alone: boolean): Promise<string | undefined> {
    const requested = typeof request === 'object' && request !== null ? (request as { method?: unknown }).method : undefined;
    const method = typeof requested === 'string' && this.options.methods.has(requested) ? requested : 'unknown';
    const startedAt = process.hrtime.bigint();
    const outcome = { code: 0 };
    return inCallSpan(`jsonrpc ${method}`, { 'rpc.system': 'jsonrpc', 'rpc.method': method }, alone, async (span) => {
      const response = await this.execute(request, caller, budget, outcome);
      const name = outcome.code === 0 ? 'success' : (rpcCodeNames.get(outcome.code) ?? String(outcome.code));
      if (outcome.code !== 0) span.setAttribute('rpc.jsonrpc.error_code', outcome.code);
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      callMetrics.count.inc({ method, outcome: name });
      callMetrics.latency.observe({ method, outcome: name }, seconds);
      const durationMs = Math.round(seconds * 1000);
      if (this.options.slowMs !== undefined && durationMs >= this.options.slowMs) {
        this.options.logger.warn({ method, durationMs, outcome: name }, `slow JSON-RPC call: ${method} took ${durationMs} ms`);
      }
      return response;
    });
  }

  private async execute(request: unknown, caller: CallerContext, budget: ResponseBudget, outcome: { code: number }): Promise<string | undefined> {
    const id = typeof request === 'object' && request !== null && 'id' in request ? (request as { id: unknown }).id : undefined;
    const responseId: RpcId = isValidId(id) ? id : null;
    try {
      const { method, params } = this.validate(request);
      if (method.signing && caller.signingRefusal) throw new Unauthorized(`${method.name} refused: ${caller.signingRefusal}`);
      const values = parseParams(method, params);
      if (budget.exhausted) throw this.tooLarge();
      const result = await method.handler(values, this.options.context);
      if (id === undefined) return undefined;
      const rendered = responseJson(successResponse(responseId, result instanceof RenderedJson ? result : RenderedJson.of(result ?? null)));
      if (!budget.take(Buffer.byteLength(rendered))) throw this.tooLarge();
      return rendered;
    } catch (error) {
      const rpcError = this.toRpcError(error);
      outcome.code = rpcError.code;
      // A malformed request gets an answer even without an id; a failed notification does not.
      if (id === undefined && !(error instanceof RequestError)) return undefined;
      const rendered = responseJson(errorResponse(responseId, rpcError));
      budget.take(Buffer.byteLength(rendered));
      return rendered;
    }
  }

  private tooLarge(): RequestError {
    const limit = this.options.maxResponseBytes;
    return new RequestError({
      code: RpcCode.responseTooLarge,
      message: `response too large: the answers to this request would exceed ${limit} bytes (-max_response_bytes); ask for less in one request`,
      data: { max_response_bytes: limit },
    });
  }

  private validate(request: unknown): { method: RpcMethod; params: unknown[] } {
    const invalid = (why: string) => new RequestError({ code: RpcCode.invalidRequest, message: `invalid request: ${why}` });
    if (typeof request !== 'object' || request === null || Array.isArray(request)) throw invalid('expected a JSON object');
    const { jsonrpc, method: name, params, id } = request as Record<string, unknown>;
    if (jsonrpc !== '2.0') throw invalid('"jsonrpc" must be "2.0"');
    if (typeof name !== 'string' || name === '') throw invalid('"method" must be a non-empty string');
    if (id !== undefined && !isValidId(id)) throw invalid('"id" must be a number, a string or null');
    if (params !== undefined && !Array.isArray(params)) throw invalid('"params" must be an array');
    const method = this.options.methods.get(name);
    if (!method) throw new RequestError({ code: RpcCode.methodNotFound, message: `method not found: ${name}` });
    return { method, params: (params as unknown[] | undefined) ?? [] };
  }

  private toRpcError(error: unknown): RpcErrorObject {
    if (error instanceof RequestError) return error.rpcError;
    if (isLedgerNodeError(error) && error.kind !== 'internal') {
      const data = error.details.param ? { param: error.details.param, ...error.details.data } : error.details.data;
      return { code: rpcCodeByKind[error.kind], message: error.message, ...(data ? { data } : {}) };
    }
    // Unexpected: the caller gets a correlation id to quote, the log gets the details.
    const correlationId = randomUUID();
    this.options.logger.error({ err: error, correlationId }, 'internal error in JSON-RPC method');
    return { code: RpcCode.internal, message: 'internal error', data: { correlation_id: correlationId } };
  }
}
