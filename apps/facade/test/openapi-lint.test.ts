import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@ledger-node/test-utils';
import { openApiDocument } from '../src/rest/openapi';
import { restRouteDefinitions } from '../src/rest/routes';

const run = promisify(execFile);
const document = openApiDocument(restRouteDefinitions);
const { dir, remove } = tempDir('ledger-node-openapi-');
afterAll(remove);

/** Redocly CLI's own entry point, run with this Node. */
const redoclyCli = (() => {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@redocly/cli/package.json');
  return path.join(path.dirname(manifest), (require(manifest) as { bin: Record<string, string> }).bin.redocly!);
})();

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint` over a document, with the config of apps/facade/redocly.yaml; its JSON report. */
async function lint(candidate: unknown): Promise<LintReport> {
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(candidate, null, 2));
  // Exit code 1 means errors were found: the report is on stdout either way.
  const { stdout } = await run(process.execPath, [redoclyCli, 'lint', file, '--config', path.join(import.meta.dirname, '../redocly.yaml'), '--format', 'json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 60_000,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as LintReport;
}

const summary = (report: LintReport) => report.problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);

describe('the OpenAPI document under Redocly lint (recommended rules)', () => {
  it('has no error and no warning', async () => {
    const report = await lint(document);
    expect(summary(report)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('is caught when an example stops matching its schema or an operation loses its id', async () => {
    const broken = structuredClone(document) as { paths: Record<string, Record<string, any>> };
    broken.paths['/v1/ledgers/{ledger}']!.get.responses['200'].content['application/json'].example.ledger.close_time = '2013-01-02';
    delete broken.paths['/v1/status']!.get.operationId;
    const rules = (await lint(broken)).problems.map((problem) => problem.ruleId).sort();
    expect(rules).toEqual(['no-invalid-media-type-examples', 'operation-operationId']);
  });
});

describe('every REST route', () => {
  it('names its operation once, and is tagged with its resource', () => {
    const ids = restRouteDefinitions.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.tags.map((tag) => tag.name)).toEqual(['ledgers', 'transactions', 'submissions', 'local accounts', 'accounts', 'status']);
  });

  it.each(restRouteDefinitions.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))("%s: its example passes the route's own schemas", (_name, route) => {
    const { example } = route;
    expect(route.params.safeParse(example.params ?? {}).error).toBeUndefined();
    expect(route.query.safeParse(example.query ?? {}).error).toBeUndefined();
    if (route.body) expect(route.body.safeParse(example.body).error).toBeUndefined();
    expect(route.response.safeParse(example.response).error).toBeUndefined();
  });
});
