/**
 * A node configured as an operator would: some flags in a -config file, some in LEDGER_NODE_<FLAG>,
 * the rest on the command line. The supervisor's services run with the same effective values (the
 * facade listens where the file and the environment say), and every service names its build.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from '@ledger-node/telemetry';
import { childPids, cliEntry, freePort, freePortBlock, rpcClient, startProcess, stopAll, tempDir, type RunningProcess } from '@ledger-node/test-utils';

let dir: { dir: string; remove: () => void };
let node: RunningProcess;
let rpcPort: number;
let apiPort: number;
let metricsPort: number;

beforeAll(async () => {
  dir = tempDir('config-sources-');
  [rpcPort, apiPort, metricsPort] = [await freePort(), await freePort(), await freePortBlock(5)];
  // The file is named on the command line only: a child that did not get its values as arguments would not see them.
  const config = path.join(dir.dir, 'ledger-node.toml');
  writeFileSync(
    config,
    [
      '# ledger-node -config: flag = value',
      `data_dir = "${path.join(dir.dir, 'data')}"`,
      'api = true',
      'apiaddr = "127.0.0.1"',
      `apiport = ${apiPort}`,
      'rpcport = 1',
      `metrics_port = ${metricsPort}`,
      'metrics_addr = "127.0.0.1"',
      'close_ms = 300',
      '',
    ].join('\n'),
  );
  node = startProcess([cliEntry(), '-dev', '-rpc', '-config', config], {
    // The environment overrides the file's rpcport.
    env: { LEDGER_NODE_RPCPORT: String(rpcPort), LEDGER_NODE_RPCADDR: '127.0.0.1' },
    cwd: dir.dir,
  });
  await node.waitFor(/facade\s+ready/, 120_000);
}, 150_000);

afterAll(async () => {
  await stopAll();
  dir?.remove();
});

describe('a node configured by a -config file and LEDGER_NODE_* variables', () => {
  it('serves JSON-RPC where the environment says and REST where the file says', async () => {
    const answer = await rpcClient(rpcPort)('jt_blockNumber');
    expect(answer.status, JSON.stringify(answer)).toBe('success');
    const status = (await (await fetch(`http://127.0.0.1:${apiPort}/v1/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ version: buildInfo().version, commit: buildInfo().commit, chain: 'xrpl' });
  });

  it('gives the services the effective values as their arguments, -config itself left out', () => {
    const facade = childPids(node).get('facade');
    expect(facade).toBeDefined();
    const args = readFileSync(`/proc/${facade}/cmdline`, 'utf8').split('\0');
    expect(args).toEqual(expect.arrayContaining([`-rpcport=${rpcPort}`, `-apiport=${apiPort}`, '-api=true', `-data_dir=${path.join(dir.dir, 'data')}`]));
    expect(args.some((arg) => arg.startsWith('-config'))).toBe(false);
  });

  it('names its build in ledger_node_build_info on every service\'s /metrics', async () => {
    const { version, commit, nodeVersion } = buildInfo();
    // ledger-store on the base port, keystore +1, submission +2, sync +3, facade +4.
    for (let offset = 0; offset < 5; offset++) {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort + offset}/metrics`)).text();
      const line = text.split('\n').find((each) => each.startsWith('ledger_node_build_info{'));
      expect(line, `metrics port +${offset}`).toBeDefined();
      for (const label of [`version="${version}"`, `commit="${commit}"`, `node_version="${nodeVersion}"`]) expect(line).toContain(label);
      expect(line).toMatch(/\} 1$/);
    }
  });
});
