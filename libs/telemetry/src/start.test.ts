import { describe, expect, it } from 'vitest';
import { tracingRequested } from './start';

describe('tracingRequested (the standard OTEL_* variables)', () => {
  it('is off when nothing is set, so no SDK loads', () => {
    expect(tracingRequested({})).toBe(false);
  });

  it('is on with an OTLP endpoint, general or for traces', () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('is on when OTEL_TRACES_EXPORTER names an exporter (otlp to its default endpoint, console)', () => {
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
  });

  it('stays off when disabled, whatever else is set', () => {
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
  });
});
