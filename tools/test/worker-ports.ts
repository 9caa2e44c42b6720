/**
 * Set up before each end-to-end file (vitest.workspace.config.ts): when files run side by side, each
 * worker takes a slice of its own of the port range (LEDGER_NODE_PORT_RANGE, else 10000-32767, below
 * Linux's ephemeral ports), so that two files never hand out the same free port at once. The
 * processes a file starts inherit the slice (they read it as -port_range). The range is cut in
 * LEDGER_NODE_TEST_PORT_SLICES slices; the workers of this vitest run (LEDGER_NODE_TEST_LANE_WORKERS)
 * take those from LEDGER_NODE_TEST_FIRST_SLICE on, so that the two lanes' workers differ too.
 */
import { testPortRange } from '@ledger-node/test-utils';

const slices = Number(process.env.LEDGER_NODE_TEST_PORT_SLICES ?? 1);
const laneWorkers = Number(process.env.LEDGER_NODE_TEST_LANE_WORKERS ?? 1);
const firstSlice = Number(process.env.LEDGER_NODE_TEST_FIRST_SLICE ?? 0);
const worker = Number(process.env.VITEST_POOL_ID ?? 1);
// A worker that runs several files sets its slice once.
if (slices > 1 && process.env.LEDGER_NODE_TEST_WORKER_SLICE === undefined) {
  const range = testPortRange() ?? { first: 10_000, last: 32_767 };
  const size = Math.floor((range.last - range.first + 1) / slices);
  if (size < 64) throw new Error(`LEDGER_NODE_PORT_RANGE ${process.env.LEDGER_NODE_PORT_RANGE} is too small for ${slices} test workers (at least ${64 * slices} ports)`);
  const slice = firstSlice + ((worker - 1) % laneWorkers);
  const first = range.first + slice * size;
  process.env.LEDGER_NODE_PORT_RANGE = `${first}-${first + size - 1}`;
  process.env.LEDGER_NODE_TEST_WORKER_SLICE = String(slice);
}
