/**
 * `ledger-node verify-proof` on a proof document, as a user runs it on a saved file. Run without
 * blocking: the test's HTTP clients meanwhile see their idle connections closed by the node, and
 * never reuse one closed.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { cliEntry } from '@ledger-node/test-utils';

const execFileAsync = promisify(execFile);

/** Writes `document` to `<dir>/<name>.json` and verifies it with `publisher`'s key: the exit status and what it printed. */
export async function verifyProofCommand(document: unknown, publisher: string, dir: string, name: string): Promise<{ status: number; stdout: string }> {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  try {
    const { stdout } = await execFileAsync(process.execPath, [cliEntry(), 'verify-proof', file, '-validator_list_keys', publisher], { env: { ...process.env, NO_COLOR: '1' } });
    return { status: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { status: failed.code, stdout: failed.stdout };
  }
}
