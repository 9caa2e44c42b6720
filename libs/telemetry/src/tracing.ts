/**
 * Spans through the OpenTelemetry API only. Without a started SDK (OTEL_* unset) the API is a
 * no-op: no span is recorded and these helpers cost a context lookup.
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('ledger-node');

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
 * Runs `task` inside a new span (child of the active one) that ends when it settles; a throw
 * marks the span as an error with the error's name only, never its message (it may quote input).
 */
export async function inSpan<T>(name: string, attributes: Attributes, task: (span: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await task(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind, SpanStatusCode, type Span };
