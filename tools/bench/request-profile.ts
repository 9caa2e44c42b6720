/**
 * Where a request's time goes inside one service: a V8 CPU profile of the process taken over one
 * read load (cpu-profile-hook.cjs), each sample charged to a layer, and per layer its share of the
 * process's wall time over the load and its CPU microseconds per answered request.
 *
 * A sample is charged to the innermost frame that has a source: a file of the workspace is its own
 * layer (`facade jsonrpc/dispatcher`, `libs telemetry`), a package its name (`koa`,
 * `@opentelemetry`, `@grpc/grpc-js`), a part of Node by what it does (`node http`, `node net`) or
 * its module (`node buffer`).
 * Frames without a source (JSON.stringify, a socket's writev) are charged to the frame that called
 * them, which is what asked for the work. The idle share says whether the process was the bound.
 * A frame of a bundle (`npm run build -- --sourcemap`, which the bench runs) is charged to the
 * source its source map names for the frame's position.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatValue, renderMarkdownTable, renderTextTable } from './figures';

interface CallFrame {
  functionName: string;
  url: string;
  /** Zero-based, as V8 reports them. */
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The parts of a `.cpuprofile` (Chrome DevTools protocol `Profiler.Profile`) this reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface LayerRow {
  layer: string;
  /** Share of the profile's wall time (0–1). */
  share: number;
  /** CPU microseconds per answered request. */
  microsPerRequest: number;
}

/** Node's own modules by what they do; any other part of Node by its module (`node buffer`, `node crypto`). */
const NODE_PARTS: readonly [RegExp, string][] = [
  [/^(_http_|http$|http2|internal\/http)/, 'node http'],
  [/^(net$|internal\/stream_base|internal\/net|stream|internal\/streams)/, 'node net'],
  [/^(async_hooks$|internal\/async_hooks|internal\/async_local_storage|internal\/process\/task_queues|internal\/process\/promises)/, 'node async'],
  [/^(events$|internal\/event_target|internal\/abort_controller)/, 'node events'],
  [/^(timers$|internal\/timers)/, 'node timers'],
  [/^(internal\/modules|internal\/process\/esm_loader|internal\/main)/, 'node module loading'],
];

/** The layer of a frame's source, or undefined for a frame without one. */
export function layerOf(url: string): string | undefined {
  if (url === '') return undefined;
  const file = url.replace(/^file:\/\//, '');
  const packageMatch = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (packageMatch) return packageMatch[1]!.startsWith('@opentelemetry/') ? '@opentelemetry' : packageMatch[1]!;
  const workspace = /\/(apps|libs)\/([^/]+)\/src\/(.+?)\.[cm]?[jt]s$/.exec(file);
  if (workspace) {
    const [, top, project, module] = workspace;
    return top === 'libs' ? `libs ${project}` : `${project} ${module}`;
  }
  const nodeModule = /^(?:node:)?(.+)$/.exec(file)![1]!;
  if (!file.startsWith('/')) return NODE_PARTS.find(([pattern]) => pattern.test(nodeModule))?.[1] ?? `node ${nodeModule.replace(/^internal\//, '').split('/')[0]}`;
  return 'other';
}

/** Each bundled file's source map (`<file>.map` beside it), undefined for a file without one. */
const sourceMaps = new Map<string, SourceMap | undefined>();

/** Where a frame's code came from: for a frame of a file with a source map, the source it names there; else the frame's own url. */
export function sourceUrl(frame: CallFrame): string {
  if (!frame.url.startsWith('file://')) return frame.url;
  const file = fileURLToPath(frame.url);
  if (!sourceMaps.has(file)) {
    const mapFile = `${file}.map`;
    sourceMaps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload) : undefined);
  }
  const entry = sourceMaps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalSource' in entry) || !entry.originalSource) return frame.url;
  const source = entry.originalSource;
  return source.startsWith('file://') ? source : `file://${path.resolve(path.dirname(file), source)}`;
}

/** V8's pseudo-frames by name (a Map: a frame named `constructor` or `toString` is no special one). */
const SPECIAL: ReadonlyMap<string, string> = new Map([
  ['(idle)', 'idle'],
  ['(garbage collector)', 'GC'],
  ['(program)', 'V8 (program)'],
  ['(root)', 'V8 (program)'],
]);

/**
 * The layers of one profile, largest first. `requests` answered during it gives the per-request
 * figure; the idle share and GC are kept as rows of their own.
 */
export function profileLayers(profile: CpuProfile, requests: number): LayerRow[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const layerOfNode = new Map<number, string>();
  const chargeOf = (id: number): string => {
    const known = layerOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const special = SPECIAL.get(node.callFrame.functionName);
    const parent = parentOf.get(id);
    const layer = special ?? layerOf(sourceUrl(node.callFrame)) ?? (parent === undefined ? 'V8 (program)' : chargeOf(parent));
    layerOfNode.set(id, layer);
    return layer;
  };
  const micros = new Map<string, number>();
  // timeDeltas[i] is the time before sample i: charge it to the sample it precedes.
  profile.samples.forEach((id, index) => {
    const layer = chargeOf(id);
    micros.set(layer, (micros.get(layer) ?? 0) + Math.max(0, profile.timeDeltas[index] ?? 0));
  });
  const wall = Math.max(1, profile.endTime - profile.startTime);
  return [...micros]
    .map(([layer, spent]) => ({ layer, share: spent / wall, microsPerRequest: layer === 'idle' || requests === 0 ? Number.NaN : spent / requests }))
    .sort((a, b) => b.share - a.share);
}

/** The busy layers that take at least `minimumShare` of the wall, the rest summed as `other layers`, then GC and idle. */
export function summarize(rows: readonly LayerRow[], minimumShare = 0.01): LayerRow[] {
  const busy = rows.filter((row) => row.layer !== 'idle');
  const shown = busy.filter((row) => row.share >= minimumShare);
  const rest = busy.filter((row) => row.share < minimumShare);
  const restRow = rest.length === 0 ? [] : [{ layer: `other layers (${rest.length})`, share: sum(rest, 'share'), microsPerRequest: sum(rest, 'microsPerRequest') }];
  const total = { layer: 'busy in all', share: sum(busy, 'share'), microsPerRequest: sum(busy, 'microsPerRequest') };
  return [...shown, ...restRow, total, ...rows.filter((row) => row.layer === 'idle')];
}

const sum = (rows: readonly LayerRow[], field: 'share' | 'microsPerRequest') => rows.reduce((total, row) => total + (Number.isNaN(row[field]) ? 0 : row[field]), 0);

/** `per` names what the profile's `requests` counted (a request, a ledger). */
const header = (per: string) => ['layer', 'share of wall', `µs per ${per}`];
const cells = (row: LayerRow) => [row.layer, formatValue(row.share, '%'), formatValue(row.microsPerRequest, 'µs')];

export const layerTextTable = (rows: readonly LayerRow[], per = 'request') => renderTextTable(header(per), rows.map(cells));
export const layerMarkdownTable = (rows: readonly LayerRow[], per = 'request') => renderMarkdownTable(header(per), rows.map(cells));
