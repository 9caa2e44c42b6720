import { describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { watchReadiness } from './readiness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchReadiness', () => {
  it('says "not ready yet" at debug while the service starts, warns once the start-up grace has passed, and warns at once when readiness is lost later', async () => {
    const lines: { level: string; msg: string }[] = [];
    const logger = createLogger('test', 'debug', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    const served: boolean[] = [];
    let reason: string | undefined = 'ledger-store unavailable: cannot connect';
    const stop = watchReadiness({ setReady: (ready) => served.push(ready) }, async () => reason, logger, 20, 150);
    try {
      await sleep(250);
      reason = undefined;
      await sleep(60);
      reason = 'not connected to the upstream';
      await sleep(60);
    } finally {
      stop();
    }
    expect(lines.map((line) => [line.level, line.msg.replace(/\d+ s after/, 'N s after')])).toEqual([
      ['debug', 'not ready yet: ledger-store unavailable: cannot connect'],
      ['warn', 'not ready N s after start: ledger-store unavailable: cannot connect'],
      ['info', 'ready'],
      ['warn', 'not ready: not connected to the upstream'],
    ]);
    expect(served).toEqual([false, true, false]);
  });
});
