import { describe, expect, it } from 'vitest';
import type { RunningProcess } from '@ledger-node/test-utils';
import { crashesOf, SupervisedServices } from './processes';

/** A supervisor as the bench sees it: its output, status lines of the services it started. */
type StatusLine = { child: string; state: string; childPid: number };

function supervisor(lines: StatusLine[]): RunningProcess {
  const output = () => lines.map((line) => `${JSON.stringify({ service: 'ledger-node', ...line, msg: `${line.child} ${line.state} pid ${line.childPid}` })}\n`).join('');
  return { output } as unknown as RunningProcess;
}

describe('SupervisedServices', () => {
  it("kills the left-over services of the supervisor that stopped, and no other supervisor's", () => {
    const killed: number[] = [];
    const services = new SupervisedServices((pid) => killed.push(pid));
    const lines: StatusLine[] = [
      { child: 'keystore', state: 'starting', childPid: 101 },
      { child: 'facade', state: 'starting', childPid: 102 },
    ];
    const node = supervisor(lines);
    const cli = supervisor([{ child: 'keystore', state: 'starting', childPid: 201 }]);
    expect(services.of(node)).toEqual(new Map([['keystore', 101], ['facade', 102]]));
    // The facade restarted between two reads: both of its pids are the node's.
    lines.push({ child: 'facade', state: 'restarted', childPid: 103 });
    expect(services.of(node)).toEqual(new Map([['keystore', 101], ['facade', 103]]));
    services.of(cli);

    services.killLeftOver(cli);
    expect(killed).toEqual([201]);
    services.killLeftOver(cli);
    expect(killed).toEqual([201]);

    services.killAll();
    expect(killed.sort()).toEqual([101, 102, 103, 201]);
  });

  it('kills nothing for a process whose services were never read', () => {
    const killed: number[] = [];
    const services = new SupervisedServices((pid) => killed.push(pid));
    services.of(supervisor([{ child: 'sync', state: 'starting', childPid: 301 }]));
    services.killLeftOver(supervisor([]));
    expect(killed).toEqual([]);
  });
});

describe('crashesOf', () => {
  it('names every crash of a service while the node ran', () => {
    const node = supervisor([
      { child: 'keystore', state: 'starting', childPid: 101 },
      { child: 'keystore', state: 'crashed', childPid: 101 },
      { child: 'keystore', state: 'restarted', childPid: 104 },
    ]);
    expect(crashesOf(node)).toBe('1 service crash while it was measured: keystore crashed pid 101');
  });

  it('says nothing of a node whose services all stayed up', () => {
    expect(crashesOf(supervisor([{ child: 'facade', state: 'starting', childPid: 102 }, { child: 'facade', state: 'stopped', childPid: 102 }]))).toBeUndefined();
  });
});
