// Loaded by the bench into every process of the node it measures (NODE_OPTIONS=--require …) and
// into nothing else: SIGUSR2 starts a V8 CPU profile of the process, the next SIGUSR2 writes it to
// $LEDGER_NODE_BENCH_PROFILES/<pid>-<n>.cpuprofile (written under a temporary name, then renamed,
// so that a reader never sees half a file). request-profile.ts reads them.
'use strict';
const { Session } = require('node:inspector');
const { renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const folder = process.env.LEDGER_NODE_BENCH_PROFILES;
if (folder) {
  const session = new Session();
  session.connect();
  let running = false;
  let written = 0;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 250 }, () => session.post('Profiler.start')));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      const file = path.join(folder, `${process.pid}-${++written}.cpuprofile`);
      writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
      renameSync(`${file}.partial`, file);
    });
  });
}
