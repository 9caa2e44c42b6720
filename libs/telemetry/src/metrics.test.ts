import { describe, expect, it } from 'vitest';
import { counter, gauge, histogram, metricsText, observedGauge } from './metrics';

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
    expect((await metricsText()).body).toContain('\ntest_observed 42\n');
    observedGauge('test_observed', 'Observed', () => undefined);
    expect((await metricsText()).body).toContain('\ntest_observed Nan\n');
  });
});
