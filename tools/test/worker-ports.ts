/**
 * Set up before each end-to-end file (vitest.workspace.config.ts): when files run side by side, each
 * worker takes a slice of its own of the port range (LEDGER_NODE_PORT_RANGE, else 10000-32767, below
 * Linux's ephemeral ports), so that two files never hand out the same free port at once. The
 * processes a file starts inherit the slice (they read it as -port_range).
 */
import { testPortRange } from '@ledger-node/test-utils';

const workers = Number(process.env.LEDGER_NODE_TEST_WORKERS ?? 2);
const worker = Number(process.env.VITEST_POOL_ID ?? 1);
// A worker that runs several files sets its slice once.
if (workers > 1 && process.env.LEDGER_NODE_TEST_WORKER_SLICE === undefined) {
  const range = testPortRange() ?? { first: 10_000, last: 32_767 };
  const size = Math.floor((range.last - range.first + 1) / workers);
  if (size < 64) throw new Error(`LEDGER_NODE_PORT_RANGE ${process.env.LEDGER_NODE_PORT_RANGE} is too small for ${workers} test workers (at least ${64 * workers} ports)`);
  const first = range.first + ((worker - 1) % workers) * size;
  process.env.LEDGER_NODE_PORT_RANGE = `${first}-${first + size - 1}`;
  process.env.LEDGER_NODE_TEST_WORKER_SLICE = String(worker);
}
