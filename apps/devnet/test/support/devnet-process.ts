/** Starts the devnet as a separate process on a free port for end-to-end tests. */
import { cliEntry, freePort, startProcess, type RunningProcess } from '@ledger-node/test-utils';

export interface DevnetProcess {
  url: string;
  process: RunningProcess;
  stop(): Promise<void>;
}

export async function startDevnet(flags: string[] = []): Promise<DevnetProcess> {
  const port = await freePort();
  const running = startProcess([cliEntry(), 'devnet', '-port', String(port), '-log_level', 'info', ...flags]);
  try {
    const [, url] = (await running.waitFor(/devnet listening on (ws:\/\/[\w.:]+)/, 30_000)) as RegExpMatchArray;
    return { url: url!, process: running, stop: async () => void (await running.stop()) };
  } catch (error) {
    await running.stop('SIGKILL', 1000);
    throw error;
  }
}
