import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeLeftoverServers } from '../src/postgres';
import { startProcess, stopAll, tempDir, type RunningProcess } from '../src/processes';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A pid that no process has any more: a process that has ended. */
const endedPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

/** A server's folder as startPostgres leaves it: `data/postmaster.pid` naming the server's pid on its first line. */
function serverFolder(parent: string, name: string, serverPid: number): string {
  const dir = path.join(parent, name);
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  writeFileSync(path.join(dir, 'data/postmaster.pid'), `${serverPid}\n${path.join(dir, 'data')}\n`);
  return dir;
}

/** A process that runs until stopped, with these arguments on its command line, as `postgres -D <data>` has its folder. */
async function running(...args: string[]): Promise<RunningProcess> {
  const process = startProcess(['-e', "console.log('up'); setInterval(() => {}, 1000)", '--', ...args]);
  await process.waitFor(/up/);
  return process;
}

describe('removeLeftoverServers', () => {
  it("stops the servers of folders whose maker has ended and removes those folders, leaving running makers' folders and other pids alone", async () => {
    const { dir: parent, remove } = tempDir();
    cleanups.push(remove);
    const dead = endedPid();

    const leftOverDir = path.join(parent, `ledger-node-pg-${dead}-abc`);
    const leftOverServer = await running('-D', path.join(leftOverDir, 'data'));
    serverFolder(parent, `ledger-node-pg-${dead}-abc`, leftOverServer.pid);
    // The pid a left-over folder names now belongs to a process that is no server of it.
    const reusedPid = await running('-D', '/somewhere/else');
    const reusedDir = serverFolder(parent, `ledger-node-pg-${dead}-def`, reusedPid.pid);
    const templateDir = path.join(parent, `ledger-node-pg-cluster-${dead}-ghi`);
    mkdirSync(path.join(templateDir, 'data'), { recursive: true });
    const ownDir = serverFolder(parent, `ledger-node-pg-${process.pid}-jkl`, reusedPid.pid);
    const unrelatedDir = path.join(parent, `ledger-node-pg-other-${dead}`);
    mkdirSync(unrelatedDir);

    expect(removeLeftoverServers(parent)).toEqual({ stopped: 1, removed: 3 });
    expect(await leftOverServer.exited).toBe('SIGQUIT');
    expect([existsSync(leftOverDir), existsSync(reusedDir), existsSync(templateDir)]).toEqual([false, false, false]);
    expect(reusedPid.child.exitCode === null && reusedPid.child.signalCode === null).toBe(true);
    expect([existsSync(ownDir), existsSync(unrelatedDir)]).toEqual([true, true]);
  });
});
