import { describe, expect, it } from 'vitest';
import { counter, gauge, histogram, initMetrics, metricsText, observedGauge, observedGauges, observeReadiness } from './metrics';

describe('metric helpers', () => {
  it('define a metric once: a second definition returns the same metric', () => {
    const first = counter('test_calls_total', 'Calls', ['method']);
    expect(counter('test_calls_total', 'Calls', ['method'])).toBe(first);
    expect(histogram('test_latency_seconds', 'Latency')).toBe(histogram('test_latency_seconds', 'Latency'));
  });

  it('refuse a name already used by another type', () => {
    gauge('test_level', 'Level');
    expect(() => counter('test_level', 'Level')).toThrow('metric test_level is already defined with another type');
  });

  it('read an observed gauge at scrape time; the latest reader wins; no value is NaN', async () => {
    observedGauge('test_observed', 'Observed', () => 1);
    observedGauge('test_observed', 'Observed', () => 42);
    // With whatever default labels an earlier test of this process set (initMetrics).
    const line = (value: string) => new RegExp(`^test_observed(\\{[^}]*\\})? ${value}$`, 'm');
    expect((await metricsText()).body).toMatch(line('42'));
    observedGauge('test_observed', 'Observed', () => undefined);
    expect((await metricsText()).body).toMatch(line('Nan'));
  });

  it('read a labelled observed gauge at scrape time: each label set the reader gives, and none it leaves out', async () => {
    let queued: [{ api: string }, number][] = [[{ api: 'rippled' }, 3], [{ api: 'jsonrpc' }, 0]];
    observedGauges('test_queued', 'Queued', ['api'], () => queued);
    const sampleOf = (body: string, api: string) => new RegExp(`^test_queued\\{api="${api}"[^}]*\\} (\\d+)$`, 'm').exec(body)?.[1];
    let body = (await metricsText()).body;
    expect([sampleOf(body, 'rippled'), sampleOf(body, 'jsonrpc')]).toEqual(['3', '0']);
    queued = [[{ api: 'jsonrpc' }, 5]];
    body = (await metricsText()).body;
    expect([sampleOf(body, 'rippled'), sampleOf(body, 'jsonrpc')]).toEqual([undefined, '5']);
  });

  it('label every metric with ledger_node_service, never `service` (the target label Prometheus Operator sets)', async () => {
    initMetrics('sync');
    counter('test_labelled_total', 'Labelled').inc();
    const body = (await metricsText()).body;
    expect(body).toContain('\ntest_labelled_total{ledger_node_service="sync"} 1\n');
    expect(body).not.toMatch(/[{,]service="/);
  });

  it('say ledger_node_ready 1 or 0 as the readiness reader answers at scrape time', async () => {
    let ready = false;
    observeReadiness(async () => ready);
    expect((await metricsText()).body).toMatch(/\nledger_node_ready\{ledger_node_service="sync"\} 0\n/);
    ready = true;
    expect((await metricsText()).body).toMatch(/\nledger_node_ready\{ledger_node_service="sync"\} 1\n/);
    expect((await metricsText()).body).toContain('# TYPE ledger_node_ready gauge');
  });
});
