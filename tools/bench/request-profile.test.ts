import { describe, expect, it } from 'vitest';
import { layerOf, layerTextTable, profileLayers, summarize, type CpuProfile } from './request-profile';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

/**
 * root ─┬ (idle)
 *       ├ (garbage collector)
 *       ├ handleRequest (koa) ─ call (facade dispatcher) ─ stringify (no source)
 *       └ parserOnIncoming (node:_http_server)
 */
const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)', '', [2, 3, 4, 7]),
    frame(2, '(idle)', ''),
    frame(3, '(garbage collector)', ''),
    frame(4, 'handleRequest', 'file:///work/node_modules/koa/lib/application.js', [5]),
    frame(5, 'call', 'file:///work/apps/facade/src/jsonrpc/dispatcher.ts', [6]),
    frame(6, 'stringify', ''),
    frame(7, 'parserOnIncoming', 'node:_http_server'),
  ],
  // 1 000 µs of wall: idle 400, GC 100, koa 100, dispatcher 100 + its stringify 200, http 100.
  samples: [2, 2, 3, 4, 5, 6, 6, 7, 2, 2],
  timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
  startTime: 0,
  endTime: 1_000,
};

describe('request profile', () => {
  it('names the layer of a source: workspace files by project and module, packages by name, Node by what it does', () => {
    expect(layerOf('file:///w/apps/facade/src/http-guard.ts')).toBe('facade http-guard');
    expect(layerOf('file:///w/apps/facade/src/queries/answer-cache.ts')).toBe('facade queries/answer-cache');
    expect(layerOf('file:///w/libs/telemetry/src/metrics.ts')).toBe('libs telemetry');
    expect(layerOf('file:///w/node_modules/@opentelemetry/api/build/src/trace/NoopTracer.js')).toBe('@opentelemetry');
    expect(layerOf('file:///w/node_modules/@grpc/grpc-js/build/src/call.js')).toBe('@grpc/grpc-js');
    expect(layerOf('file:///w/node_modules/koa/lib/response.js')).toBe('koa');
    expect(layerOf('node:_http_outgoing')).toBe('node http');
    expect(layerOf('node:internal/streams/writable')).toBe('node net');
    expect(layerOf('node:internal/abort_controller')).toBe('node events');
    expect(layerOf('node:internal/async_hooks')).toBe('node async');
    expect(layerOf('node:crypto')).toBe('node crypto');
    expect(layerOf('node:internal/buffer')).toBe('node buffer');
    expect(layerOf('node:internal/util/inspect')).toBe('node util');
    expect(layerOf('')).toBeUndefined();
  });

  it('charges each sample to its innermost frame with a source, so work without one counts for its caller', () => {
    const rows = profileLayers(profile, 10);
    const byLayer = Object.fromEntries(rows.map((row) => [row.layer, row]));
    expect(byLayer['facade jsonrpc/dispatcher']).toEqual({ layer: 'facade jsonrpc/dispatcher', share: 0.3, microsPerRequest: 30 });
    expect(byLayer.koa!.share).toBeCloseTo(0.1);
    expect(byLayer['node http']!.microsPerRequest).toBe(10);
    expect(byLayer.GC!.share).toBeCloseTo(0.1);
    expect(byLayer.idle!.share).toBeCloseTo(0.4);
    expect(byLayer.idle!.microsPerRequest).toBeNaN();
    expect(rows[0]!.layer).toBe('idle');
  });

  it('summarizes: small layers together, the busy total, idle last', () => {
    const rows = summarize(profileLayers(profile, 10), 0.15);
    expect(rows.map((row) => row.layer)).toEqual(['facade jsonrpc/dispatcher', 'other layers (3)', 'busy in all', 'idle']);
    expect(rows[1]!.share).toBeCloseTo(0.3);
    expect(rows[2]).toMatchObject({ microsPerRequest: 60 });
    expect(rows[2]!.share).toBeCloseTo(0.6);
    expect(layerTextTable(rows)).toContain('30.0 %');
  });
});
