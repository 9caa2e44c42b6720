/**
 * An OTLP/HTTP trace receiver for tests: what a collector at OTEL_EXPORTER_OTLP_ENDPOINT gets.
 * It reads both encodings an exporter may send (JSON and protobuf, by content type), keeping the
 * fields the tests look at.
 */
import { createServer, type Server } from 'node:http';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

export interface CollectedSpan {
  /** The exporting process's `service.name`. */
  service: string;
  /** The instrumentation scope that made the span. */
  scope: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  /** Span ids of the spans this one links to. */
  links: string[];
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));

export class OtlpReceiver {
  /** Every span received, in arrival order. */
  readonly spans: CollectedSpan[] = [];
  /** Every `/v1/traces` JSON body as received (protobuf bodies are not kept). */
  readonly jsonBodies: string[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          const body = Buffer.concat(chunks);
          if (/protobuf/.test(request.headers['content-type'] ?? '')) this.spans.push(...decodeProtobufExport(body));
          else this.collectJson(body.toString('utf8'));
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  /** Listens on 127.0.0.1:`port`; answers its endpoint URL (for OTEL_EXPORTER_OTLP_ENDPOINT). */
  async listen(port: number): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The spans of the one trace whose JSON-RPC span is `jsonrpc <method>`, once `services` all reported and no more arrive. */
  async traceOf(method: string, services: string[], timeoutMs = 20_000): Promise<CollectedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    let previousCount = -1;
    for (;;) {
      const roots = this.spans.filter((span) => span.name === `jsonrpc ${method}`);
      const inTrace = roots.length === 1 ? this.spans.filter((span) => span.traceId === roots[0]!.traceId) : [];
      const complete = services.every((service) => inTrace.some((span) => span.service === service));
      if (complete && inTrace.length === previousCount) return inTrace;
      previousCount = inTrace.length;
      if (Date.now() > deadline) {
        throw new Error(`no complete trace for ${method}: ${roots.length} JSON-RPC spans, ${JSON.stringify(inTrace.map((span) => `${span.service} ${span.name}`))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  private collectJson(body: string): void {
    this.jsonBodies.push(body);
    const document = JSON.parse(body);
    for (const resourceSpans of document.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            scope: scopeSpans.scope?.name ?? '',
            name: span.name,
            kind: span.kind,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map((link: { spanId: string }) => link.spanId),
          });
        }
      }
    }
  }
}

/** The fields of one message, by field number (opentelemetry-proto's trace/v1 and common/v1 numbering). */
function fields(bytes: Uint8Array): Map<number, (Uint8Array | number)[]> {
  const reader = new BinaryReader(bytes);
  const byNumber = new Map<number, (Uint8Array | number)[]>();
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    const value = wireType === WireType.LengthDelimited ? reader.bytes() : wireType === WireType.Varint ? reader.int32() : (reader.skip(wireType, fieldNo), undefined);
    if (value !== undefined) byNumber.set(fieldNo, [...(byNumber.get(fieldNo) ?? []), value]);
  }
  return byNumber;
}

const text = (value: Uint8Array | number | undefined) => (value instanceof Uint8Array ? new TextDecoder().decode(value) : '');
const hex = (value: Uint8Array | number | undefined) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : '');
const messages = (values: (Uint8Array | number)[] | undefined) => (values ?? []).filter((value): value is Uint8Array => value instanceof Uint8Array).map(fields);

/** KeyValue { key = 1; AnyValue value = 2 { string_value = 1 } }: string attributes only. */
function stringAttributes(keyValues: (Uint8Array | number)[] | undefined): Record<string, unknown> {
  return Object.fromEntries(messages(keyValues).map((keyValue) => [text(keyValue.get(1)?.[0]), text(messages(keyValue.get(2))[0]?.get(1)?.[0])]));
}

/** ExportTraceServiceRequest { ResourceSpans resource_spans = 1 { Resource resource = 1 { attributes = 1 }; ScopeSpans scope_spans = 2 { scope = 1 { name = 1 }; Span spans = 2 } } }. */
function decodeProtobufExport(body: Uint8Array): CollectedSpan[] {
  const spans: CollectedSpan[] = [];
  for (const resourceSpans of messages(fields(body).get(1))) {
    const service = String(stringAttributes(messages(resourceSpans.get(1))[0]?.get(1))['service.name']);
    for (const scopeSpans of messages(resourceSpans.get(2))) {
      const scope = text(messages(scopeSpans.get(1))[0]?.get(1)?.[0]);
      for (const span of messages(scopeSpans.get(2))) {
        // Span { trace_id = 1; span_id = 2; parent_span_id = 4; name = 5; kind = 6; attributes = 9; links = 13 { span_id = 2 } }
        spans.push({
          service,
          scope,
          name: text(span.get(5)?.[0]),
          kind: Number(span.get(6)?.[0] ?? 0),
          traceId: hex(span.get(1)?.[0]),
          spanId: hex(span.get(2)?.[0]),
          parentSpanId: hex(span.get(4)?.[0]),
          attributes: stringAttributes(span.get(9)),
          links: messages(span.get(13)).map((link) => hex(link.get(2)?.[0])),
        });
      }
    }
  }
  return spans;
}
