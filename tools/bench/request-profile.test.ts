import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layerOf, layerTextTable, profileLayers, sourceUrl, summarize, type CpuProfile } from './request-profile';

const frame = (id: number, functionName: string, url: string, children: number[] = [], lineNumber = 0, columnNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber, columnNumber },
  children,
});

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

  it("takes a frame named after an Object method (a class's `constructor`) for an ordinary frame, not a V8 pseudo-frame", () => {
    const rows = profileLayers(
      {
        nodes: [frame(1, '(root)', '', [2]), frame(2, 'constructor', '', [3]), frame(3, 'toString', 'file:///w/node_modules/koa/lib/context.js')],
        samples: [2, 3],
        timeDeltas: [100, 100],
        startTime: 0,
        endTime: 200,
      },
      1,
    );
    expect(rows.map((row) => row.layer).sort()).toEqual(['V8 (program)', 'koa']);
    expect(layerTextTable(summarize(rows))).toContain('koa');
  });

  it('summarizes: small layers together, the busy total, idle last', () => {
    const rows = summarize(profileLayers(profile, 10), 0.15);
    expect(rows.map((row) => row.layer)).toEqual(['facade jsonrpc/dispatcher', 'other layers (3)', 'busy in all', 'idle']);
    expect(rows[1]!.share).toBeCloseTo(0.3);
    expect(rows[2]).toMatchObject({ microsPerRequest: 60 });
    expect(rows[2]!.share).toBeCloseTo(0.6);
    expect(layerTextTable(rows)).toContain('30.0 %');
  });

  it("charges a bundle's frame to the source its source map names for the frame's line and column, and a file without a map to itself", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'request-profile-'));
    try {
      const chunk = path.join(dir, 'chunks', 'chunk-A.mjs');
      const chunkUrl = pathToFileURL(chunk).href;
      // Line 0 from column 0: apps/facade/src/jsonrpc/dispatcher.ts; line 1 from column 0: libs/grpc/src/client.ts, from column 10: koa.
      const map = { version: 3, sources: ['../../../work/apps/facade/src/jsonrpc/dispatcher.ts', '../../../work/libs/grpc/src/client.ts', '../../../work/node_modules/koa/lib/application.js'], names: [], mappings: 'AAAA;ACAA,UCAA' };
      mkdirSync(path.dirname(chunk));
      writeFileSync(chunk, '');
      writeFileSync(`${chunk}.map`, JSON.stringify(map));
      const at = (lineNumber: number, columnNumber: number) => sourceUrl({ functionName: 'f', url: chunkUrl, lineNumber, columnNumber });
      expect(layerOf(at(0, 4))).toBe('facade jsonrpc/dispatcher');
      expect(layerOf(at(1, 2))).toBe('libs grpc');
      expect(layerOf(at(1, 12))).toBe('koa');
      const plain = pathToFileURL(path.join(dir, 'plain.mjs')).href;
      expect(sourceUrl({ functionName: 'f', url: plain, lineNumber: 3, columnNumber: 1 })).toBe(plain);
      expect(sourceUrl({ functionName: 'f', url: 'node:_http_server', lineNumber: 3, columnNumber: 1 })).toBe('node:_http_server');

      const bundled: CpuProfile = {
        nodes: [frame(1, '(root)', '', [2]), frame(2, 'handle', chunkUrl, [3], 1, 12), frame(3, 'call', chunkUrl, [], 0, 4)],
        samples: [2, 3, 3],
        timeDeltas: [100, 100, 100],
        startTime: 0,
        endTime: 300,
      };
      expect(profileLayers(bundled, 1).map((row) => row.layer)).toEqual(['facade jsonrpc/dispatcher', 'koa']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
