import { describe, expect, it } from 'vitest';
import { LTS_NODE_MAJOR, runtimeEndOfLife } from './runtime-support';

const day = (text: string) => new Date(`${text}T12:00:00Z`);

describe('runtimeEndOfLife', () => {
  it('warns of Node.js 20 from 2026-04-30 on, naming the version, the day and the LTS to run instead', () => {
    const warning = runtimeEndOfLife('v20.20.2', day('2026-11-29'));
    expect(warning).toBe(`Node.js v20.20.2 is end of life since 2026-04-30 and gets no security fixes: run ledger-node on Node.js ${LTS_NODE_MAJOR} (LTS), as its container image does`);
    expect(runtimeEndOfLife('v20.20.2', day('2026-04-30'))).toBeDefined();
    expect(runtimeEndOfLife('v20.20.2', day('2026-04-29'))).toBeUndefined();
  });

  it('says nothing of a line still supported', () => {
    expect(runtimeEndOfLife('v26.12.1', day('2026-11-29'))).toBeUndefined();
    expect(runtimeEndOfLife('v24.22.3', day('2026-11-29'))).toBeUndefined();
    expect(runtimeEndOfLife('v22.12.0', day('2026-11-29'))).toBeUndefined();
  });

  it('warns of Node.js 26, the LTS of today, once its support ends on 2029-04-30', () => {
    expect(runtimeEndOfLife('v26.12.1', day('2029-04-29'))).toBeUndefined();
    expect(runtimeEndOfLife('v26.12.1', day('2029-04-30'))).toMatch(/^Node\.js v26\.12\.1 is end of life since 2029-04-30/);
  });

  it('warns of the odd (never LTS) lines once their six months are over', () => {
    expect(runtimeEndOfLife('v25.1.0', day('2026-11-29'))).toMatch(/^Node\.js v25\.1\.0 is end of life since 2026-06-01/);
    expect(runtimeEndOfLife('v25.1.0', day('2026-05-31'))).toBeUndefined();
  });

  it('takes a line newer than it knows, or a version it cannot read, as supported', () => {
    expect(runtimeEndOfLife('v28.0.0', day('2030-01-01'))).toBeUndefined();
    expect(runtimeEndOfLife('nightly', day('2030-01-01'))).toBeUndefined();
  });

  it('judges the running Node.js, today, by default', () => {
    expect(runtimeEndOfLife()).toBe(runtimeEndOfLife(process.version, new Date()));
  });
});
