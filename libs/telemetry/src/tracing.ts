/**
 * Spans through the OpenTelemetry API only. Without a started SDK (OTEL_* unset) the API is a
 * no-op: no span is recorded, and these helpers run their task at once with a span that records
 * nothing, making no span and no context of their own.
 */
import { context, INVALID_SPAN_CONTEXT, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('ledger-node');

/** Whether this process started the SDK (start.ts). */
let recording = false;
/** What a task gets for its span while nothing is recorded: every call on it does nothing. */
const notRecorded = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Called once the SDK has started: from then on the helpers below make spans. */
export function spansRecorded(): void {
  recording = true;
}

/** Whether spans are recorded (spansRecorded was called): a caller may skip what only a span needs. */
export function recordingSpans(): boolean {
  return recording;
}

/** Trace and span id of the span active in this async context, when one is recorded. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  // W3C trace-context: flag bit 0 is "sampled"; an unsampled span is never exported.
  if ((traceFlags & 1) === 0) return undefined;
  return { trace_id: traceId, span_id: spanId };
}

/**
 * Runs `task` for one call a request carries: with `alone` (the request carries no other call), in
 * the request's server span, active now, named `name` and given `attributes` (one span for the
 * request and its call instead of two, each recorded and exported at a cost); else in a
 * child span of its own, that ends when `task` settles. A throw marks the span as an error with
 * the error's name only, never its message (it may quote input).
 */
export function inCallSpan<T>(name: string, attributes: Attributes, alone: boolean, task: (span: Span) => Promise<T>): Promise<T> {
  if (!recording) return task(notRecorded);
  const serving = alone ? trace.getActiveSpan() : undefined;
  if (serving === undefined) return tracer.startActiveSpan(name, { attributes }, (span) => runToEnd(span, task));
  serving.updateName(name);
  serving.setAttributes(attributes);
  return task(serving);
}

/**
 * Runs `task` as the server span of one incoming HTTP request. Its parent is the trace context the
 * caller sent in the request's headers (W3C `traceparent`/`tracestate`, or what OTEL_PROPAGATORS
 * names), so a trace begun in front of the node (a proxy, a client) continues through it.
 */
export function inServerSpan<T>(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
  task: (span: Span) => Promise<T>,
): Promise<T> {
  if (!recording) return task(notRecorded);
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  return tracer.startActiveSpan(name, { kind: SpanKind.SERVER, attributes }, parent, (span) => runToEnd(span, task));
}

async function runToEnd<T>(span: Span, task: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await task(span);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
    throw error;
  } finally {
    span.end();
  }
}

/** The trace context of the caller, kept to be named later by a batch that serves it (see `inBatchSpan`). */
export type TraceContext = Context;

export function currentTraceContext(): TraceContext {
  return context.active();
}

/**
 * Runs `task` for work gathered from several callers (one gRPC call for many JSON-RPC calls):
 * one span, child of the first caller's span (so that caller's trace runs through the batch into
 * the next service) and linked to every other caller's span (OpenTelemetry's model for batches:
 * each of those traces names the batch that served it).
 */
export function inBatchSpan<T>(name: string, attributes: Attributes, callers: readonly TraceContext[], task: (span: Span) => Promise<T>): Promise<T> {
  if (!recording) return task(notRecorded);
  const links: Link[] = [];
  for (const caller of callers.slice(1)) {
    const spanContext = trace.getSpanContext(caller);
    if (spanContext && (spanContext.traceFlags & 1) === 1) links.push({ context: spanContext });
  }
  return context.with(callers[0] ?? context.active(), () =>
    tracer.startActiveSpan(name, { attributes: { ...attributes, 'batch.size': callers.length }, links }, (span) => runToEnd(span, task)),
  );
}

export { SpanKind, SpanStatusCode, type Span };
